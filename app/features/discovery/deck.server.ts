import { sql, type OrderByModifiers, type RawBuilder } from "kysely";
import type { User } from "~db/schema";
import { db, jsonList } from "~/platform/db.server";
import { toPhotoView, type PhotoView } from "~/features/media/index.server";
import { completedBookingCounts, isOwner, isSitter, masksCaringFor } from "~/features/profiles/index.server";
import { premiumSql } from "~/features/subscriptions/index.server";
import { shownTo } from "~/features/safety/index.server";
import { OWNER_ONLY_SORTS, type DeckFilters } from "./filters";
import { boundingBox, closenessAt, kilometresFor, shownKilometres, type Coordinates } from "~/features/geo/index.server";

export type DeckTab = "sitters" | "pets";

export interface SitterCard {
  kind: "sitter";
  userId: string;
  petId: null;
  name: string;
  city: string;
  distanceKm: number | null;
  rating: number | null;
  reviewCount: number;
  hourlyRateCents: number;
  yearsExperience: number | null;
  completedBookings: number;
  bio: string;
  experience: string[];
  caresFor: string[];
  photos: PhotoView[];
}

export interface PetCard {
  kind: "pet";
  userId: string;
  petId: string;
  name: string;
  petType: "dog" | "cat";
  breed: string;
  age: string;
  energyLevel: string;
  temperament: string[];
  ownerName: string;
  city: string;
  distanceKm: number | null;
  photos: PhotoView[];
}

export type DeckCard = SitterCard | PetCard;

export type Viewer = Pick<
  User,
  "id" | "role" | "latitude" | "longitude" | "browse_mode" | "filter_pet_type" | "filter_max_distance_km" | "filter_min_rating" | "filter_max_price_cents" | "filter_sort"
>;

export type DeckResult = { status: "cards"; cards: DeckCard[] } | { status: "needs-location" };

export const DECK_PAGE = 5;

// Rings growing by about half their radius: an empty ring is a few short index ranges, and a full page
// is never found only after a ring that holds a whole region (1,000 → 5,000 km held all of Europe).
const RINGS_KM = [2, 5, 10, 20, 50, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000];

// The same predicates as the partial indexes of migration 0025 (with shownTo's suspended_at and
// deleted_at), so both engines can read candidates from those indexes alone.
const sitterRow = sql<boolean>`u.role in ('sitter', 'both') and u.hourly_rate_cents is not null and u.email_verified_at is not null`;
const ownerRow = sql<boolean>`o.role in ('owner', 'both') and o.email_verified_at is not null`;

export function tabsFor(role: User["role"]): DeckTab[] {
  return [...(isOwner(role) ? (["sitters"] as const) : []), ...(isSitter(role) ? (["pets"] as const) : [])];
}

export function filtersOf(viewer: Viewer): DeckFilters {
  return {
    petType: viewer.filter_pet_type,
    maxDistanceKm: viewer.filter_max_distance_km,
    minRating: viewer.filter_min_rating,
    maxPriceCents: viewer.filter_max_price_cents,
    sortBy: viewer.filter_sort,
  };
}

function coordinatesOf(viewer: Viewer): Coordinates | null {
  return viewer.latitude === null || viewer.longitude === null ? null : { latitude: viewer.latitude, longitude: viewer.longitude };
}

interface Search {
  viewerId: string;
  filters: DeckFilters;
  from: Coordinates | null;
  withinKm: number | null;
  sort: "distance" | "rating" | "price" | "newest";
  limit: number;
}

/** A card found, in deck order; its details are read afterwards, for the page's few cards only. */
interface Found {
  id: string;
  closeness: number | null;
}

export async function deckFor(viewer: Viewer, tab: DeckTab, limit = DECK_PAGE): Promise<DeckResult> {
  if (!tabsFor(viewer.role).includes(tab)) return { status: "cards", cards: [] };
  const filters = filtersOf(viewer);
  const from = coordinatesOf(viewer);
  const local = viewer.browse_mode === "local";
  if (local && !from) return { status: "needs-location" };

  let sort = filters.sortBy;
  if (tab === "pets" && OWNER_ONLY_SORTS.includes(sort)) sort = "distance";
  if (sort === "distance" && !from) sort = "newest";
  const search: Search = { viewerId: viewer.id, filters, from, withinKm: local ? filters.maxDistanceKm : null, sort, limit };
  const rowsOf = tab === "sitters" ? sitterRows : petRows;
  const cardsOf = (rows: Found[]): Promise<DeckCard[]> => (tab === "sitters" ? sitterCards(rows) : petCards(rows));
  const find = (within: Search, plain?: Found[]) => boosted((premiumOnly, size) => rowsOf(within, premiumOnly, size), limit, plain);

  if (sort !== "distance") return { status: "cards", cards: await cardsOf(await find(search)) };
  // Nearest first: widen the circle until it holds a full page, so a dense city never sorts all its people.
  // Premium cards are a subset of a ring's cards, so they are looked for only once a ring is full.
  const limitKm = search.withinKm ?? Infinity;
  for (const km of [...RINGS_KM.filter((ring) => ring < limitKm), limitKm]) {
    const within = { ...search, withinKm: Number.isFinite(km) ? km : null };
    // Twice the page: enough to follow up to limit - 1 premium cards without reading the ring again.
    const plain = await rowsOf(within, false, 2 * limit);
    if (plain.length >= limit || !Number.isFinite(km) || km === limitKm) return { status: "cards", cards: await cardsOf(await find(within, plain)) };
  }
  return { status: "cards", cards: [] };
}

function notSwiped(viewerId: string, person: string, pet: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`not exists (select 1 from swipes s where s.swiper_id = ${viewerId}
    and s.target_user_id = ${sql.ref(person)} and coalesce(s.target_pet_id, '') = ${pet})`;
}

/**
 * The viewer's swipes and blocks (either way) as lists read once per query, not lookups per candidate:
 * a circle's candidates are ranked with them, and the rules themselves (notSwiped, safety's shownTo)
 * then run on the page's few rows.
 */
function notSwipedOrBlocked(viewerId: string, card: "sitter" | "pet", id: string, personId: string): RawBuilder<boolean> {
  const swiped =
    card === "sitter"
      ? sql`select s.target_user_id from swipes s where s.swiper_id = ${viewerId} and s.target_pet_id is null`
      : sql`select s.target_pet_id from swipes s where s.swiper_id = ${viewerId} and s.target_pet_id is not null`;
  return sql<boolean>`${sql.ref(id)} not in (${swiped}) and ${sql.ref(personId)} not in (select bl.blocked_id from blocks bl
    where bl.blocker_id = ${viewerId} union all select bl.blocker_id from blocks bl where bl.blocked_id = ${viewerId})`;
}

/**
 * Closeness (as geo's closenessSql) from latitude and longitude: these are in the deck's place indexes,
 * so a circle's candidates are ranked without reading their rows (unit_x/y/z are computed columns that
 * SQLite reads from the row). Plain math that both engines have.
 */
function closenessFromDegrees(from: Coordinates, table: "u" | "o"): RawBuilder<number> {
  const radiansPerDegree = sql.lit(Math.PI / 180);
  const latitude = sql`${sql.ref(`${table}.latitude`)} * ${radiansPerDegree}`;
  const longitude = sql`${sql.ref(`${table}.longitude`)} * ${radiansPerDegree}`;
  const [fromLatitude, fromLongitude] = [(from.latitude * Math.PI) / 180, (from.longitude * Math.PI) / 180];
  return sql<number>`(sin(${latitude}) * ${Math.sin(fromLatitude)} + cos(${latitude}) * ${Math.cos(fromLatitude)} * cos(${longitude} - ${fromLongitude}))`;
}

/** Rows of 0.1° of latitude: the leading key of the deck's place indexes (migration 0025), `floor(latitude * 10)`. */
const ROWS_PER_DEGREE = 10;
/** Up to this many rows a circle is read as one longitude range per row; beyond, as one latitude band. */
const MAX_LISTED_ROWS = 40;

function insideCircle(search: Search, table: "u" | "o"): RawBuilder<boolean> | null {
  if (search.withinKm === null || !search.from) return null;
  const box = boundingBox(search.from, search.withinKm);
  const row = sql`floor(${sql.ref(`${table}.latitude`)} * ${sql.lit(ROWS_PER_DEGREE)})`;
  const first = Math.floor(box.minLatitude * ROWS_PER_DEGREE);
  const last = Math.floor(box.maxLatitude * ROWS_PER_DEGREE);
  const rows =
    last - first < MAX_LISTED_ROWS
      ? sql`${row} in (${sql.join(Array.from({ length: last - first + 1 }, (_, i) => first + i))})`
      : sql`${row} between ${first} and ${last}`;
  const longitude = sql.ref(`${table}.longitude`);
  const longitudes =
    box.minLongitude === null || box.maxLongitude === null ? sql`1 = 1` : sql`${longitude} between ${box.minLongitude} and ${box.maxLongitude}`;
  return sql<boolean>`${rows} and ${longitudes} and ${closenessFromDegrees(search.from, table)} >= ${closenessAt(search.withinKm)}`;
}

function nearness(search: Search, table: "u" | "o"): RawBuilder<number | null> {
  return search.from ? closenessFromDegrees(search.from, table) : sql<null>`null`;
}

interface Orderable<Q> {
  orderBy(key: RawBuilder<unknown>, modifiers: OrderByModifiers): Q;
}

/** Deck order on the columns of `table` (the people, or a circle's ranked candidates) and the selected closeness, the card's id breaking ties. */
function inDeckOrder<Q extends Orderable<Q>>(query: Q, sort: Search["sort"], table: string): Q {
  const ref = (column: string) => sql`${sql.ref(`${table}.${column}`)}`;
  const keys: [RawBuilder<unknown>, OrderByModifiers][] =
    sort === "distance"
      ? [[sql`${sql.ref("closeness")}`, "desc"]]
      : sort === "rating"
        ? // Unrated last on both engines (PostgreSQL puts nulls first when descending).
          [[ref("rating_average"), (order) => order.desc().nullsLast()], [ref("review_count"), "desc"]]
        : sort === "price"
          ? [[ref("hourly_rate_cents"), "asc"]]
          : [[ref("created_at"), "desc"]];
  return [...keys, [ref("id"), "asc"] as const].reduce((next, [key, modifiers]) => next.orderBy(key, modifiers), query);
}

// Premium cards are found on their own, so the main query keeps its index order instead of sorting by membership.
// `plain` is the first 2 × limit cards without the boost (or all of them), when already read.
async function boosted<Row extends { id: string }>(page: (premiumOnly: boolean, limit: number) => Promise<Row[]>, limit: number, plain?: Row[]): Promise<Row[]> {
  const premium = await page(true, limit);
  if (premium.length >= limit) return premium;
  const seen = new Set(premium.map((row) => row.id));
  const rest = (plain ?? (await page(false, limit + premium.length))).filter((row) => !seen.has(row.id));
  return [...premium, ...rest].slice(0, limit);
}

function sitterRows(search: Search, premiumOnly: boolean, limit: number): Promise<Found[]> {
  const { filters } = search;
  let query = db
    .selectFrom("users as u")
    .select(["u.id", "u.rating_average", "u.review_count", "u.hourly_rate_cents", "u.created_at"])
    .select(nearness(search, "u").as("closeness"))
    .where(sitterRow)
    .where("u.suspended_at", "is", null)
    .where("u.deleted_at", "is", null)
    .where("u.id", "!=", search.viewerId);
  if (premiumOnly) query = query.where(premiumSql("u.id"));
  if (filters.petType !== "all") query = query.where("u.cares_for_mask", "in", masksCaringFor(filters.petType));
  if (filters.minRating > 0) query = query.where("u.rating_average", ">=", filters.minRating);
  if (filters.maxPriceCents !== null) query = query.where("u.hourly_rate_cents", "<=", filters.maxPriceCents);
  const circle = insideCircle(search, "u");
  if (!circle) {
    // Read in an index's order: the first candidates that pass are the page.
    const page = query.where(shownTo(search.viewerId, "u")).where(notSwiped(search.viewerId, "u.id", sql`''`));
    return inDeckOrder(page, search.sort, "u").limit(limit).execute();
  }
  // Every candidate in a circle is read before the order is known: ranked from the index alone, then
  // the page's rows are read and checked by the rules.
  const candidates = inDeckOrder(query.where(circle).where(notSwipedOrBlocked(search.viewerId, "sitter", "u.id", "u.id")), search.sort, "u").limit(limit);
  const page = db
    .selectFrom(candidates.as("c"))
    .innerJoin("users as u", "u.id", "c.id")
    .select(["c.id", "c.closeness"])
    .where(shownTo(search.viewerId, "u"))
    .where(notSwiped(search.viewerId, "u.id", sql`''`));
  return inDeckOrder(page, search.sort, "c").limit(limit).execute();
}

function petRows(search: Search, premiumOnly: boolean, limit: number): Promise<Found[]> {
  const { filters } = search;
  let query = db
    .selectFrom("pets as p")
    .innerJoin("users as o", "o.id", "p.owner_id")
    .select(["p.id", "p.created_at", "o.id as owner_id"])
    .select(nearness(search, "o").as("closeness"))
    .where(ownerRow)
    .where("o.suspended_at", "is", null)
    .where("o.deleted_at", "is", null)
    .where("o.id", "!=", search.viewerId);
  if (premiumOnly) query = query.where(premiumSql("o.id"));
  if (filters.petType !== "all") query = query.where("p.pet_type", "=", filters.petType);
  const circle = insideCircle(search, "o");
  if (!circle) {
    const page = query.where(shownTo(search.viewerId, "o")).where(notSwiped(search.viewerId, "o.id", sql.ref("p.id")));
    return inDeckOrder(page, search.sort, "p").limit(limit).execute();
  }
  const candidates = inDeckOrder(query.where(circle).where(notSwipedOrBlocked(search.viewerId, "pet", "p.id", "o.id")), search.sort, "p").limit(limit);
  const page = db
    .selectFrom(candidates.as("c"))
    .innerJoin("users as o", "o.id", "c.owner_id")
    .select(["c.id", "c.closeness"])
    .where(shownTo(search.viewerId, "o"))
    .where(notSwiped(search.viewerId, "o.id", sql.ref("c.id")));
  return inDeckOrder(page, search.sort, "c").limit(limit).execute();
}

/** The page's details, in the order found (a card gone between the two reads is left out). */
function inOrderOf<Detail extends { id: string }>(rows: Found[], details: Detail[]): { row: Found; detail: Detail }[] {
  const byId = new Map(details.map((detail) => [detail.id, detail]));
  return rows.flatMap((row) => {
    const detail = byId.get(row.id);
    return detail ? [{ row, detail }] : [];
  });
}

async function sitterCards(rows: Found[]): Promise<SitterCard[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [details, photos, completed] = await Promise.all([
    db
      .selectFrom("users")
      .select(["id", "name", "city", "rating_average", "review_count", "hourly_rate_cents", "years_experience", "bio", "experience", "cares_for"])
      .where("id", "in", ids)
      .execute(),
    photosOf("user_id", ids),
    completedBookingCounts(ids),
  ]);
  return inOrderOf(rows, details).map(({ row, detail }) => ({
    kind: "sitter",
    userId: row.id,
    petId: null,
    name: detail.name,
    city: detail.city,
    distanceKm: row.closeness === null ? null : shownKilometres(kilometresFor(row.closeness)),
    rating: detail.rating_average,
    reviewCount: detail.review_count,
    hourlyRateCents: detail.hourly_rate_cents ?? 0,
    yearsExperience: detail.years_experience,
    completedBookings: completed.get(row.id) ?? 0,
    bio: detail.bio,
    experience: jsonList.read(detail.experience),
    caresFor: jsonList.read(detail.cares_for),
    photos: photos.get(row.id) ?? [],
  }));
}

async function petCards(rows: Found[]): Promise<PetCard[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [details, photos] = await Promise.all([
    db
      .selectFrom("pets as p")
      .innerJoin("users as o", "o.id", "p.owner_id")
      .select(["p.id", "p.name", "p.pet_type", "p.breed", "p.age", "p.energy_level", "p.temperament", "o.id as owner_id", "o.name as owner_name", "o.city"])
      .where("p.id", "in", ids)
      .execute(),
    photosOf("pet_id", ids),
  ]);
  return inOrderOf(rows, details).map(({ row, detail }) => ({
    kind: "pet",
    userId: detail.owner_id,
    petId: row.id,
    name: detail.name,
    petType: detail.pet_type,
    breed: detail.breed,
    age: detail.age,
    energyLevel: detail.energy_level,
    temperament: jsonList.read(detail.temperament),
    ownerName: detail.owner_name,
    city: detail.city,
    distanceKm: row.closeness === null ? null : shownKilometres(kilometresFor(row.closeness)),
    photos: photos.get(row.id) ?? [],
  }));
}

async function photosOf(by: "user_id" | "pet_id", ids: string[]): Promise<Map<string, PhotoView[]>> {
  const grouped = new Map<string, PhotoView[]>();
  if (ids.length === 0) return grouped;
  let query = db.selectFrom("photos").select(["id", "user_id", "pet_id", "card_key", "full_key", "width", "height"]).where(by, "in", ids);
  if (by === "user_id") query = query.where("pet_id", "is", null);
  for (const photo of await query.orderBy("position").execute()) {
    const key = by === "user_id" ? photo.user_id : photo.pet_id!;
    grouped.set(key, [...(grouped.get(key) ?? []), toPhotoView(photo)]);
  }
  return grouped;
}
