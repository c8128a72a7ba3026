import { maxLength, z } from "~/platform/validation";
import {
  DISTANCE_KM,
  MAX_PRICE_EUROS,
  MOST_NIGHTS,
  PETS,
  SERVICE_CHOICES,
  SORTS,
  earliestFirstDay,
  isCalendarDay,
  nightsBetween,
} from "./filters";

const choice = "validation.choice";
const wholeNumber = z.refine(Number.isInteger, "validation.number");

const errors = "discovery:filters.errors";
const day = z.optional(
  z.string().check(
    maxLength(10, `${errors}.dayInvalid`),
    z.refine((value: string) => isCalendarDay(value), `${errors}.dayInvalid`),
  ),
);

const filterFields = z.object({
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
  service: z._default(z.enum(SERVICE_CHOICES, choice), "any"),
  firstDay: day,
  lastDay: day,
  pets: z._default(
    z.coerce
      .number<number>("validation.number")
      .check(wholeNumber, z.gte(PETS.min, `${errors}.petsRange`), z.lte(PETS.max, `${errors}.petsRange`)),
    PETS.min,
  ),
});

/**
 * The dates: both or neither, the first not gone by (today somewhere on Earth: see earliestFirstDay),
 * the last on or after it, MOST_NIGHTS nights at most. Each error under its field.
 */
export const filtersSchema = filterFields.check(
  z.check(({ value: { firstDay, lastDay }, issues }) => {
    const issue = (field: "firstDay" | "lastDay", message: string): void => {
      issues.push({ code: "custom", path: [field], message: `${errors}.${message}`, input: firstDay, continue: true });
    };
    if (firstDay === undefined && lastDay === undefined) return;
    if (firstDay === undefined) return issue("firstDay", "firstDayRequired");
    if (lastDay === undefined) return issue("lastDay", "lastDayRequired");
    if (firstDay < earliestFirstDay(new Date())) return issue("firstDay", "firstDayPast");
    if (lastDay < firstDay) return issue("lastDay", "lastBeforeFirst");
    if (nightsBetween(firstDay, lastDay) > MOST_NIGHTS) issue("lastDay", "tooManyNights");
  }),
);
