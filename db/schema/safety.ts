// Written by features/safety: reports and blocks; the operator's console (features/admin) resolves reports.

import type { Generated, Selectable } from "kysely";
import type { IsoTime } from "./shared";

export type ReportSubject = "profile" | "message" | "review" | "booking";
export type ReportReason = "scam" | "inappropriate" | "harassment" | "unsafe-animals" | "fake-profile" | "other";
export type ReportResolution = "dismissed" | "hidden" | "warned" | "suspended";

export interface ReportsTable {
  id: string;
  reporter_id: string;
  /** The person the report is about (never shown who reported them). */
  reported_user_id: string;
  subject_type: ReportSubject;
  subject_id: string;
  reason: ReportReason;
  details: Generated<string>;
  status: Generated<"open" | "closed">;
  resolution: ReportResolution | null;
  resolved_by: string | null;
  resolved_at: IsoTime | null;
  created_at: IsoTime;
}

export interface BlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: IsoTime;
}

export type Report = Selectable<ReportsTable>;

export interface SafetyTables {
  reports: ReportsTable;
  blocks: BlocksTable;
}
