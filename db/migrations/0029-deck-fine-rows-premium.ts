import { sql, type Kysely } from "kysely";
import { isPostgres } from "../engine";

// The deck's indexes at a million profiles, again:
// - Place indexes with rows of 0.01° of latitude (about 1.1 km) as the leading key, beside those of 0.1°:
//   a small circle or ring (a city's dense middle, where a heavy swiper has passed on everyone near) is
//   read as a few short ranges close to its shape, instead of 11 km tall rows that read the people of its
//   hole and corners too. Wide circles keep the rows of 0.1°: a ring of 1,500 km would take thousands
//   of fine ranges.
// - The sort indexes (rating, price, newest) with premium_until, so a page of premium people only is
//   found by walking one in order without reading a row per person; on PostgreSQL the rating index in
//   the deck's order (unrated last), so it can be walked at all.

const SITTERS = sql<boolean>`role in ('sitter', 'both') and hourly_rate_cents is not null and email_verified_at is not null and suspended_at is null and deleted_at is null`;
const OWNERS = sql<boolean>`role in ('owner', 'both') and email_verified_at is not null and suspended_at is null and deleted_at is null`;
const FINE_ROW = sql`floor(latitude * 100)`;
const PERSON = ["latitude", "longitude", "role", "email_verified_at", "suspended_at", "deleted_at"];
const SORTS = {
  users_deck_sitters_by_rating: [
    "rating_average desc",
    "review_count desc",
    "id",
    "cares_for_mask",
    "hourly_rate_cents",
  ],
  users_deck_sitters_by_price: ["hourly_rate_cents", "id", "cares_for_mask", "rating_average"],
  users_deck_sitters_by_newest: ["created_at desc", "id", "cares_for_mask", "rating_average", "hourly_rate_cents"],
};

async function sortIndexes(db: Kysely<unknown>, extra: string[], unratedLast: boolean): Promise<void> {
  for (const [index, columns] of Object.entries(SORTS)) {
    await db.schema.dropIndex(index).execute();
    // PostgreSQL puts nulls first in a descending index, and the deck ranks unrated sitters last
    // (`desc nulls last`): an index in the other order cannot be walked for it. SQLite's descending
    // order already ends with nulls (and its indexes take no NULLS LAST).
    const ordered = columns.map((column) =>
      unratedLast && isPostgres(db) && column === "rating_average desc" ? "rating_average desc nulls last" : column,
    );
    await sql`create index ${sql.id(index)} on users (${sql.raw([...ordered, ...extra, ...PERSON].join(", "))}) where ${SITTERS}`.execute(
      db,
    );
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const person = PERSON.filter((column) => column !== "longitude");
  await db.schema
    .createIndex("users_deck_sitters_near_fine")
    .on("users")
    .expression(FINE_ROW)
    .columns([
      "longitude",
      "cares_for_mask",
      "rating_average",
      "review_count",
      "hourly_rate_cents",
      "created_at",
      "id",
      "premium_until",
      ...person,
    ])
    .where(SITTERS)
    .execute();
  await db.schema
    .createIndex("users_deck_owners_near_fine")
    .on("users")
    .expression(FINE_ROW)
    .columns(["longitude", "id", "premium_until", ...person])
    .where(OWNERS)
    .execute();
  await sortIndexes(db, ["premium_until"], true);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("users_deck_sitters_near_fine").execute();
  await db.schema.dropIndex("users_deck_owners_near_fine").execute();
  await sortIndexes(db, [], false);
}
