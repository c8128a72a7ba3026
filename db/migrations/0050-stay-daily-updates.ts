import { sql, type Kysely } from "kysely";

/*
 * A stay's daily updates: the visit report becomes one per booking and day. `day` is the sitter's calendar day
 * of a stay's update, and '' for every other booking's single report (so every existing report keeps its place).
 * The three visit tables are made again with the new keys (SQLite cannot change a primary key) and their rows
 * copied; nothing else points at them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("visits_by_day")
    .addColumn("booking_id", "text", (c) => c.notNull().references("bookings.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('checked-in', 'checked-out')`))
    .addColumn("checked_in_at", "text", (c) => c.notNull())
    .addColumn("checked_out_at", "text")
    .addColumn("quick_notes", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("walk_route", "text")
    .addColumn("walk_distance_m", "integer")
    .addColumn("walk_duration_s", "integer")
    .addPrimaryKeyConstraint("visits_by_day_pk", ["booking_id", "day"])
    .execute();
  await db.schema
    .createTable("visit_items_by_day")
    .addColumn("booking_id", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('feeding', 'medication', 'walk')`))
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("done_at", "text")
    .addPrimaryKeyConstraint("visit_items_by_day_pk", ["booking_id", "day", "position"])
    .addForeignKeyConstraint("visit_items_visit", ["booking_id", "day"], "visits_by_day", ["booking_id", "day"], (c) =>
      c.onDelete("cascade"),
    )
    .execute();
  await db.schema
    .createTable("visit_media_by_day")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("booking_id", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("preview_key", "text")
    .addColumn("media_type", "text", (c) => c.notNull().check(sql`media_type in ('image', 'video')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addForeignKeyConstraint("visit_media_visit", ["booking_id", "day"], "visits_by_day", ["booking_id", "day"], (c) =>
      c.onDelete("cascade"),
    )
    .execute();

  await sql`insert into visits_by_day (booking_id, day, status, checked_in_at, checked_out_at, quick_notes, note,
      walk_route, walk_distance_m, walk_duration_s)
    select booking_id, '', status, checked_in_at, checked_out_at, quick_notes, note, walk_route, walk_distance_m,
      walk_duration_s from visits`.execute(db);
  await sql`insert into visit_items_by_day (booking_id, day, position, kind, label, done_at)
    select booking_id, '', position, kind, label, done_at from visit_items`.execute(db);
  await sql`insert into visit_media_by_day (key, booking_id, day, preview_key, media_type, created_at)
    select key, booking_id, '', preview_key, media_type, created_at from visit_media`.execute(db);

  await db.schema.dropTable("visit_media").execute();
  await db.schema.dropTable("visit_items").execute();
  await db.schema.dropTable("visits").execute();
  await db.schema.alterTable("visits_by_day").renameTo("visits").execute();
  await db.schema.alterTable("visit_items_by_day").renameTo("visit_items").execute();
  await db.schema.alterTable("visit_media_by_day").renameTo("visit_media").execute();

  await db.schema
    .createIndex("visit_media_by_booking")
    .on("visit_media")
    .columns(["booking_id", "day", "created_at"])
    .execute();
  await db.schema
    .createIndex("visit_media_by_preview_key")
    .on("visit_media")
    .column("preview_key")
    .where(sql.ref("preview_key"), "is not", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Back to one report per booking: the earliest day's stays.
  await sql`delete from visits where day <> (select min(v.day) from visits v where v.booking_id = visits.booking_id)`.execute(
    db,
  );
  for (const table of ["visit_media", "visit_items", "visits"])
    await sql`update ${sql.table(table)} set day = ''`.execute(db);
}
