import type { Kysely } from "kysely";
import { serialId } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A browser's Web Push subscription: where the push service takes our messages for that device,
  // and the keys the payload is encrypted with. One endpoint belongs to one person (the browser's
  // current account); at most 10 per person, the oldest dropped.
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("endpoint", "text", (c) => c.notNull().unique())
    .addColumn("p256dh", "text", (c) => c.notNull())
    .addColumn("auth", "text", (c) => c.notNull())
    .addColumn("device_label", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("push_subscriptions_user")
    .on("push_subscriptions")
    .columns(["user_id", "created_at"])
    .execute();

  // One row per push and device, written in the transaction of the change it tells of, then sent by
  // the scheduler (one instance at a time) with retries, like the email outbox.
  const [idType, idColumn] = serialId(db);
  await db.schema
    .createTable("push_outbox")
    .addColumn("id", idType, idColumn)
    .addColumn("subscription_id", "text", (c) => c.notNull().references("push_subscriptions.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull())
    // Whose act the push tells of (a message's sender): nothing goes out once they are blocked or suspended.
    .addColumn("source_user_id", "text")
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("link", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_try_at", "text")
    .addColumn("sent_at", "text")
    .addColumn("failed_at", "text")
    .addColumn("last_error", "text")
    .execute();
  await db.schema
    .createIndex("push_outbox_pending")
    .on("push_outbox")
    .columns(["sent_at", "failed_at", "id"])
    .execute();
  await db.schema.createIndex("push_outbox_subscription").on("push_outbox").column("subscription_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("push_outbox").execute();
  await db.schema.dropTable("push_subscriptions").execute();
}
