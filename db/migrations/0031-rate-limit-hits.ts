import type { Kysely } from "kysely";
import { bigInteger } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per attempt let through under a key, for limits over a sliding window (the last 24 hours,
  // not the current day): a fixed window lets twice the limit through across its edge.
  await db.schema
    .createTable("rate_limit_hits")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull())
    // Milliseconds since the epoch.
    .addColumn("at", bigInteger(db), (c) => c.notNull())
    .addColumn("expires_at", bigInteger(db), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_hits_key_at").on("rate_limit_hits").columns(["key", "at"]).execute();
  await db.schema.createIndex("rate_limit_hits_expires_at").on("rate_limit_hits").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("rate_limit_hits").execute();
}
