import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // How often an email was tried, when it may be tried again (null: now), and when delivery gave
  // up on it (the mail server refused it for good, or a day went by), so no email is tried forever
  // and none that failed holds back the ones behind it.
  await db.schema
    .alterTable("email_outbox")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("email_outbox").addColumn("next_try_at", "text").execute();
  await db.schema.alterTable("email_outbox").addColumn("failed_at", "text").execute();
  await db.schema
    .createIndex("email_outbox_pending")
    .on("email_outbox")
    .columns(["sent_at", "failed_at", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("email_outbox_pending").execute();
  await db.schema.alterTable("email_outbox").dropColumn("failed_at").execute();
  await db.schema.alterTable("email_outbox").dropColumn("next_try_at").execute();
  await db.schema.alterTable("email_outbox").dropColumn("attempts").execute();
}
