import { sql, type Kysely } from "kysely";

// A free meet & greet an owner asks a sitter for before a first booking: a proposed time and place, answered
// by the other side (accepted, moved to another time, or declined) and cancellable by either. No payment.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("meet_greets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("sitter_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("start_at", "text", (c) => c.notNull())
    .addColumn("place", "text", (c) =>
      c.notNull().check(sql`place in ('owners_home', 'sitters_home', 'elsewhere', 'video')`),
    )
    .addColumn("place_note", "text", (c) =>
      c
        .notNull()
        .defaultTo("")
        .check(sql`length(place_note) <= 200`),
    )
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("proposed")
        .check(sql`status in ('proposed', 'accepted', 'declined', 'cancelled')`),
    )
    /** Who proposed the time now on the table: the other side answers it. */
    .addColumn("proposed_by", "text", (c) => c.notNull().check(sql`proposed_by in ('owner', 'sitter')`))
    .addColumn("reminded_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("meet_greets_not_self", sql`owner_id <> sitter_id`)
    .execute();
  await db.schema.createIndex("meet_greets_by_owner").on("meet_greets").columns(["owner_id", "start_at"]).execute();
  await db.schema.createIndex("meet_greets_by_sitter").on("meet_greets").columns(["sitter_id", "start_at"]).execute();
  // The reminders due: accepted and not yet reminded, by time.
  await db.schema
    .createIndex("meet_greets_to_remind")
    .on("meet_greets")
    .column("start_at")
    .where(sql.ref("status"), "=", "accepted")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("meet_greets").execute();
}
