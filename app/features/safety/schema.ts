import { optionalText, z } from "~/platform/validation";

export const REPORT_REASONS = ["scam", "inappropriate", "harassment", "unsafe-animals", "fake-profile", "other"] as const;
export const REPORTABLE = ["profile", "message", "review"] as const;
export type ReportableSubject = (typeof REPORTABLE)[number];
export const REPORT_DETAILS_MAX = 1000;

export const reportSchema = z.object({
  reason: z.enum(REPORT_REASONS, "safety:report.errors.reason"),
  details: optionalText(REPORT_DETAILS_MAX),
});
