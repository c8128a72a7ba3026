import { db } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";

export type BlockResult = "blocked" | "already" | "self" | "not-found" | "inactive";

/** Instant, no operator: every query that shows or reaches people reads the blocks table. */
export async function blockPerson(blockerId: string, blockedId: string): Promise<BlockResult> {
  if (blockerId === blockedId) return "self";
  return db.transaction().execute(async (trx): Promise<BlockResult> => {
    const other = await trx
      .selectFrom("users")
      .select(["id", "suspended_at", "deleted_at"])
      .where("id", "=", blockedId)
      .executeTakeFirst();
    if (!other) return "not-found";
    // Nobody sees or reaches them any more: a block would change nothing.
    if (other.suspended_at || other.deleted_at) return "inactive";
    const inserted = await trx
      .insertInto("blocks")
      .values({ blocker_id: blockerId, blocked_id: blockedId, created_at: nowIso() })
      .onConflict((oc) => oc.columns(["blocker_id", "blocked_id"]).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0 ? "already" : "blocked";
  });
}

export async function unblockPerson(blockerId: string, blockedId: string): Promise<boolean> {
  const result = await db
    .deleteFrom("blocks")
    .where("blocker_id", "=", blockerId)
    .where("blocked_id", "=", blockedId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface BlockedPerson {
  userId: string;
  name: string;
  blockedAt: string;
}

/** The people this person blocked (their privacy section), newest first. */
export async function blockedBy(blockerId: string): Promise<BlockedPerson[]> {
  const rows = await db
    .selectFrom("blocks as b")
    .innerJoin("users as u", "u.id", "b.blocked_id")
    .select(["u.id", "u.name", "b.created_at"])
    .where("b.blocker_id", "=", blockerId)
    .orderBy("b.created_at", "desc")
    .limit(500)
    .execute();
  return rows.map((row) => ({ userId: row.id, name: row.name, blockedAt: row.created_at }));
}
