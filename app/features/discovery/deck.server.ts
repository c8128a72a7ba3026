import { sql, type RawBuilder } from "kysely";
import type { User } from "~db/schema";
import { db, jsonListIncludes } from "~/platform/db.server";
import { toPhotoView, type PhotoView } from "~/features/media/index.server";
import { completedBookingCounts, isOwner, isSitter } from "~/features/profiles/index.server";
import { premiumSql } from "~/features/subscriptions/index.server";
import { shownTo } from "~/features/safety/index.server";
import { OWNER_ONLY_SORTS, type DeckFilters } from "./filters";
import { boundingBox, closenessAt, closenessSql, kilometresFor, shownKilometres, type Coordinates } from "~/features/geo/index.server";

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

const RINGS_KM = [2, 10, 50, 200, 1000, 5000];

// The same predicates as the partial indexes of migration 0004, so SQLite can use them.
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
  const find = tab === "sitters" ? findSitters : findPets;

  if (sort !== "distance") return { status: "cards", cards: await find(search) };
  // Nearest first: widen the circle until it holds a full page, so a dense city never sorts all its people.
  const limitKm = search.withinKm ?? Infinity;
  for (const km of [...RINGS_KM.filter((ring) => ring < limitKm), limitKm]) {
    const cards = await find({ ...search, withinKm: Number.isFinite(km) ? km : null });
    if (cards.length >= limit || !Number.isFinite(km) || km === limitKm) return { status: "cards", cards };
  }
  return { status: "cards", cards: [] };
}

function notSwiped(viewerId: string, person: "u.id" | "o.id", pet: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`not exists (select 1 from swipes s where s.swiper_id = ${viewerId}
    and s.target_user_id = ${sql.ref(person)} and coalesce(s.target_pet_id, '') = ${pet})`;
}

function insideCircle(search: Search, table: "u" | "o"): RawBuilder<boolean> | null {
  if (search.withinKm === null || !search.from) return null;
  const box = boundingBox(search.from, search.withinKm);
  const latitude = sql.ref(`${table}.latitude`);
  const longitude = sql.ref(`${table}.longitude`);
  const longitudes =
    box.minLongitude === null || box.maxLongitude === null ? sql`true` : sql`${longitude} between ${box.minLongitude} and ${box.maxLongitude}`;
  return sql<boolean>`${latitude} between ${box.minLatitude} and ${box.maxLatitude} and ${longitudes}
    and ${closenessSql(search.from, table)} >= ${closenessAt(search.withinKm)}`;
}

function nearness(search: Search, table: "u" | "o"): RawBuilder<number | null> {
  return search.from ? closenessSql(search.from, table) : sql<null>`null`;
}

// Premium cards are found on their own, so the main query keeps its index order instead of sorting by membership.
async function boosted<Row extends { id: string }>(page: (premiumOnly: boolean, limit: number) => Promise<Row[]>, limit: number): Promise<Row[]> {
  const premium = await page(true, limit);
  if (premium.length >= limit) return premium;
  const seen = new Set(premium.map((row) => row.id));
  const rest = (await page(false, limit + premium.length)).filter((row) => !seen.has(row.id));
  return [...premium, ...rest].slice(0, limit);
}

async function findSitters(search: Search): Promise<SitterCard[]> {
  const rows = await boosted((premiumOnly, limit) => sitterRows(search, premiumOnly, limit), search.limit);
  return sitterCards(rows);
}

function sitterRows(search: Search, premiumOnly: boolean, limit: number) {
  const { filters } = search;
  let query = db
    .selectFrom("users as u")
    .select(["u.id", "u.name", "u.city", "u.rating_average", "u.review_count", "u.hourly_rate_cents", "u.years_experience", "u.bio", "u.experience", "u.cares_for", "u.created_at"])
    .select(nearness(search, "u").as("closeness"))
    .where(sitterRow)
    .where("u.id", "!=", search.viewerId)
    .where(shownTo(search.viewerId, "u"))
    .where(notSwiped(search.viewerId, "u.id", sql`''`));
  if (premiumOnly) query = query.where(premiumSql("u.id"));
  if (filters.petType !== "all") {
    const petType = filters.petType;
    query = query.where(jsonListIncludes("u.cares_for", petType));
  }
  if (filters.minRating > 0) query = query.where("u.rating_average", ">=", filters.minRating);
  if (filters.maxPriceCents !== null) query = query.where("u.hourly_rate_cents", "<=", filters.maxPriceCents);
  const circle = insideCircle(search, "u");
  if (circle) query = query.where(circle);

  query =
    search.sort === "distance"
      ? query.orderBy("closeness", "desc")
      : search.sort === "rating"
        ? query.orderBy("u.rating_average", "desc").orderBy("u.review_count", "desc")
        : search.sort === "price"
          ? query.orderBy("u.hourly_rate_cents")
          : query.orderBy("u.created_at", "desc");
  return query.orderBy("u.id").limit(limit).execute();
}

async function sitterCards(rows: Awaited<ReturnType<typeof sitterRows>>): Promise<SitterCard[]> {
  const ids = rows.map((row) => row.id);
  const [photos, completed] = await Promise.all([photosOf("user_id", ids), completedBookingCounts(ids)]);
  return rows.map((row) => ({
    kind: "sitter",
    userId: row.id,
    petId: null,
    name: row.name,
    city: row.city,
    distanceKm: row.closeness === null ? null : shownKilometres(kilometresFor(row.closeness)),
    rating: row.rating_average,
    reviewCount: row.review_count,
    hourlyRateCents: row.hourly_rate_cents ?? 0,
    yearsExperience: row.years_experience,
    completedBookings: completed.get(row.id) ?? 0,
    bio: row.bio,
    experience: JSON.parse(row.experience) as string[],
    caresFor: JSON.parse(row.cares_for) as string[],
    photos: photos.get(row.id) ?? [],
  }));
}

async function findPets(search: Search): Promise<PetCard[]> {
  const rows = await boosted((premiumOnly, limit) => petRows(search, premiumOnly, limit), search.limit);
  return petCards(rows);
}

function petRows(search: Search, premiumOnly: boolean, limit: number) {
  const { filters } = search;
  let query = db
    .selectFrom("pets as p")
    .innerJoin("users as o", "o.id", "p.owner_id")
    .select(["p.id", "p.name", "p.pet_type", "p.breed", "p.age", "p.energy_level", "p.temperament", "p.created_at", "o.id as owner_id", "o.name as owner_name", "o.city"])
    .select(nearness(search, "o").as("closeness"))
    .where(ownerRow)
    .where("o.id", "!=", search.viewerId)
    .where(shownTo(search.viewerId, "o"))
    .where(notSwiped(search.viewerId, "o.id", sql.ref("p.id")));
  if (premiumOnly) query = query.where(premiumSql("o.id"));
  if (filters.petType !== "all") query = query.where("p.pet_type", "=", filters.petType);
  const circle = insideCircle(search, "o");
  if (circle) query = query.where(circle);
  query = search.sort === "distance" ? query.orderBy("closeness", "desc") : query.orderBy("p.created_at", "desc");
  return query.orderBy("p.id").limit(limit).execute();
}

async function petCards(rows: Awaited<ReturnType<typeof petRows>>): Promise<PetCard[]> {
  const photos = await photosOf("pet_id", rows.map((row) => row.id));
  return rows.map((row) => ({
    kind: "pet",
    userId: row.owner_id,
    petId: row.id,
    name: row.name,
    petType: row.pet_type,
    breed: row.breed,
    age: row.age,
    energyLevel: row.energy_level,
    temperament: JSON.parse(row.temperament) as string[],
    ownerName: row.owner_name,
    city: row.city,
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
