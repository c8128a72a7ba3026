import type { Kysely } from "kysely";

// The latest booking between two people (shown beside each conversation), read from each direction of
// the pair (one booked the other) through one index instead of every booking of either person.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("bookings_by_pair")
    .on("bookings")
    .columns(["owner_id", "sitter_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("bookings_by_pair").execute();
}
