import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The server's VAPID key pair when none is configured (development, demo, end-to-end tests): made
  // once, so subscriptions stay valid across restarts and every instance signs with the same key.
  await db.schema
    .createTable("push_keys")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("private_key", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("push_keys").execute();
}
