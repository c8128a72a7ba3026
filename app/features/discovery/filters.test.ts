import { describe, expect, it } from "vitest";
import { activeFilterCount, DEFAULT_FILTERS, type DeckFilters } from "./filters";
import { filtersSchema } from "./filters-schema";

describe("filter badge", () => {
  const filters = (changes: Partial<DeckFilters>): DeckFilters => ({ ...DEFAULT_FILTERS, ...changes });

  it("counts nothing for the defaults, whoever looks", () => {
    expect(activeFilterCount(DEFAULT_FILTERS, true)).toBe(0);
    expect(activeFilterCount(DEFAULT_FILTERS, false)).toBe(0);
  });

  it("counts each narrowing filter once for owners", () => {
    expect(activeFilterCount(filters({ petType: "dog" }), true)).toBe(1);
    expect(activeFilterCount(filters({ petType: "cat" }), true)).toBe(1);
    expect(activeFilterCount(filters({ maxDistanceKm: 100 }), true)).toBe(1);
    expect(activeFilterCount(filters({ maxDistanceKm: 5 }), true)).toBe(1);
    expect(activeFilterCount(filters({ minRating: 4 }), true)).toBe(1);
    expect(activeFilterCount(filters({ maxPriceCents: 2000 }), true)).toBe(1);
    expect(activeFilterCount(filters({ maxPriceCents: 0 }), true)).toBe(1);
    expect(
      activeFilterCount(filters({ petType: "dog", maxDistanceKm: 20, minRating: 3, maxPriceCents: 1500 }), true),
    ).toBe(4);
  });

  it("does not count rating or price for sitters, who never see those filters", () => {
    expect(activeFilterCount(filters({ minRating: 4 }), false)).toBe(0);
    expect(activeFilterCount(filters({ maxPriceCents: 2000 }), false)).toBe(0);
    expect(activeFilterCount(filters({ petType: "cat" }), false)).toBe(1);
    expect(activeFilterCount(filters({ maxDistanceKm: 100 }), false)).toBe(1);
    expect(
      activeFilterCount(filters({ petType: "dog", maxDistanceKm: 20, minRating: 3, maxPriceCents: 1500 }), false),
    ).toBe(2);
  });

  it("never counts the sort order", () => {
    for (const sortBy of ["distance", "rating", "price", "newest"] as const) {
      expect(activeFilterCount(filters({ sortBy }), true)).toBe(0);
      expect(activeFilterCount(filters({ sortBy }), false)).toBe(0);
    }
  });
});

describe("filter form", () => {
  const form = { petType: "all", maxDistanceKm: "50", sortBy: "distance" };
  const accepts = (changes: Record<string, unknown>) => filtersSchema.safeParse({ ...form, ...changes }).success;

  it("accepts the defaults as posted, with numbers as text", () => {
    const parsed = filtersSchema.safeParse({ ...form, minRating: "4", maxPrice: "25" });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual({
      petType: "all",
      maxDistanceKm: 50,
      minRating: 4,
      maxPrice: 25,
      sortBy: "distance",
      service: "any",
      pets: 1,
    });
  });

  it("takes distances from 5 to 200 km in steps of 5, and nothing else", () => {
    for (let km = 5; km <= 200; km += 5) expect(accepts({ maxDistanceKm: String(km) }), `${km} km`).toBe(true);
    for (const km of ["3", "0", "201", "205", "52", "47.5", "abc", "-5"])
      expect(accepts({ maxDistanceKm: km }), `${km} km`).toBe(false);
  });

  it("takes a maximum price from 0 to 100 euros, or none", () => {
    for (const price of ["0", "1", "12.5", "50", "100"]) expect(accepts({ maxPrice: price }), `${price} €`).toBe(true);
    expect(accepts({})).toBe(true);
    for (const price of ["-1", "101", "abc"]) expect(accepts({ maxPrice: price }), `${price} €`).toBe(false);
  });

  it("takes ratings 0 to 5", () => {
    for (const rating of ["0", "3", "5"]) expect(accepts({ minRating: rating })).toBe(true);
    for (const rating of ["-1", "6", "4.5"]) expect(accepts({ minRating: rating })).toBe(false);
  });

  it("takes only the known pet types and sorts", () => {
    for (const petType of ["all", "dog", "cat"]) expect(accepts({ petType })).toBe(true);
    for (const sortBy of ["distance", "rating", "price", "newest"]) expect(accepts({ sortBy })).toBe(true);
    expect(accepts({ petType: "lizard" })).toBe(false);
    expect(accepts({ sortBy: "random" })).toBe(false);
    expect(accepts({ petType: undefined })).toBe(false);
  });
});
