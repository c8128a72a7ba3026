// The cards of a page: their details, photos, services and completed bookings, read for the few found.

import { db, executeKeepingPlan, jsonList } from "~/platform/db.server";
import { toPhotoView, type PhotoView } from "~/features/media/index.server";
import { completedBookingCounts, servicesOf, type OfferedService } from "~/features/profiles/index.server";
import { kilometresFor, shownKilometres } from "~/features/geo/index.server";
import type { Found } from "./deck-search";

export interface SitterCard {
  kind: "sitter";
  userId: string;
  petId: null;
  name: string;
  city: string;
  distanceKm: number | null;
  rating: number | null;
  reviewCount: number;
  /** Null for a sitter who offers no pet sitting by the hour (only other services). */
  hourlyRateCents: number | null;
  /** The services offered besides by the hour, each "from" its price. */
  services: OfferedService[];
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

/** The page's details, in the order found (a card gone between the two reads is left out). */
function inOrderOf<Detail extends { id: string }>(rows: Found[], details: Detail[]): { row: Found; detail: Detail }[] {
  const byId = new Map(details.map((detail) => [detail.id, detail]));
  return rows.flatMap((row) => {
    const detail = byId.get(row.id);
    return detail ? [{ row, detail }] : [];
  });
}

export async function sitterCards(rows: Found[]): Promise<SitterCard[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  // The page's details keep their plans as the deck's own reads do (a few ids, read by key), so a
  // connection serving decks never switches PostgreSQL's plan mode back and forth.
  const [details, photos, completed, services] = await Promise.all([
    executeKeepingPlan(
      db
        .selectFrom("users")
        .select([
          "id",
          "name",
          "city",
          "rating_average",
          "review_count",
          "hourly_rate_cents",
          "years_experience",
          "bio",
          "experience",
          "cares_for",
        ])
        .where("id", "in", ids),
    ),
    photosOf("user_id", ids),
    completedBookingCounts(ids),
    servicesOf(db, ids),
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
    hourlyRateCents: detail.hourly_rate_cents,
    services: services.get(row.id) ?? [],
    yearsExperience: detail.years_experience,
    completedBookings: completed.get(row.id) ?? 0,
    bio: detail.bio,
    experience: jsonList.read(detail.experience),
    caresFor: jsonList.read(detail.cares_for),
    photos: photos.get(row.id) ?? [],
  }));
}

export async function petCards(rows: Found[]): Promise<PetCard[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [details, photos] = await Promise.all([
    executeKeepingPlan(
      db
        .selectFrom("pets as p")
        .innerJoin("users as o", "o.id", "p.owner_id")
        .select([
          "p.id",
          "p.name",
          "p.pet_type",
          "p.breed",
          "p.age",
          "p.energy_level",
          "p.temperament",
          "o.id as owner_id",
          "o.name as owner_name",
          "o.city",
        ])
        .where("p.id", "in", ids),
    ),
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
  let query = db
    .selectFrom("photos")
    .select(["id", "user_id", "pet_id", "card_key", "full_key", "width", "height"])
    .where(by, "in", ids);
  if (by === "user_id") query = query.where("pet_id", "is", null);
  for (const photo of await executeKeepingPlan(query.orderBy("position"))) {
    const key = by === "user_id" ? photo.user_id : photo.pet_id!;
    grouped.set(key, [...(grouped.get(key) ?? []), toPhotoView(photo)]);
  }
  return grouped;
}
