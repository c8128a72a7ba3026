import { sql, type Kysely } from "kysely";

// The deck's place indexes again with rows of 0.01° of latitude (about 1.1 km) as the leading key, beside
// those of 0.1°: a small circle or ring (a city's dense middle, where a heavy swiper has passed on
// everyone near) is read as a few short ranges close to its shape, instead of 11 km tall rows that read
// the people of its hole and corners too. Wide circles keep the rows of 0.1°: a ring of 1,500 km would
// take thousands of fine ranges.

const SITTERS = sql<boolean>`role in ('sitter', 'both') and hourly_rate_cents is not null and email_verified_at is not null and suspended_at is null and deleted_at is null`;
const OWNERS = sql<boolean>`role in ('owner', 'both') and email_verified_at is not null and suspended_at is null and deleted_at is null`;
const FINE_ROW = sql`floor(latitude * 100)`;
const PERSON = ["latitude", "role", "email_verified_at", "suspended_at", "deleted_at"];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("users_deck_sitters_near_fine").on("users").expression(FINE_ROW)
    .columns(["longitude", "cares_for_mask", "rating_average", "review_count", "hourly_rate_cents", "created_at", "id", "premium_until", ...PERSON]).where(SITTERS).execute();
  await db.schema.createIndex("users_deck_owners_near_fine").on("users").expression(FINE_ROW).columns(["longitude", "id", "premium_until", ...PERSON]).where(OWNERS).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("users_deck_sitters_near_fine").execute();
  await db.schema.dropIndex("users_deck_owners_near_fine").execute();
}
