import { sql, type Kysely } from "kysely";
import type { Database } from "../schema";
import { ensurePlans } from "../plans";
import { isPostgres } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Plans are reference data (see db/plans.ts); the price is integer cents of `currency`.
  await db.schema
    .createTable("subscription_plans")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents > 0`))
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("EUR"))
    // "interval" is a reserved word on PostgreSQL, quoted there (SQLite keeps the check as it was first written).
    .addColumn("interval", "text", (c) =>
      c.notNull().check(sql`${isPostgres(db) ? sql.ref("interval") : sql`interval`} in ('month', '6months', 'year')`),
    )
    .addColumn("features", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("popular", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("stripe_price_id", "text")
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  // Saved cards live with the provider (Stripe: PaymentMethods attached to a Customer); this table
  // keeps the provider's reference and what the card list shows, so listing never calls the network.
  await db.schema
    .createTable("payment_methods")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("provider_ref", "text", (c) => c.notNull())
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("last4", "text", (c) => c.notNull())
    .addColumn("exp_month", "integer", (c) => c.notNull())
    .addColumn("exp_year", "integer", (c) => c.notNull())
    .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("payment_methods_ref", ["provider", "provider_ref"])
    .execute();
  await db.schema
    .createIndex("payment_methods_by_user")
    .on("payment_methods")
    .columns(["user_id", "created_at"])
    .execute();
  // At most one default card per person.
  await sql`create unique index payment_methods_one_default on payment_methods (user_id) where is_default = 1`.execute(
    db,
  );

  await db.schema
    .createTable("subscriptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("plan_id", "text", (c) => c.notNull().references("subscription_plans.id"))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("incomplete")
        .check(sql`status in ('incomplete', 'active', 'past_due', 'unpaid', 'canceled')`),
    )
    .addColumn("provider", "text", (c) => c.notNull())
    /** The provider's own subscription object, when it keeps one (Stripe Billing); null when we bill each period ourselves. */
    .addColumn("provider_subscription_ref", "text")
    /** Periods are counted from the anchor: period n runs from anchor + n×interval to anchor + (n+1)×interval. */
    .addColumn("billing_anchor", "text")
    .addColumn("period_index", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("current_period_start", "text")
    .addColumn("current_period_end", "text")
    .addColumn("cancel_at_period_end", "integer", (c) => c.notNull().defaultTo(0))
    /** A plan change waiting for the end of the current period. */
    .addColumn("pending_plan_id", "text", (c) => c.references("subscription_plans.id"))
    /** A charge decided in a transition and not yet answered by the provider. */
    .addColumn("billing_task", "text", (c) => c.check(sql`billing_task in ('charge')`))
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_retry_at", "text")
    .addColumn("last_payment_error", "text")
    .addColumn("canceled_at", "text")
    /** Set when the subscription is over for good (canceled at period end, replaced, or never paid). */
    .addColumn("ended_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("subscriptions_by_user").on("subscriptions").columns(["user_id", "created_at"]).execute();
  await db.schema
    .createIndex("subscriptions_due")
    .on("subscriptions")
    .columns(["status", "current_period_end"])
    .execute();
  // One live subscription per person.
  await sql`create unique index subscriptions_one_live on subscriptions (user_id) where ended_at is null`.execute(db);

  // Every charge attempt for a subscription: what was asked, of which card, and the answer.
  await db.schema
    .createTable("subscription_payments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("subscription_id", "text", (c) => c.notNull().references("subscriptions.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("plan_id", "text", (c) => c.notNull().references("subscription_plans.id"))
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('paid', 'failed')`))
    .addColumn("provider_ref", "text")
    .addColumn("failure_code", "text")
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("subscription_payments_by_subscription")
    .on("subscription_payments")
    .columns(["subscription_id", "created_at"])
    .execute();

  // The offline provider's ledger learns immediate charges (and removed cards keep their rows).
  await sql`create table test_payments_new (
    ref text primary key,
    kind text not null check (kind in ('card', 'hold', 'charge')),
    amount_cents integer,
    card_last4 text not null,
    status text not null,
    created_at text not null
  )`.execute(db);
  await sql`insert into test_payments_new select ref, kind, amount_cents, card_last4, status, created_at from test_payments`.execute(
    db,
  );
  await sql`drop table test_payments`.execute(db);
  await sql`alter table test_payments_new rename to test_payments`.execute(db);

  await ensurePlans(db as Kysely<Database>);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from test_payments where kind = 'charge'`.execute(db);
  await sql`create table test_payments_old (
    ref text primary key,
    kind text not null check (kind in ('card', 'hold')),
    amount_cents integer,
    card_last4 text not null,
    status text not null,
    created_at text not null
  )`.execute(db);
  await sql`insert into test_payments_old select * from test_payments`.execute(db);
  await sql`drop table test_payments`.execute(db);
  await sql`alter table test_payments_old rename to test_payments`.execute(db);
  for (const table of ["subscription_payments", "subscriptions", "payment_methods", "subscription_plans"]) {
    await db.schema.dropTable(table).execute();
  }
}
