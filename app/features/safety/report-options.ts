// Apart from the schema: the report page shows them without loading zod.
export const REPORT_REASONS = [
  "scam",
  "inappropriate",
  "harassment",
  "unsafe-animals",
  "fake-profile",
  "other",
] as const;
export const REPORTABLE = ["profile", "message", "review"] as const;
export type ReportableSubject = (typeof REPORTABLE)[number];
export const REPORT_DETAILS_MAX = 1000;
