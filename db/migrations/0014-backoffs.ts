import type { Kysely } from "kysely";
import { bigInteger } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Attempts counted under a key (a sign-in email) and when the last one was let through, so each
  // attempt past the free ones waits longer than the one before (rate-limit.server.ts).
  await db.schema
    .createTable("backoffs")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("last_attempt_at", bigInteger(db), (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("backoffs").execute();
}
