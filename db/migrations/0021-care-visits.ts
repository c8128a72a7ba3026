import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // One care plan per pet, written by its owner. Feeding, medication and walks hold one item per line.
  await db.schema
    .createTable("care_plans")
    .addColumn("pet_id", "text", (c) => c.primaryKey().references("pets.id").onDelete("cascade"))
    .addColumn("feeding", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("medication", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("walks", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("house_notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("vet_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("vet_phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("vet_address", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("emergency_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("emergency_phone", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // One visit per booking: checked in, then checked out (after which nothing changes).
  await db.schema
    .createTable("visits")
    .addColumn("booking_id", "text", (c) => c.primaryKey().references("bookings.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('checked-in', 'checked-out')`))
    .addColumn("checked_in_at", "text", (c) => c.notNull())
    .addColumn("checked_out_at", "text")
    .addColumn("quick_notes", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("walk_route", "text")
    .addColumn("walk_distance_m", "integer")
    .addColumn("walk_duration_s", "integer")
    .execute();

  // The checklist copied from the care plan at check-in, so later plan edits do not rewrite a report.
  await db.schema
    .createTable("visit_items")
    .addColumn("booking_id", "text", (c) => c.notNull().references("visits.booking_id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('feeding', 'medication', 'walk')`))
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("done_at", "text")
    .addPrimaryKeyConstraint("visit_items_pk", ["booking_id", "position"])
    .execute();

  await db.schema
    .createTable("visit_media")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("booking_id", "text", (c) => c.notNull().references("visits.booking_id").onDelete("cascade"))
    .addColumn("preview_key", "text")
    .addColumn("media_type", "text", (c) => c.notNull().check(sql`media_type in ('image', 'video')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("visit_media_by_booking")
    .on("visit_media")
    .columns(["booking_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("visit_media_by_preview_key")
    .on("visit_media")
    .column("preview_key")
    .where(sql.ref("preview_key"), "is not", null)
    .execute();

  // A chat message may be a card linking to a page of the app (a visit report).
  await db.schema.alterTable("messages").addColumn("card_link", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("messages").dropColumn("card_link").execute();
  for (const table of ["visit_media", "visit_items", "visits", "care_plans"])
    await db.schema.dropTable(table).execute();
}
