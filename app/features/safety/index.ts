export { REPORT_DETAILS_MAX, REPORT_REASONS, REPORTABLE, type ReportableSubject } from "./report-options";
export { reportSchema } from "./schema";
