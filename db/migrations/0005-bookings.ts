import { sql, type Kysely } from "kysely";
import { isPostgres } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A sitter's published time. Accepting a booking splits the slot it falls in, so the booked
  // part has status 'booked' and the rest stays available. Slots of one sitter never overlap.
  await db.schema
    .createTable("availability_slots")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("sitter_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("start_at", "text", (c) => c.notNull())
    .addColumn("end_at", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("available")
        .check(sql`status in ('available', 'booked', 'unavailable')`),
    )
    .addColumn("booking_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addCheckConstraint("availability_slots_order", sql`start_at < end_at`)
    .execute();
  await db.schema
    .createIndex("availability_slots_by_sitter")
    .on("availability_slots")
    .columns(["sitter_id", "start_at"])
    .execute();

  await db.schema
    .createTable("bookings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("sitter_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("pet_id", "text", (c) => c.references("pets.id").onDelete("set null"))
    /** The pet's name when booked, so history survives the pet's deletion. */
    .addColumn("pet_name", "text", (c) => c.notNull())
    .addColumn("service_type", "text", (c) => c.notNull().defaultTo("walk"))
    .addColumn("location", "text", (c) => c.notNull().defaultTo("TBD"))
    .addColumn("notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("start_at", "text", (c) => c.notNull())
    .addColumn("end_at", "text", (c) => c.notNull())
    .addColumn("hours", "integer", (c) => c.notNull().check(sql`hours between 1 and 6`))
    .addColumn("hourly_rate_cents", "integer", (c) => c.notNull())
    .addColumn("subtotal_cents", "integer", (c) => c.notNull())
    .addColumn("fee_cents", "integer", (c) => c.notNull())
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("requested")
        .check(sql`status in ('requested', 'confirmed', 'in-progress', 'completed', 'cancelled')`),
    )
    .addColumn("payment_status", "text", (c) =>
      c
        .notNull()
        .defaultTo("unpaid")
        .check(sql`payment_status in ('unpaid', 'held', 'released', 'refunded', 'failed')`),
    )
    /** The payment provider in use and its references: the saved card and the hold. */
    .addColumn("payment_provider", "text", (c) => c.notNull())
    .addColumn("card_ref", "text")
    .addColumn("card_label", "text")
    .addColumn("hold_ref", "text")
    /** Work for the payment provider decided in a transition and not yet confirmed: 'hold', 'capture', 'void'. */
    .addColumn("payment_task", "text", (c) => c.check(sql`payment_task in ('hold', 'capture', 'void')`))
    .addColumn("payment_task_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("payment_error", "text")
    /** Bookings far ahead keep the card and place the hold at this time. */
    .addColumn("hold_due_at", "text")
    .addColumn("cancel_reason", "text")
    .addColumn("cancelled_by", "text", (c) => c.check(sql`cancelled_by in ('owner', 'sitter', 'system')`))
    .addColumn("confirmed_at", "text")
    .addColumn("completed_at", "text")
    .addColumn("released_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("bookings_order", sql`start_at < end_at`)
    .addCheckConstraint("bookings_not_self", sql`owner_id <> sitter_id`)
    .execute();
  await db.schema.createIndex("bookings_by_owner").on("bookings").columns(["owner_id", "created_at"]).execute();
  await db.schema.createIndex("bookings_by_sitter").on("bookings").columns(["sitter_id", "start_at"]).execute();
  await db.schema.createIndex("bookings_by_status").on("bookings").columns(["status", "start_at"]).execute();
  await sql`create index bookings_with_payment_task on bookings (id) where payment_task is not null`.execute(db);

  // The offline 'test' payment provider's own ledger: holds, captures and the answers given per idempotency key.
  await db.schema
    .createTable("test_payments")
    .addColumn("ref", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('card', 'hold')`))
    .addColumn("amount_cents", "integer")
    .addColumn("card_last4", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("payment_idempotency")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("result", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("reviews")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("booking_id", "text", (c) => c.notNull().references("bookings.id").onDelete("cascade"))
    .addColumn("reviewer_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("reviewed_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("rating", "integer", (c) => c.notNull().check(sql`rating between 1 and 5`))
    .addColumn("comment", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("reviews_once_per_side", ["booking_id", "reviewer_id"])
    .execute();
  await db.schema.createIndex("reviews_by_reviewed").on("reviews").columns(["reviewed_id", "created_at"]).execute();
  // The deck's rating columns on users follow the reviews.
  if (isPostgres(db)) {
    await sql`create function reviews_rate() returns trigger language plpgsql as $$
    declare
      person text := case when tg_op = 'DELETE' then old.reviewed_id else new.reviewed_id end;
    begin
      update users set review_count = (select count(*) from reviews where reviewed_id = person),
        rating_average = (select avg(rating) from reviews where reviewed_id = person)
      where id = person;
      return null;
    end $$`.execute(db);
    await sql`create trigger reviews_rate_after_insert after insert on reviews for each row execute function reviews_rate()`.execute(
      db,
    );
    await sql`create trigger reviews_rate_after_delete after delete on reviews for each row execute function reviews_rate()`.execute(
      db,
    );
    return;
  }
  await sql`create trigger reviews_rate_after_insert after insert on reviews begin
    update users set review_count = (select count(*) from reviews where reviewed_id = new.reviewed_id),
      rating_average = (select avg(rating) from reviews where reviewed_id = new.reviewed_id)
    where id = new.reviewed_id;
  end`.execute(db);
  await sql`create trigger reviews_rate_after_delete after delete on reviews begin
    update users set review_count = (select count(*) from reviews where reviewed_id = old.reviewed_id),
      rating_average = (select avg(rating) from reviews where reviewed_id = old.reviewed_id)
    where id = old.reviewed_id;
  end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const on = isPostgres(db) ? sql` on reviews` : sql``;
  await sql`drop trigger reviews_rate_after_delete${on}`.execute(db);
  await sql`drop trigger reviews_rate_after_insert${on}`.execute(db);
  if (isPostgres(db)) await sql`drop function reviews_rate()`.execute(db);
  for (const table of ["reviews", "payment_idempotency", "test_payments", "bookings", "availability_slots"]) {
    await db.schema.dropTable(table).execute();
  }
}
