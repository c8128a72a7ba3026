import { sql, type Kysely } from "kysely";
import { bigInteger } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // When a row's window ends (seconds since the epoch, like window_started_at). Limits have
  // windows of their own length, so each row says when it stops counting, and the scheduler
  // deletes the rows past it.
  await db.schema
    .alterTable("rate_limits")
    .addColumn("expires_at", bigInteger(db), (c) => c.notNull().defaultTo(0))
    .execute();
  // The window of a row written before now is unknown: thirty days outlast any window in use, and
  // the row's next attempt writes its real end.
  await sql`update rate_limits set expires_at = window_started_at + ${30 * 24 * 60 * 60}`.execute(db);
  await db.schema.createIndex("rate_limits_expires_at").on("rate_limits").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("rate_limits_expires_at").execute();
  await db.schema.alterTable("rate_limits").dropColumn("expires_at").execute();
}
