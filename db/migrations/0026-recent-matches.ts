import type { Kysely } from "kysely";

// A person's newest matches, read from each side of the pair in created order: the dashboard reads the
// few it shows, not every match the person ever made, then sorts them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("matches_user_a_recent").on("matches").columns(["user_a_id", "created_at"]).execute();
  await db.schema.createIndex("matches_user_b_recent").on("matches").columns(["user_b_id", "created_at"]).execute();
  await db.schema.dropIndex("matches_user_b").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("matches_user_b").on("matches").column("user_b_id").execute();
  await db.schema.dropIndex("matches_user_b_recent").execute();
  await db.schema.dropIndex("matches_user_a_recent").execute();
}
