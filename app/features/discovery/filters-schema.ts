import { z } from "~/platform/validation";
import { DISTANCE_KM, MAX_PRICE_EUROS, SORTS } from "./filters";

const choice = "validation.choice";
const wholeNumber = z.refine(Number.isInteger, "validation.number");

export const filtersSchema = z.object({
  petType: z.enum(["all", "dog", "cat"], choice),
  maxDistanceKm: z.coerce.number<number>("validation.number").check(
    wholeNumber,
    z.gte(DISTANCE_KM.min, "validation.distanceRange"),
    z.lte(DISTANCE_KM.max, "validation.distanceRange"),
    z.refine((km: number) => km % DISTANCE_KM.step === 0, "validation.distanceRange"),
  ),
  minRating: z.optional(
    z.coerce
      .number<number>("validation.number")
      .check(wholeNumber, z.gte(0, "validation.ratingRange"), z.lte(5, "validation.ratingRange")),
  ),
  maxPrice: z.optional(
    z.coerce
      .number<number>("validation.number")
      .check(z.gte(0, "validation.priceRange"), z.lte(MAX_PRICE_EUROS, "validation.priceRange")),
  ),
  sortBy: z.enum(SORTS, choice),
});
