import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Whether each kind of news also goes by email (in-app always). Chat is live, so its emails and
  // marketing are off until asked for.
  await db.schema
    .alterTable("users")
    .addColumn("email_messages", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("email_bookings", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("email_reviews", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("email_marketing", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // Set when the account was erased: the row stays only for the records the law makes us keep.
  await db.schema.alterTable("users").addColumn("deleted_at", "text").execute();

  // RFC 8058 one-click address, sent as List-Unsubscribe; and emails whose address and text are
  // wiped once delivered (the confirmation sent to an erased account).
  await db.schema.alterTable("email_outbox").addColumn("unsubscribe_url", "text").execute();
  await db.schema
    .alterTable("email_outbox")
    .addColumn("purge_after_send", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("email_changes")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("new_email", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("email_changes_user").on("email_changes").column("user_id").execute();

  await db.schema
    .createTable("data_exports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("data_exports_user").on("data_exports").columns(["user_id", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("data_exports").execute();
  await db.schema.dropTable("email_changes").execute();
  await db.schema.alterTable("email_outbox").dropColumn("purge_after_send").execute();
  await db.schema.alterTable("email_outbox").dropColumn("unsubscribe_url").execute();
  for (const column of ["deleted_at", "email_marketing", "email_reviews", "email_bookings", "email_messages"]) {
    await db.schema.alterTable("users").dropColumn(column).execute();
  }
}
