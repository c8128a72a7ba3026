import { sql, type Kysely } from "kysely";
import { importPlaces } from "../places";
import { generated, real, withoutRowid } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The offline gazetteer (see db/places.ts): one row per normalised place name and country.
  await db.schema
    .createTable("places")
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("latitude", real(db), (c) => c.notNull())
    .addColumn("longitude", real(db), (c) => c.notNull())
    .addColumn("population", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("places_key_country", ["key", "country"])
    .$call(withoutRowid(db))
    .execute();
  await importPlaces(db);

  // How each person browses the deck, kept on their record: null until they choose local or global.
  await db.schema
    .alterTable("users")
    .addColumn("browse_mode", "text", (c) => c.check(sql`browse_mode in ('local', 'global')`))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("filter_pet_type", "text", (c) =>
      c
        .notNull()
        .defaultTo("all")
        .check(sql`filter_pet_type in ('all', 'dog', 'cat')`),
    )
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("filter_max_distance_km", "integer", (c) =>
      c
        .notNull()
        .defaultTo(50)
        .check(sql`filter_max_distance_km between 5 and 200`),
    )
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("filter_min_rating", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`filter_min_rating between 0 and 5`),
    )
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("filter_max_price_cents", "integer", (c) => c.check(sql`filter_max_price_cents between 0 and 10000`))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("filter_sort", "text", (c) =>
      c
        .notNull()
        .defaultTo("distance")
        .check(sql`filter_sort in ('distance', 'rating', 'price', 'newest')`),
    )
    .execute();
  // Received reviews, summed up for the deck's rating filter and sort (kept current by the reviews feature).
  await db.schema.alterTable("users").addColumn("rating_average", real(db)).execute();
  await db.schema
    .alterTable("users")
    .addColumn("review_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  // Where a person is as a unit vector from the Earth's centre: the cosine of the angle between two
  // people is then a dot product, so distance filters and sorts need no trigonometry per row.
  for (const [axis, formula] of [
    ["unit_x", sql`cos(radians(latitude)) * cos(radians(longitude))`],
    ["unit_y", sql`cos(radians(latitude)) * sin(radians(longitude))`],
    ["unit_z", sql`sin(radians(latitude))`],
  ] as const) {
    await db.schema.alterTable("users").addColumn(axis, real(db), generated(db, formula)).execute();
  }

  // The deck's access paths. Sitters are people with a completed sitter profile.
  const sitters = sql`role in ('sitter', 'both') and hourly_rate_cents is not null and email_verified_at is not null`;
  const owners = sql`role in ('owner', 'both') and email_verified_at is not null`;
  await sql`create index users_sitters_by_place on users (latitude, longitude, unit_x, unit_y, unit_z) where ${sitters}`.execute(
    db,
  );
  await sql`create index users_sitters_by_newest on users (created_at desc, id) where ${sitters}`.execute(db);
  await sql`create index users_sitters_by_rating on users (rating_average desc, review_count desc, id) where ${sitters}`.execute(
    db,
  );
  await sql`create index users_sitters_by_price on users (hourly_rate_cents, id) where ${sitters}`.execute(db);
  await sql`create index users_owners_by_place on users (latitude, longitude, unit_x, unit_y, unit_z) where ${owners}`.execute(
    db,
  );
  await db.schema.createIndex("pets_by_newest").on("pets").columns(["created_at desc", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    "users_sitters_by_place",
    "users_sitters_by_newest",
    "users_sitters_by_rating",
    "users_sitters_by_price",
    "users_owners_by_place",
    "pets_by_newest",
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  for (const column of [
    "unit_x",
    "unit_y",
    "unit_z",
    "browse_mode",
    "filter_pet_type",
    "filter_max_distance_km",
    "filter_min_rating",
    "filter_max_price_cents",
    "filter_sort",
    "rating_average",
    "review_count",
  ]) {
    await db.schema.alterTable("users").dropColumn(column).execute();
  }
  await db.schema.dropTable("places").execute();
}
