import { sql, type Kysely } from "kysely";

// Weekly care: an owner asks a sitter for the same walk, drop-in visit or day of day care on some weekdays at a time; the sitter
// accepts the series once, and the scheduler makes each occurrence its own booking a week ahead. A change of
// days or time is a new schedule from a date on, proposed by one side and accepted by the other; the schedule in
// force on a day is the accepted one with the latest first day on or before it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("care_series")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("sitter_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("service", "text", (c) => c.notNull().check(sql`service in ('walk', 'drop_in', 'day_care')`))
    // A walk's or visit's length; for day care, from the drop-off (the schedule's time) to the pick-up.
    .addColumn("minutes", "integer", (c) => c.notNull())
    // The sitter's price, extra-pet price and policy when the series was asked for: every occurrence keeps them.
    .addColumn("price_cents", "integer", (c) => c.notNull())
    .addColumn("extra_pet_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cancellation_policy", "text", (c) => c.notNull())
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("first_day", "text", (c) => c.notNull())
    .addColumn("last_day", "text")
    .addColumn("notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("requested")
        .check(sql`status in ('requested', 'active', 'declined', 'withdrawn', 'ended')`),
    )
    .addColumn("ended_by", "text", (c) => c.check(sql`ended_by in ('owner', 'sitter', 'system')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("care_series_not_self", sql`owner_id <> sitter_id`)
    .addCheckConstraint("care_series_days", sql`last_day is null or last_day >= first_day`)
    .execute();
  await db.schema.createIndex("care_series_by_owner").on("care_series").columns(["owner_id", "status"]).execute();
  await db.schema.createIndex("care_series_by_sitter").on("care_series").columns(["sitter_id", "status"]).execute();
  await db.schema
    .createIndex("care_series_active")
    .on("care_series")
    .column("id")
    .where(sql.ref("status"), "=", "active")
    .execute();

  await db.schema
    .createTable("care_series_schedules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("series_id", "text", (c) => c.notNull().references("care_series.id").onDelete("cascade"))
    .addColumn("from_day", "text", (c) => c.notNull())
    /** ISO weekdays, 1 (Monday) to 7, comma-separated in order: "1,3,5". */
    .addColumn("weekdays", "text", (c) => c.notNull())
    .addColumn("start_time", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("proposed")
        .check(sql`status in ('proposed', 'accepted', 'declined', 'withdrawn')`),
    )
    .addColumn("proposed_by", "text", (c) => c.notNull().check(sql`proposed_by in ('owner', 'sitter')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("answered_at", "text")
    .execute();
  await db.schema
    .createIndex("care_series_schedules_by_series")
    .on("care_series_schedules")
    .columns(["series_id", "from_day"])
    .execute();

  await db.schema
    .createTable("care_series_pets")
    .addColumn("series_id", "text", (c) => c.notNull().references("care_series.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("pet_id", "text", (c) => c.notNull())
    .addColumn("pet_name", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("care_series_pets_pk", ["series_id", "position"])
    .execute();

  // A date one side skipped before its booking was made (a made one is cancelled instead).
  await db.schema
    .createTable("care_series_skips")
    .addColumn("series_id", "text", (c) => c.notNull().references("care_series.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("skipped_by", "text", (c) => c.notNull().check(sql`skipped_by in ('owner', 'sitter')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("care_series_skips_pk", ["series_id", "day"])
    .execute();

  await db.schema.alterTable("bookings").addColumn("series_id", "text").execute();
  await db.schema.alterTable("bookings").addColumn("series_day", "text").execute();
  await db.schema.alterTable("bookings").addColumn("series_schedule_id", "text").execute();
  // One occurrence per series, day and schedule, ever: generation is idempotent on every instance.
  await db.schema
    .createIndex("bookings_one_occurrence")
    .on("bookings")
    .columns(["series_id", "series_day", "series_schedule_id"])
    .unique()
    .where(sql.ref("series_id"), "is not", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("bookings_one_occurrence").execute();
  await db.schema.alterTable("bookings").dropColumn("series_schedule_id").execute();
  await db.schema.alterTable("bookings").dropColumn("series_day").execute();
  await db.schema.alterTable("bookings").dropColumn("series_id").execute();
  await db.schema.dropTable("care_series_skips").execute();
  await db.schema.dropTable("care_series_pets").execute();
  await db.schema.dropTable("care_series_schedules").execute();
  await db.schema.dropTable("care_series").execute();
}
