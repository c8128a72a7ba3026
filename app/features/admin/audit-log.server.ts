import { db } from "~/platform/db.server";

export const AUDIT_PAGE = 50;

export interface AuditView {
  id: number;
  at: string;
  operator: { id: string; name: string } | null;
  action: string;
  subjectType: string;
  subjectId: string;
  reason: string;
  details: string;
}

/** Newest first, a page at a time (`before` an id); optionally only the rows about one record. */
export async function auditEntries({ before, subjectId }: { before?: number; subjectId?: string } = {}): Promise<{
  entries: AuditView[];
  next: number | null;
}> {
  let query = db
    .selectFrom("audit_log as a")
    .leftJoin("users as u", "u.id", "a.operator_id")
    .select([
      "a.id",
      "a.created_at",
      "a.operator_id",
      "u.name as operator_name",
      "a.action",
      "a.subject_type",
      "a.subject_id",
      "a.reason",
      "a.details",
    ]);
  if (before !== undefined) query = query.where("a.id", "<", before);
  if (subjectId) query = query.where("a.subject_id", "=", subjectId);
  const rows = await query
    .orderBy("a.id", "desc")
    .limit(AUDIT_PAGE + 1)
    .execute();
  const entries = rows.slice(0, AUDIT_PAGE).map((row) => ({
    id: row.id,
    at: row.created_at,
    operator: row.operator_id ? { id: row.operator_id, name: row.operator_name ?? row.operator_id } : null,
    action: row.action,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    reason: row.reason,
    details: row.details === "{}" ? "" : row.details,
  }));
  return { entries, next: rows.length > AUDIT_PAGE ? entries[entries.length - 1]!.id : null };
}
