import { sql, type Kysely } from "kysely";
import { isPostgres } from "../engine";

// Every sitter with a price is in the deck, whichever services they offer, not only those priced by the hour.
//
// - users.from_price_cents: the lowest of the sitter's prices (by the hour, or any of sitter_services'),
//   null for someone who offers nothing. Kept by triggers on every write to users.hourly_rate_cents and to
//   sitter_services, whatever code makes it (as premium_until, migration 0027). The deck's partial indexes
//   hold the sitters whose from_price_cents is not null, and rank "by price" on it.
// - The deck's sitter indexes again on that predicate, with from_price_cents instead of hourly_rate_cents and
//   max_pets (the "number of pets" filter is then tested inside the index).
// - users.filter_service, filter_first_day, filter_last_day, filter_pets: the deck's new filters, kept with
//   the others.

const fromPrice = (userId: ReturnType<typeof sql>, hourly: ReturnType<typeof sql>, postgres: boolean) => {
  const services = sql`(select min(ss.price_cents) from sitter_services ss where ss.sitter_id = ${userId})`;
  // PostgreSQL's least() passes over nulls; SQLite's min() of several values is null if any is.
  return postgres
    ? sql`least(${hourly}, ${services})`
    : sql`coalesce(min(${hourly}, ${services}), ${hourly}, ${services})`;
};

const SITTERS = sql<boolean>`role in ('sitter', 'both') and from_price_cents is not null and email_verified_at is not null and suspended_at is null and deleted_at is null`;
const OLD_SITTERS = sql<boolean>`role in ('sitter', 'both') and hourly_rate_cents is not null and email_verified_at is not null and suspended_at is null and deleted_at is null`;
const PERSON = ["latitude", "role", "email_verified_at", "suspended_at", "deleted_at"];

type Columns = (price: string, pets: string[]) => string[];
const INDEXES: { name: string; row?: string; columns: Columns }[] = [
  {
    name: "users_deck_sitters_near",
    row: "floor(latitude * 10)",
    columns: (price, pets) => [
      "longitude",
      "cares_for_mask",
      "rating_average",
      "review_count",
      price,
      "created_at",
      "id",
      "premium_until",
      ...pets,
      ...PERSON,
    ],
  },
  {
    name: "users_deck_sitters_near_fine",
    row: "floor(latitude * 100)",
    columns: (price, pets) => [
      "longitude",
      "cares_for_mask",
      "rating_average",
      "review_count",
      price,
      "created_at",
      "id",
      "premium_until",
      ...pets,
      ...PERSON,
    ],
  },
  {
    name: "users_deck_sitters_by_rating",
    columns: (price, pets) => [
      "rating_average desc",
      "review_count desc",
      "id",
      "cares_for_mask",
      price,
      ...pets,
      "premium_until",
      "longitude",
      ...PERSON,
    ],
  },
  {
    name: "users_deck_sitters_by_price",
    columns: (price, pets) => [
      price,
      "id",
      "cares_for_mask",
      "rating_average",
      ...pets,
      "premium_until",
      "longitude",
      ...PERSON,
    ],
  },
  {
    name: "users_deck_sitters_by_newest",
    columns: (price, pets) => [
      "created_at desc",
      "id",
      "cares_for_mask",
      "rating_average",
      price,
      ...pets,
      "premium_until",
      "longitude",
      ...PERSON,
    ],
  },
];

async function deckIndexes(db: Kysely<unknown>, price: string, pets: string[], where: typeof SITTERS) {
  for (const index of INDEXES) {
    await db.schema.dropIndex(index.name).ifExists().execute();
    // PostgreSQL's rating index in the deck's order (unrated last), as migration 0029 made it.
    const columns = index
      .columns(price, pets)
      .map((column) =>
        isPostgres(db) && column === "rating_average desc" ? "rating_average desc nulls last" : column,
      );
    const keys = index.row ? [`(${index.row})`, ...columns] : columns;
    await sql`create index ${sql.id(index.name)} on users (${sql.raw(keys.join(", "))}) where ${where}`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema.alterTable("users").addColumn("from_price_cents", "integer").execute();
  await db.schema
    .alterTable("users")
    .addColumn("filter_service", "text", (c) => c.notNull().defaultTo("any"))
    .execute();
  await db.schema.alterTable("users").addColumn("filter_first_day", "text").execute();
  await db.schema.alterTable("users").addColumn("filter_last_day", "text").execute();
  await db.schema
    .alterTable("users")
    .addColumn("filter_pets", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await sql`update users set from_price_cents = ${fromPrice(sql`users.id`, sql`users.hourly_rate_cents`, postgres)}`.execute(
    db,
  );

  if (postgres) {
    await sql`create function users_from_price() returns trigger language plpgsql as $$
    begin
      new.from_price_cents := ${fromPrice(sql`new.id`, sql`new.hourly_rate_cents`, true)};
      return new;
    end $$`.execute(db);
    await sql`create trigger users_from_price before insert or update of hourly_rate_cents, from_price_cents on users
      for each row execute function users_from_price()`.execute(db);
    await sql`create function sitter_services_from_price() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        update users set from_price_cents = null where id = old.sitter_id;
      end if;
      if tg_op <> 'DELETE' then
        update users set from_price_cents = null where id = new.sitter_id;
      end if;
      return null;
    end $$`.execute(db);
    await sql`create trigger sitter_services_from_price after insert or update or delete on sitter_services
      for each row execute function sitter_services_from_price()`.execute(db);
  } else {
    const set = (id: string) =>
      sql`update users set from_price_cents = ${fromPrice(sql.raw(id), sql`users.hourly_rate_cents`, false)} where id = ${sql.raw(id)};`;
    await sql`create trigger users_from_price_insert after insert on users begin ${set("new.id")} end`.execute(db);
    await sql`create trigger users_from_price_update after update of hourly_rate_cents on users begin ${set("new.id")} end`.execute(
      db,
    );
    await sql`create trigger sitter_services_from_price_insert after insert on sitter_services begin ${set("new.sitter_id")} end`.execute(
      db,
    );
    await sql`create trigger sitter_services_from_price_update after update on sitter_services begin ${set("old.sitter_id")} ${set("new.sitter_id")} end`.execute(
      db,
    );
    await sql`create trigger sitter_services_from_price_delete after delete on sitter_services begin ${set("old.sitter_id")} end`.execute(
      db,
    );
  }
  await deckIndexes(db, "from_price_cents", ["max_pets"], SITTERS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await deckIndexes(db, "hourly_rate_cents", [], OLD_SITTERS);
  if (isPostgres(db)) {
    await sql`drop trigger sitter_services_from_price on sitter_services`.execute(db);
    await sql`drop trigger users_from_price on users`.execute(db);
    await sql`drop function sitter_services_from_price()`.execute(db);
    await sql`drop function users_from_price()`.execute(db);
  } else {
    for (const trigger of [
      "users_from_price_insert",
      "users_from_price_update",
      "sitter_services_from_price_insert",
      "sitter_services_from_price_update",
      "sitter_services_from_price_delete",
    ])
      await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  }
  for (const column of ["filter_pets", "filter_last_day", "filter_first_day", "filter_service", "from_price_cents"])
    await db.schema.alterTable("users").dropColumn(column).execute();
}
