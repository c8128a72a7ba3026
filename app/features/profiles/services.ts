import type { ServiceId } from "~db/schema";
import { HOURLY_RATE_MAX, HOURLY_RATE_MIN } from "./options";

export type { ServiceId };

/** What a service is priced per; labels are translated (profile:services.unit.<unit>). */
export type ServiceUnit = "hour" | "walk" | "visit" | "day" | "night";

export interface ServiceTerms {
  id: ServiceId;
  unit: ServiceUnit;
  /** Whole euros a sitter may ask per unit. */
  minPrice: number;
  maxPrice: number;
  /** Where the care happens. */
  place: "owners-home" | "sitters-home" | "out";
  /** Minutes one unit lasts, where the sitter does not choose: null for per-day and per-night services. */
  durationsMinutes: readonly number[] | null;
}

/**
 * The six services, in the order a sitter and an owner see them. Pet sitting by the hour is the
 * specification's booking: its price is the sitter's hourly rate (users.hourly_rate_cents); the others
 * live in sitter_services. Labels and explanations are translated (profile:services.<id>).
 */
export const SERVICES: readonly ServiceTerms[] = [
  {
    id: "hourly",
    unit: "hour",
    minPrice: HOURLY_RATE_MIN,
    maxPrice: HOURLY_RATE_MAX,
    place: "owners-home",
    durationsMinutes: null,
  },
  { id: "walk", unit: "walk", minPrice: 5, maxPrice: 100, place: "out", durationsMinutes: [30, 60] },
  { id: "drop_in", unit: "visit", minPrice: 5, maxPrice: 100, place: "owners-home", durationsMinutes: [30] },
  { id: "day_care", unit: "day", minPrice: 10, maxPrice: 200, place: "sitters-home", durationsMinutes: null },
  { id: "house_sitting", unit: "night", minPrice: 10, maxPrice: 300, place: "owners-home", durationsMinutes: null },
  { id: "boarding", unit: "night", minPrice: 10, maxPrice: 300, place: "sitters-home", durationsMinutes: null },
];

export const SERVICE_IDS = SERVICES.map((s) => s.id);

/** Services whose booking spans whole days (a stay): priced per day or per night. */
export const STAY_SERVICES = ["day_care", "house_sitting", "boarding"] as const satisfies readonly ServiceId[];
export type StayService = (typeof STAY_SERVICES)[number];
export const isStayService = (value: unknown): value is StayService =>
  typeof value === "string" && (STAY_SERVICES as readonly string[]).includes(value);

export const termsOf = (id: ServiceId): ServiceTerms => SERVICES.find((s) => s.id === id)!;

export const isServiceId = (value: unknown): value is ServiceId =>
  typeof value === "string" && (SERVICE_IDS as readonly string[]).includes(value);

/** Each pet after the first adds this much per unit, in whole euros. */
export const EXTRA_PET_PRICE_MIN = 0;
export const EXTRA_PET_PRICE_MAX = 50;
export const MAX_PETS_MIN = 1;
export const MAX_PETS_MAX = 6;

/** The form field holding each priced service's price besides "hourly" (whose field is hourlyRate). */
export const PRICE_FIELDS = {
  walk: "walkPrice",
  drop_in: "dropInPrice",
  day_care: "dayCarePrice",
  house_sitting: "houseSittingPrice",
  boarding: "boardingPrice",
} as const satisfies Record<Exclude<ServiceId, "hourly">, string>;
