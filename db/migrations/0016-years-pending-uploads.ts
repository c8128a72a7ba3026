import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("years_experience", "integer").execute();
  // Photos sent with a refused form (JavaScript off), kept an hour so the corrected form can use them.
  await db.schema
    .createTable("pending_uploads")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("form", "text", (c) => c.notNull())
    .addColumn("card_key", "text", (c) => c.notNull())
    .addColumn("full_key", "text", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("pending_uploads_owner")
    .on("pending_uploads")
    .columns(["user_id", "form", "created_at"])
    .execute();
  await db.schema.createIndex("pending_uploads_created_at").on("pending_uploads").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("pending_uploads").execute();
  await db.schema.alterTable("users").dropColumn("years_experience").execute();
}
