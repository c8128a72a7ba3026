import type { DeckSort, PetType } from "~db/schema";

export interface DeckFilters {
  petType: "all" | PetType;
  maxDistanceKm: number;
  minRating: number;
  maxPriceCents: number | null;
  sortBy: DeckSort;
}

export const DEFAULT_FILTERS: DeckFilters = {
  petType: "all",
  maxDistanceKm: 50,
  minRating: 0,
  maxPriceCents: null,
  sortBy: "distance",
};

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
  return count;
}
