import { sql, type Kysely } from "kysely";

// A person's newest matches and most recently active conversations, read from each side of the pair in
// that order: the dashboard and the conversation list read the few they show, not every match or
// conversation the person ever had, then sort them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("matches_user_a_recent").on("matches").columns(["user_a_id", "created_at"]).execute();
  await db.schema.createIndex("matches_user_b_recent").on("matches").columns(["user_b_id", "created_at"]).execute();
  await db.schema.dropIndex("matches_user_b").execute();
  await db.schema
    .createIndex("conversations_user_a_recent")
    .on("conversations")
    .expression(sql`user_a_id, coalesce(last_message_at, created_at), id`)
    .execute();
  await db.schema
    .createIndex("conversations_user_b_recent")
    .on("conversations")
    .expression(sql`user_b_id, coalesce(last_message_at, created_at), id`)
    .execute();
  await db.schema.dropIndex("conversations_user_b").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("conversations_user_b").on("conversations").column("user_b_id").execute();
  await db.schema.dropIndex("conversations_user_b_recent").execute();
  await db.schema.dropIndex("conversations_user_a_recent").execute();
  await db.schema.createIndex("matches_user_b").on("matches").column("user_b_id").execute();
  await db.schema.dropIndex("matches_user_b_recent").execute();
  await db.schema.dropIndex("matches_user_a_recent").execute();
}
