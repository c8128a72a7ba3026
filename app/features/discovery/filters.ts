import type { DeckSort, PetType, ServiceId } from "~db/schema";

export interface DeckFilters {
  petType: "all" | PetType;
  maxDistanceKm: number;
  minRating: number;
  maxPriceCents: number | null;
  sortBy: DeckSort;
  /** Only sitters who offer this service (its price then meets maxPriceCents). */
  service: "any" | ServiceId;
  /** Only sitters free on every day from firstDay to lastDay (YYYY-MM-DD, both or neither). */
  firstDay: string | null;
  lastDay: string | null;
  /** Only sitters who take at least this many pets at once (1 filters nothing). */
  pets: number;
}

export const DEFAULT_FILTERS: DeckFilters = {
  petType: "all",
  maxDistanceKm: 50,
  minRating: 0,
  maxPriceCents: null,
  sortBy: "distance",
  service: "any",
  firstDay: null,
  lastDay: null,
  pets: 1,
};

/** The deck's service filter: any, or one of the six services. */
export const SERVICE_CHOICES = ["any", "hourly", "walk", "drop_in", "day_care", "house_sitting", "boarding"] as const;
export const serviceChoiceOf = (value: string): DeckFilters["service"] =>
  (SERVICE_CHOICES as readonly string[]).includes(value) ? (value as DeckFilters["service"]) : "any";
export const PETS = { min: 1, max: 6 } as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day written YYYY-MM-DD. */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

/** Nights from one calendar day to a later one. */
export const nightsBetween = (first: string, last: string) =>
  Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / 86_400_000);

/**
 * The earliest first day a dates filter takes at `at`: yesterday in UTC, which is today somewhere on
 * Earth (the viewer's own today, wherever they are). Earlier dates have gone by everywhere.
 */
export function earliestFirstDay(at: Date): string {
  return new Date(at.getTime() - 86_400_000).toISOString().slice(0, 10);
}
/** The longest dates filter: 30 nights (31 days). */
export const MOST_NIGHTS = 30;

export const DISTANCE_KM = { min: 5, max: 200, step: 5 } as const;
export const MAX_PRICE_EUROS = 100;
export const SORTS = ["distance", "rating", "price", "newest"] as const satisfies readonly DeckSort[];
export const OWNER_ONLY_SORTS: readonly DeckSort[] = ["rating", "price"];

export function activeFilterCount(filters: DeckFilters, forOwner: boolean): number {
  let count = 0;
  if (filters.petType !== DEFAULT_FILTERS.petType) count += 1;
  if (filters.maxDistanceKm !== DEFAULT_FILTERS.maxDistanceKm) count += 1;
  if (forOwner && filters.minRating > 0) count += 1;
  if (forOwner && filters.maxPriceCents !== null) count += 1;
  if (forOwner && filters.service !== DEFAULT_FILTERS.service) count += 1;
  if (forOwner && filters.firstDay !== null) count += 1;
  if (forOwner && filters.pets !== DEFAULT_FILTERS.pets) count += 1;
  return count;
}
