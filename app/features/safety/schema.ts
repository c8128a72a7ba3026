import { optionalText, z } from "~/platform/validation";
import { REPORT_DETAILS_MAX, REPORT_REASONS, REPORTABLE, type ReportableSubject } from "./report-options";

export { REPORT_DETAILS_MAX, REPORT_REASONS, REPORTABLE, type ReportableSubject };

export const reportSchema = z.object({
  reason: z.enum(REPORT_REASONS, "safety:report.errors.reason"),
  details: optionalText(REPORT_DETAILS_MAX),
});
