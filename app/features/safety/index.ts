export { REPORT_DETAILS_MAX, REPORT_REASONS, REPORTABLE, reportSchema } from "./schema";
export type { ReportableSubject } from "./schema";
