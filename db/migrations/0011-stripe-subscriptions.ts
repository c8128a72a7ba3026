import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // When a card last became the default: changing the default at the processor is keyed by it, so
  // a retry repeats the same request and a later change (even back to an earlier card) is a new one.
  await db.schema.alterTable("payment_methods").addColumn("default_since", "text").execute();
  await sql`update payment_methods set default_since = created_at where is_default = 1`.execute(db);
  // Webhooks find our subscription by the processor's.
  await sql`create index subscriptions_by_provider_ref on subscriptions (provider_subscription_ref) where provider_subscription_ref is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("subscriptions_by_provider_ref").execute();
  await db.schema.alterTable("payment_methods").dropColumn("default_since").execute();
}
