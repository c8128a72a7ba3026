import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The offline provider's payouts: money taken by a charge on the platform, later sent on to a sitter
  // (Stripe: a transfer to the connected account, reversed in part or whole by a refund after it).
  await db.schema
    .createTable("test_transfers")
    .addColumn("ref", "text", (c) => c.primaryKey())
    .addColumn("charge_ref", "text", (c) => c.notNull())
    .addColumn("payee_ref", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("reversed_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("test_transfers_charge").on("test_transfers").column("charge_ref").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("test_transfers").execute();
}
