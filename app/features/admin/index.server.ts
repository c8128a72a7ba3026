export { openReportCount } from "./reports.server";
export { setAdmin } from "./roles.server";
export type { RoleChange } from "./roles.server";
