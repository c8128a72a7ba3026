// Who may appear in the deck and in what order: the people read, their filters (service, dates, pets,
// price, rating), swipes, blocks and suspension, and deck order.

import { sql, type OrderByModifiers, type RawBuilder } from "kysely";
import { databaseEngine, db } from "~/platform/db.server";
import { masksCaringFor } from "~/features/profiles/index.server";
import { premiumFilterSql, premiumSql } from "~/features/subscriptions/index.server";
import { shownTo } from "~/features/safety/index.server";
import { SHARED_STAYS, sharesDays } from "~/features/bookings/index.server";
import type { DeckFilters } from "./filters";
import { aroundCircle, inCircle, placesOf, type SearchValues } from "./deck-places.server";
import type { Premium, Search } from "./deck-search";

// The same predicates as the partial indexes of migrations 0025 and 0046 (with shownTo's suspended_at and
// deleted_at), so both engines can read candidates from those indexes alone. A sitter is anyone with a
// price: by the hour or for any other service (from_price_cents, the lowest).
export const sitterRow = sql<boolean>`u.role in ('sitter', 'both') and u.from_price_cents is not null and u.email_verified_at is not null`;
const ownerRow = sql<boolean>`o.role in ('owner', 'both') and o.email_verified_at is not null`;

/**
 * Whether the viewer has not swiped the card (the person and, for a pet's card, the pet): a lookup. On
 * PostgreSQL, where a query may stop after a few candidates, fenced (`offset 0`) so it stays a lookup
 * per candidate: planned from the average viewer's few swipes, a join read every swipe of the viewer
 * for each candidate instead (a ring read of a hundred sitters by a viewer with hundreds of swipes read
 * tens of thousands of rows). Where every candidate is read (`everyCandidate`), the planner may hash the
 * swipes.
 */
export function notSwiped(
  viewerId: string,
  person: string,
  pet: RawBuilder<unknown>,
  everyCandidate = false,
): RawBuilder<boolean> {
  const fence = databaseEngine === "postgres" && !everyCandidate ? sql` offset 0` : sql``;
  return sql<boolean>`not exists (select 1 from swipes s where s.swiper_id = ${viewerId}
    and s.target_user_id = ${sql.ref(person)} and coalesce(s.target_pet_id, '') = ${pet}${fence})`;
}

/**
 * How a query reads its candidates: all of them before its order is known (a circle's page, a range's
 * few matches), or only until it holds as many as it asks for (a ring's candidates, unordered); either
 * for a viewer who has passed on many sitters too (see passedOnMany).
 */
export type Reading = "all" | "until-enough" | "all, passed on many" | "until-enough, passed on many";

/**
 * The viewer's swipes and blocks (either way), tested on a circle's every candidate. Where a query
 * stops after a few candidates, as the rules themselves (notSwiped, safety's shownTo), a lookup per
 * candidate: what it finds needs no second check. Where SQLite reads every candidate before the order is
 * known, as lists read once per query (a lookup each cost more), the page's few rows then meeting the
 * rules themselves; a list of a heavy swiper's thousands of swipes costs more to build than a capped
 * read's hundred lookups, so never where SQLite stops early. PostgreSQL looks up (anti-joins) everywhere but for sitters read by
 * a viewer who has passed on many: lists make its planner price every range of a circle as if it built
 * them again and read the whole index instead, and a pet's list turned its plans over entirely (from
 * far away, a read of pets became a scan). Where a viewer has passed on many, PostgreSQL hashes their
 * list once per read, where a ring they passed on whole would be all lookups, one per candidate; and
 * their pages in a circle, which with a million swipes in the table it planned as a walk of the rating
 * index with a lookup per sitter passed. Since a viewer's swipes are read from the
 * index alone (migration 0030), it read them all again for each candidate of a circle's page where the
 * viewer had swiped a few hundred: hashed from PASSED_ON_MANY.
 */
export function notSwipedOrBlocked(
  viewerId: string,
  card: "sitter" | "pet",
  id: string,
  table: "u" | "o",
  reading: Reading,
): RawBuilder<boolean> {
  const personId = `${table}.id`;
  // A pet's person through the pet (p.owner_id, the same person as o.id): PostgreSQL then looks the
  // swipe up on person and pet; through o.id it read every swipe of the viewer for each pet.
  const swipedPerson = card === "pet" ? "p.owner_id" : personId;
  const lookups =
    databaseEngine === "postgres" ? !reading.endsWith("passed on many") : reading.startsWith("until-enough");
  if (lookups) {
    return sql<boolean>`${notSwiped(viewerId, swipedPerson, card === "pet" ? sql.ref(id) : sql`''`, reading.startsWith("all"))} and ${shownTo(viewerId, table)}`;
  }
  // In the terms of the index swipes_card (swiper_id, target_user_id, coalesce(target_pet_id, '')), so
  // the list is read from it alone: `target_pet_id is null` would look every swipe's row up.
  const swiped =
    card === "sitter"
      ? sql`select s.target_user_id from swipes s where s.swiper_id = ${viewerId} and coalesce(s.target_pet_id, '') = ''`
      : sql`select coalesce(s.target_pet_id, '') from swipes s where s.swiper_id = ${viewerId} and coalesce(s.target_pet_id, '') <> ''`;
  return sql<boolean>`${sql.ref(id)} not in (${swiped}) and ${sql.ref(personId)} not in (select bl.blocked_id from blocks bl
    where bl.blocker_id = ${viewerId} union all select bl.blocker_id from blocks bl where bl.blocked_id = ${viewerId})`;
}

/**
 * The people a search reads: everyone, or those in its circle. Nearest first, the circle (a ring, from
 * the second on) is read through its places' table, first in a cross join, which SQLite reads as "loop
 * over the ranges outside" (left alone, it may walk an order's index and look every person up in the
 * ranges); PostgreSQL plans it as any join. In another order the planner chooses (aroundCircle).
 */
function people(users: "users as u", search: Search, values: SearchValues): People<"users as u">;
function people(users: "users as o", search: Search, values: SearchValues): People<"users as o">;
function people(users: "users as u" | "users as o", search: Search, values: SearchValues): unknown {
  const [table, alias] = [users as "users as u", users.slice(-1) as "u" | "o"];
  if (search.withinKm === null || !search.from) return db.selectFrom(table);
  if (search.sort !== "distance") return db.selectFrom(table).where(aroundCircle(search.from, search.withinKm, alias));
  const places = placesOf(search, values, alias);
  // Typed as the people alone: the ranges' columns are only named in the places' own conditions.
  return db.selectFrom(places.table).crossJoin(table).where(places.on);
}

/**
 * What a search tests on each candidate besides its filters, the cheapest first: its swipes and blocks
 * (in a circle, where every candidate is read), then the exact test of a ring's places (see people).
 */
function notSwipedOrBlockedWithin(
  search: Search,
  values: SearchValues,
  reading: Reading,
  card: "sitter" | "pet",
  id: string,
  table: "u" | "o",
): RawBuilder<boolean> {
  const swipesAndBlocks = notSwipedOrBlocked(values.viewerId, card, id, table, reading);
  return search.sort === "distance"
    ? sql<boolean>`${swipesAndBlocks} and ${placesOf(search, values, table).inside}`
    : swipesAndBlocks;
}

type People<As extends "users as u" | "users as o"> = ReturnType<typeof db.selectFrom<As>>;

interface Orderable<Q> {
  orderBy(key: RawBuilder<unknown>, modifiers: OrderByModifiers): Q;
}

/** Deck order on the columns of `table` (the people, or a circle's ranked candidates) and the selected closeness, the card's id breaking ties. */
export function inDeckOrder<Q extends Orderable<Q>>(
  query: Q,
  sort: Search["sort"],
  table: string,
  premium: Premium = "alike",
): Q {
  const ref = (column: string) => sql`${sql.ref(`${table}.${column}`)}`;
  const first: [RawBuilder<unknown>, OrderByModifiers][] =
    premium === "first" ? [[sql`${sql.ref("premium")}`, "desc"]] : [];
  const keys: [RawBuilder<unknown>, OrderByModifiers][] =
    sort === "distance"
      ? [[sql`${sql.ref("closeness")}`, "desc"]]
      : sort === "rating"
        ? // Unrated last on both engines (PostgreSQL puts nulls first when descending).
          [
            [ref("rating_average"), (order) => order.desc().nullsLast()],
            [ref("review_count"), "desc"],
          ]
        : sort === "price"
          ? [[ref("from_price_cents"), "asc"]]
          : [[ref("created_at"), "desc"]];
  return [...first, ...keys, [ref("id"), "asc"] as const].reduce(
    (next, [key, modifiers]) => next.orderBy(key, modifiers),
    query,
  );
}

/**
 * A sitter's care filters that read other tables: a service other than by the hour (its row of
 * sitter_services) and the dates (days off, stays). Tested in the query, or apart ("apart": see the
 * sitters' page in deck-reads).
 */
export function careTests(search: Search, values: SearchValues): RawBuilder<boolean>[] {
  const { filters } = search;
  return [
    ...(servesOtherThanHourly(filters) ? [offers(filters.service, values, filters.maxPriceCents !== null)] : []),
    ...(filters.firstDay !== null ? [freeOnDays(values, filters.service)] : []),
  ];
}

/** Whether a search has care filters that read other tables (see careTests), from its filters alone. */
export const testsCare = ({ filters }: Search) => servesOtherThanHourly(filters) || filters.firstDay !== null;

const servesOtherThanHourly = (filters: DeckFilters) => filters.service !== "any" && filters.service !== "hourly";

/**
 * Which filters and rules apply comes from the search; every value they compare with from `values`.
 * Care filters that read other tables are left out with `care` "apart" (see careTests).
 */
export function sitterQuery(
  search: Search,
  values: SearchValues,
  premium: Premium,
  reading: Reading = "all",
  care: "tested" | "apart" = "tested",
) {
  const { filters } = search;
  // The filters first: SQLite tests a candidate's conditions in the order written, the rarest first.
  let query = people("users as u", search, values).select("u.id");
  if (filters.petType !== "all") query = query.where("u.cares_for_mask", "in", masksCaringFor(filters.petType));
  if (filters.minRating > 0) query = query.where("u.rating_average", ">=", values.minRating);
  if (filters.pets > 1) query = query.where("u.max_pets", ">=", values.pets);
  // Without a service, a price filter meets the sitter's lowest price; with one, that service's price.
  if (filters.maxPriceCents !== null) query = query.where("u.from_price_cents", "<=", values.maxPriceCents);
  if (filters.service === "hourly")
    query = query.where(offers(filters.service, values, filters.maxPriceCents !== null));
  if (care === "tested") for (const test of careTests(search, values)) query = query.where(test);
  query = query
    .where(sitterRow)
    .where("u.suspended_at", "is", null)
    .where("u.deleted_at", "is", null)
    .where("u.id", "!=", values.viewerId);
  if (premium === "only") query = query.where(premiumFilterSql("u", values.at));
  if (inCircle(search)) query = query.where(notSwipedOrBlockedWithin(search, values, reading, "sitter", "u.id", "u"));
  return premium === "first" ? query.select(premiumSql("u", values.at).as("premium")) : query;
}

/**
 * Whether the sitter offers the service (at most at the price filter's price, where one is set): by the
 * hour is their hourly rate, the others a row of sitter_services, found by its key.
 */
function offers(service: DeckFilters["service"], values: SearchValues, capped: boolean): RawBuilder<boolean> {
  if (service === "hourly") {
    return capped
      ? sql<boolean>`u.hourly_rate_cents <= ${values.maxPriceCents}`
      : sql<boolean>`u.hourly_rate_cents is not null`;
  }
  const price = capped ? sql` and ss.price_cents <= ${values.maxPriceCents}` : sql``;
  return sql<boolean>`exists (select 1 from sitter_services ss where ss.sitter_id = u.id and ss.service = ${values.service}${price})`;
}

/**
 * Whether the sitter is free on every day of the dates filter, as a request for those days would find:
 * no day marked not free (availability's isFreeOnDays, one lookup of sitter_days_off's key per
 * candidate), and room beside the sitter's confirmed and in-progress stays (bookings' stayFits), read
 * from the stays' index (bookings_stays_by_sitter). Whatever the service, a house sitting takes the
 * sitter away for whole days. Filtering by boarding or day care, which share the sitter's home, the
 * filter's pets must also fit within users.max_pets beside the boarding and day care pets of each day;
 * by house sitting, no stay at all may touch those days. Without a service, or by the hour, walks and
 * drop-ins, a home full of boarders leaves no one out: its sitter may still come and walk a dog.
 * A stay touches each calendar day from its start to its end, both included, days being compared as the
 * calendar dates of the stored instants in UTC (stayFits takes the sitter's time zone; the filter has none).
 */
function freeOnDays(values: SearchValues, service: DeckFilters["service"]): RawBuilder<boolean> {
  const [firstDay, lastDay] = [
    sql<string>`cast(${values.firstDay} as text)`,
    sql<string>`cast(${values.lastDay} as text)`,
  ];
  const daysOff = sql<boolean>`not exists (select 1 from sitter_days_off d where d.sitter_id = u.id
    and d.day >= ${firstDay} and d.day <= ${lastDay})`;
  const away = sql<boolean>`not exists (select 1 from bookings b
    where ${staysOn("b", service === "house_sitting" ? [...STAYS_AWAY, ...SHARED_STAYS] : STAYS_AWAY, firstDay, lastDay)})`;
  if (!sharesDays(service)) return sql<boolean>`${daysOff} and ${away}`;
  // The pets present only rise on a day a stay starts, so the busiest day is the first day or a stay's
  // first day within the dates: each stay touching the dates is tested on the later of the two.
  const peakDay = sql<string>`(case when s.start_at < ${firstDay} then ${firstDay} else substr(s.start_at, 1, 10) end)`;
  const full = sql<boolean>`not exists (select 1 from bookings s where ${staysOn("s", SHARED_STAYS, firstDay, lastDay)}
    and (select count(*) from bookings t inner join booking_pets bp on bp.booking_id = t.id
      where ${staysOn("t", SHARED_STAYS, peakDay, peakDay)}) > u.max_pets - ${values.pets})`;
  return sql<boolean>`${daysOff} and ${away} and ${full}`;
}

/** Stays that take the sitter away from home: whole days that nothing else shares. */
const STAYS_AWAY = ["house_sitting"];

/**
 * The candidate's confirmed or in-progress stays of these services touching the days from `firstDay` to
 * `lastDay` (YYYY-MM-DD), a stay touching its last day too: `<> 'hourly'` is the stays index's own condition.
 */
function staysOn(
  alias: "b" | "s" | "t",
  services: readonly string[],
  firstDay: RawBuilder<string>,
  lastDay: RawBuilder<string>,
): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`${column("sitter_id")} = u.id and ${column("service_type")} <> 'hourly'
    and ${column("service_type")} in (${sql.join(services.map((service) => sql.lit(service)))})
    and ${column("status")} in ('confirmed', 'in-progress')
    and ${column("end_at")} > ${firstDay} and ${column("start_at")} < ${lastDay} || 'T24'`;
}

export function petQuery(search: Search, values: SearchValues, premium: Premium, reading: Reading = "all") {
  const { filters } = search;
  const owners = people("users as o", search, values)
    .where(ownerRow)
    .where("o.suspended_at", "is", null)
    .where("o.deleted_at", "is", null)
    .where("o.id", "!=", values.viewerId);
  let query = owners.innerJoin("pets as p", "p.owner_id", "o.id").select("p.id");
  if (filters.petType !== "all") query = query.where("p.pet_type", "=", filters.petType);
  if (premium === "only") query = query.where(premiumFilterSql("o", values.at));
  if (inCircle(search)) query = query.where(notSwipedOrBlockedWithin(search, values, reading, "pet", "p.id", "o"));
  return premium === "first" ? query.select(premiumSql("o", values.at).as("premium")) : query;
}
