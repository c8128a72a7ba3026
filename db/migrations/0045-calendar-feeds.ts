import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A person's private calendar address: whoever knows the token reads their confirmed bookings (as a
  // phone's calendar does, without signing in). Made on request; a reset replaces the token, so the old
  // address stops at once; turning it off deletes the row.
  await db.schema
    .createTable("calendar_feeds")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("token", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("calendar_feeds").execute();
}
