import { sql, type Kysely, type RawBuilder, type Transaction } from "kysely";
import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";

type Tx = Kysely<Database> | Transaction<Database>;

/*
 * The rules other areas check before showing one person to another or letting them reach each
 * other: a suspended or deleted person is nowhere, and two people with a block between them (either way)
 * do not see or reach each other. The SQL condition lives here only.
 */

/**
 * True for a row of `users as <alias>` the viewer may see: not suspended, not deleted, no block either way.
 * For use in `.where(...)` of a query that joins the users table under that alias.
 */
export function shownTo(viewerId: string, alias: string): RawBuilder<boolean> {
  const id = sql.ref(`${alias}.id`);
  return sql<boolean>`(${sql.ref(`${alias}.suspended_at`)} is null and ${sql.ref(`${alias}.deleted_at`)} is null and not exists (select 1 from blocks bl
    where (bl.blocker_id = ${viewerId} and bl.blocked_id = ${id}) or (bl.blocker_id = ${id} and bl.blocked_id = ${viewerId})))`;
}

/** Suspended by an operator or deleted by themselves: shown nowhere, reached by no one, reported or blocked no more. */
export async function isInactive(userId: string, database: Tx = db): Promise<boolean> {
  const row = await database
    .selectFrom("users")
    .select(["suspended_at", "deleted_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return Boolean(row?.suspended_at || row?.deleted_at);
}

/** A block between two people, whichever of them made it. */
export async function blockedBetween(one: string, two: string, database: Tx = db): Promise<boolean> {
  const row = await database
    .selectFrom("blocks")
    .select("blocker_id")
    .where((eb) =>
      eb.or([
        eb.and([eb("blocker_id", "=", one), eb("blocked_id", "=", two)]),
        eb.and([eb("blocker_id", "=", two), eb("blocked_id", "=", one)]),
      ]),
    )
    .executeTakeFirst();
  return Boolean(row);
}

export async function hasBlocked(blockerId: string, blockedId: string, database: Tx = db): Promise<boolean> {
  return Boolean(
    await database
      .selectFrom("blocks")
      .select("blocker_id")
      .where("blocker_id", "=", blockerId)
      .where("blocked_id", "=", blockedId)
      .executeTakeFirst(),
  );
}

/** Whether two people may reach each other (message, book, like): neither suspended nor deleted, no block. */
export async function mayReach(one: string, two: string, database: Tx = db): Promise<boolean> {
  if (one === two) return false;
  const people = await database
    .selectFrom("users")
    .select(["id", "suspended_at", "deleted_at"])
    .where("id", "in", [one, two])
    .execute();
  if (people.length !== 2 || people.some((person) => person.suspended_at || person.deleted_at)) return false;
  return !(await blockedBetween(one, two, database));
}
