import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The person's records at Stripe: the customer their cards belong to, and (sitters) the
  // connected account their earnings are paid out to, usable once Stripe says payouts are enabled.
  await db.schema.alterTable("users").addColumn("stripe_customer_id", "text").execute();
  await db.schema.alterTable("users").addColumn("stripe_account_id", "text").execute();
  await db.schema
    .alterTable("users")
    .addColumn("payouts_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create unique index users_by_stripe_account on users (stripe_account_id) where stripe_account_id is not null`.execute(
    db,
  );

  // A card payment the payer disputed with their bank (Stripe's charge.dispute.created).
  await db.schema.alterTable("bookings").addColumn("disputed_at", "text").execute();
  await sql`create index bookings_by_hold on bookings (hold_ref) where hold_ref is not null`.execute(db);

  // Every webhook event Stripe delivered, by its id: a replay finds its row and changes nothing.
  await db.schema
    .createTable("stripe_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .addColumn("processed_at", "text")
    /** What processing did: "applied", "ignored" or "unhandled", for whoever reads the table later. */
    .addColumn("outcome", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("stripe_events").execute();
  await db.schema.dropIndex("bookings_by_hold").execute();
  await db.schema.alterTable("bookings").dropColumn("disputed_at").execute();
  await db.schema.dropIndex("users_by_stripe_account").execute();
  for (const column of ["payouts_enabled", "stripe_account_id", "stripe_customer_id"])
    await db.schema.alterTable("users").dropColumn(column).execute();
}
