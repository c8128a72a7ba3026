export { REPORT_DETAILS_MAX, REPORT_REASONS, REPORTABLE, type ReportableSubject } from "./report-options";
export { reportSchema } from "./schema";

// The forms' schemas, for validation in the browser once a form is in use.
export const loadSafetySchemas = () => import("./schema");
