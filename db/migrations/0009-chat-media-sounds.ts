import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A chat image is kept in two sizes: the bubble shows the small one and links to the full one.
  await db.schema.alterTable("messages").addColumn("media_preview_key", "text").execute();
  // The media route looks attachments up by key to check that the viewer is in the conversation.
  await db.schema
    .createIndex("messages_by_media_key")
    .on("messages")
    .column("media_key")
    .where(sql.ref("media_key"), "is not", null)
    .execute();
  await db.schema
    .createIndex("messages_by_media_preview_key")
    .on("messages")
    .column("media_preview_key")
    .where(sql.ref("media_preview_key"), "is not", null)
    .execute();
  // Whether the app may play its notification sound for this person.
  await db.schema
    .alterTable("users")
    .addColumn("sounds_enabled", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex("notifications_user_unread")
    .on("notifications")
    .columns(["user_id", "is_read"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("notifications_user_unread").execute();
  await db.schema.alterTable("users").dropColumn("sounds_enabled").execute();
  await db.schema.dropIndex("messages_by_media_preview_key").execute();
  await db.schema.dropIndex("messages_by_media_key").execute();
  await db.schema.alterTable("messages").dropColumn("media_preview_key").execute();
}
