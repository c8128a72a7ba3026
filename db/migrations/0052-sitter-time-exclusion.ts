import { sql, type Kysely } from "kysely";
import { isPostgres } from "../engine";

// Two confirmed bookings of one sitter never overlap in time, unless both are stays at the sitter's home
// (boarding and day care share the sitter's days up to their number of pets, which the accepting decision
// counts under a lock on the sitter). On PostgreSQL, where writers run side by side, an exclusion
// constraint refuses the second of two overlapping bookings whatever wrote it. Times are stored as ISO text
// of one fixed format (…T09:00:00.000Z), which orders as time does under the "C" collation: the range is
// over that text, as every query of the app compares it. SQLite runs one writer at a time, and the
// booking machine's own check (the clash read before a booking is confirmed) is the rule there.
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create extension if not exists btree_gist`.execute(db);
  await sql`create type iso_time_range as range (subtype = text, collation = "C")`.execute(db);
  await sql`
    alter table bookings add constraint bookings_sitter_time_once
    exclude using gist (sitter_id with =, iso_time_range(start_at, end_at) with &&)
    where (status in ('confirmed', 'in-progress') and service_type not in ('boarding', 'day_care'))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table bookings drop constraint bookings_sitter_time_once`.execute(db);
  await sql`drop type iso_time_range`.execute(db);
}
