import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every sitter, existing or new, starts on the flexible policy.
  await db.schema
    .alterTable("users")
    .addColumn("cancellation_policy", "text", (c) =>
      c
        .notNull()
        .defaultTo("flexible")
        .check(sql`cancellation_policy in ('flexible', 'moderate', 'strict')`),
    )
    .execute();
  // The policy shown when the booking was requested, kept so that a later change by the sitter does not
  // reach it. Null on bookings requested before policies existed: those keep their full refund.
  await db.schema
    .alterTable("bookings")
    .addColumn("cancellation_policy", "text", (c) =>
      c.check(sql`cancellation_policy in ('flexible', 'moderate', 'strict')`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("bookings").dropColumn("cancellation_policy").execute();
  await db.schema.alterTable("users").dropColumn("cancellation_policy").execute();
}
