import { sql, type Kysely } from "kysely";

// The deck's access paths at a million profiles, in portable SQL (SQLite and PostgreSQL alike).
//
// - users.cares_for_mask: cares_for as bits (dog 1, cat 2), written with it by the profiles feature,
//   so the pet filter is `cares_for_mask in (…)` instead of reading the JSON of every candidate.
// - Partial indexes that hold only people the deck may show (verified, not suspended, not deleted)
//   and every column its filters read, so a candidate is accepted or refused inside the index.
// - "Near" is an index range: the leading key floor(latitude * 10) (rows of 0.1°, about 11 km) lets a
//   circle be read as a few short longitude ranges, one per row, instead of a whole latitude band.

const SITTERS = sql<boolean>`role in ('sitter', 'both') and hourly_rate_cents is not null and email_verified_at is not null and suspended_at is null and deleted_at is null`;
const OWNERS = sql<boolean>`role in ('owner', 'both') and email_verified_at is not null and suspended_at is null and deleted_at is null`;
const ROW = sql`floor(latitude * 10)`;
// The partial indexes' own predicate columns too: SQLite reads an index alone only when it holds every
// column the query names, and the deck computes closeness from latitude and longitude for the same reason.
const PERSON = ["latitude", "longitude", "role", "email_verified_at", "suspended_at", "deleted_at"];

const OLD_INDEXES = [
  "users_sitters_by_place",
  "users_sitters_by_newest",
  "users_sitters_by_rating",
  "users_sitters_by_price",
  "users_owners_by_place",
  "pets_by_newest",
];
const NEW_INDEXES = [
  "users_deck_sitters_near",
  "users_deck_sitters_by_rating",
  "users_deck_sitters_by_price",
  "users_deck_sitters_by_newest",
  "users_deck_owners_near",
  "pets_deck_by_newest",
  "pets_deck_by_owner",
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("cares_for_mask", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update users set cares_for_mask = (case when cares_for like '%"dog"%' then 1 else 0 end) + (case when cares_for like '%"cat"%' then 2 else 0 end)
    where cares_for <> '[]'`.execute(db);

  for (const index of OLD_INDEXES) await db.schema.dropIndex(index).execute();
  const person = PERSON.filter((column) => column !== "longitude");
  await db.schema
    .createIndex("users_deck_sitters_near")
    .on("users")
    .expression(ROW)
    .columns([
      "longitude",
      "cares_for_mask",
      "rating_average",
      "review_count",
      "hourly_rate_cents",
      "created_at",
      "id",
      ...person,
    ])
    .where(SITTERS)
    .execute();
  await db.schema
    .createIndex("users_deck_sitters_by_rating")
    .on("users")
    .columns(["rating_average desc", "review_count desc", "id", "cares_for_mask", "hourly_rate_cents", ...PERSON])
    .where(SITTERS)
    .execute();
  await db.schema
    .createIndex("users_deck_sitters_by_price")
    .on("users")
    .columns(["hourly_rate_cents", "id", "cares_for_mask", "rating_average", ...PERSON])
    .where(SITTERS)
    .execute();
  await db.schema
    .createIndex("users_deck_sitters_by_newest")
    .on("users")
    .columns(["created_at desc", "id", "cares_for_mask", "rating_average", "hourly_rate_cents", ...PERSON])
    .where(SITTERS)
    .execute();
  await db.schema
    .createIndex("users_deck_owners_near")
    .on("users")
    .expression(ROW)
    .columns(["longitude", "id", ...person])
    .where(OWNERS)
    .execute();
  await db.schema
    .createIndex("pets_deck_by_newest")
    .on("pets")
    .columns(["created_at desc", "id", "owner_id", "pet_type"])
    .execute();
  await db.schema
    .createIndex("pets_deck_by_owner")
    .on("pets")
    .columns(["owner_id", "pet_type", "created_at", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of NEW_INDEXES) await db.schema.dropIndex(index).execute();
  await db.schema.alterTable("users").dropColumn("cares_for_mask").execute();
  const sitters = sql<boolean>`role in ('sitter', 'both') and hourly_rate_cents is not null and email_verified_at is not null`;
  const owners = sql<boolean>`role in ('owner', 'both') and email_verified_at is not null`;
  await db.schema
    .createIndex("users_sitters_by_place")
    .on("users")
    .columns(["latitude", "longitude", "unit_x", "unit_y", "unit_z"])
    .where(sitters)
    .execute();
  await db.schema
    .createIndex("users_sitters_by_newest")
    .on("users")
    .columns(["created_at desc", "id"])
    .where(sitters)
    .execute();
  await db.schema
    .createIndex("users_sitters_by_rating")
    .on("users")
    .columns(["rating_average desc", "review_count desc", "id"])
    .where(sitters)
    .execute();
  await db.schema
    .createIndex("users_sitters_by_price")
    .on("users")
    .columns(["hourly_rate_cents", "id"])
    .where(sitters)
    .execute();
  await db.schema
    .createIndex("users_owners_by_place")
    .on("users")
    .columns(["latitude", "longitude", "unit_x", "unit_y", "unit_z"])
    .where(owners)
    .execute();
  await db.schema.createIndex("pets_by_newest").on("pets").columns(["created_at desc", "id"]).execute();
}
