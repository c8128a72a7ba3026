import type { Kysely, Transaction } from "kysely";
import type { Database } from "~db/schema";
import { json } from "./db.server";
import { nowIso } from "./clock.server";
import { withoutContactData } from "./validation";

export const AUDIT_REASON_MAX = 1000;

export interface AuditRecord {
  /** The operator who acted; null for a command run on the server (admin:grant / admin:revoke). */
  operatorId: string | null;
  /** What was done, e.g. "user.suspend", "report.dismiss", "message.hide". */
  action: string;
  /** Which kind of record it was done to, e.g. "user", "report", "message", "booking". */
  subjectType: string;
  subjectId: string;
  /**
   * Why: every operator action states one. Kept for good, so it names people by id only: the forms
   * refuse emails and phone numbers, and any that reach here are cut out.
   */
  reason: string;
  details?: Record<string, unknown>;
}

/**
 * Appends one row to the audit log, in the caller's transaction so the record and the act it
 * describes commit together. The table refuses updates and deletes (migration 0017).
 */
export async function recordAudit(trx: Transaction<Database> | Kysely<Database>, record: AuditRecord): Promise<void> {
  const reason = record.reason.trim();
  if (reason.length === 0) throw new Error("An operator action needs a reason.");
  await trx
    .insertInto("audit_log")
    .values({
      operator_id: record.operatorId,
      action: record.action,
      subject_type: record.subjectType,
      subject_id: record.subjectId,
      reason: withoutContactData(reason).slice(0, AUDIT_REASON_MAX),
      details: json<unknown>().write(record.details ?? {}),
      created_at: nowIso(),
    })
    .execute();
}
