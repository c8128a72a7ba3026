import { sql, type Kysely } from "kysely";
import { serialId } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A problem reported on a completed booking pauses its release until the operator settles it.
  await db.schema.alterTable("bookings").addColumn("problem_reported_at", "text").execute();
  await db.schema.alterTable("bookings").addColumn("problem_resolved_at", "text").execute();
  // What a pending capture takes when it is less than the total (a partial refund of a hold).
  await db.schema.alterTable("bookings").addColumn("capture_cents", "integer").execute();
  // An operator's refund of a captured payment, waiting for the provider (the payment_task column's check predates it).
  await db.schema.alterTable("bookings").addColumn("refund_due_cents", "integer").execute();
  await db.schema
    .alterTable("bookings")
    .addColumn("refunded_cents", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index bookings_with_refund_due on bookings (id) where refund_due_cents is not null`.execute(db);
  await sql`create index bookings_sitter_cancellations on bookings (sitter_id, cancelled_by, created_at)`.execute(db);

  // Written only by the booking machine's applyEvent, one row per event it applies.
  await db.schema
    .createTable("booking_history")
    .addColumn("id", ...serialId(db))
    .addColumn("booking_id", "text", (c) => c.notNull().references("bookings.id").onDelete("cascade"))
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("actor_kind", "text", (c) => c.notNull())
    .addColumn("actor_id", "text")
    .addColumn("status_from", "text")
    .addColumn("status_to", "text", (c) => c.notNull())
    .addColumn("payment_from", "text")
    .addColumn("payment_to", "text", (c) => c.notNull())
    .addColumn("detail", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("booking_history_booking").on("booking_history").columns(["booking_id", "id"]).execute();

  await db.schema
    .createTable("disputes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("booking_id", "text", (c) => c.notNull().unique().references("bookings.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("open")
        .check(sql`status in ('open', 'resolved')`),
    )
    .addColumn("outcome", "text", (c) => c.check(sql`outcome in ('release', 'partial', 'refund')`))
    .addColumn("refund_cents", "integer")
    .addColumn("resolution_note", "text")
    .addColumn("resolved_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("resolved_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("disputes_queue").on("disputes").columns(["status", "created_at"]).execute();
  await db.schema
    .createTable("dispute_posts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("dispute_id", "text", (c) => c.notNull().references("disputes.id").onDelete("cascade"))
    .addColumn("author_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("dispute_posts_dispute")
    .on("dispute_posts")
    .columns(["dispute_id", "created_at"])
    .execute();
  await db.schema
    .createTable("dispute_photos")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("post_id", "text", (c) => c.notNull().references("dispute_posts.id").onDelete("cascade"))
    .addColumn("card_key", "text", (c) => c.notNull())
    .addColumn("full_key", "text", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("dispute_photos_post").on("dispute_photos").columns(["post_id", "position"]).execute();
  await db.schema.createIndex("dispute_photos_keys").on("dispute_photos").columns(["full_key", "card_key"]).execute();

  // The reviewed person's one answer to a review.
  await db.schema.alterTable("reviews").addColumn("reply", "text").execute();
  await db.schema.alterTable("reviews").addColumn("replied_at", "text").execute();
  await db.schema.createIndex("reviews_received").on("reviews").columns(["reviewed_id", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("reviews_received").execute();
  await db.schema.alterTable("reviews").dropColumn("replied_at").execute();
  await db.schema.alterTable("reviews").dropColumn("reply").execute();
  await db.schema.dropTable("dispute_photos").execute();
  await db.schema.dropTable("dispute_posts").execute();
  await db.schema.dropTable("disputes").execute();
  await db.schema.dropTable("booking_history").execute();
  await sql`drop index bookings_sitter_cancellations`.execute(db);
  await sql`drop index bookings_with_refund_due`.execute(db);
  for (const column of [
    "refunded_cents",
    "refund_due_cents",
    "capture_cents",
    "problem_resolved_at",
    "problem_reported_at",
  ])
    await db.schema.alterTable("bookings").dropColumn(column).execute();
}
