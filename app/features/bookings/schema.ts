import type { CancellationPolicy } from "~db/schema";
import { maxLength, minLength, optionalText, uuid, z } from "~/platform/validation";
import { CANCEL_REASON_MAX, MAX_HOURS, MAX_PETS, MIN_HOURS, REVIEW_COMMENT_MAX } from "./machine";
import { STAY_SERVICES } from "~/features/profiles";

const day = z
  .string("bookings:errors.dateRequired")
  .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "bookings:errors.dateRequired"));
const time = z
  .string("bookings:errors.timeRequired")
  .check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "bookings:errors.timeRequired"));

const petIds = z
  .array(z.string().check(maxLength(64, "bookings:errors.petNotFound")), "bookings:errors.petRequired")
  .check(
    z.minLength(1, "bookings:errors.petRequired"),
    z.maxLength(MAX_PETS, "bookings:errors.tooManyPets"),
    z.refine((ids) => new Set(ids).size === ids.length, "bookings:errors.samePetTwice"),
  );

const cancellationPolicy = z.optional(
  z.enum(["flexible", "moderate", "strict"] satisfies CancellationPolicy[], "bookings:errors.policyChanged"),
);

/** The price is never taken from the form: the server computes it from the sitter's rate. */
export const requestSchema = z.object({
  id: uuid("bookings:errors.stale"),
  sitterId: z.string().check(minLength(1), maxLength(64)),
  petIds,
  day,
  startTime: time,
  hours: z.coerce
    .number<number>("bookings:errors.hoursRange")
    .check(
      z.refine(Number.isInteger, "bookings:errors.hoursRange"),
      z.gte(MIN_HOURS, "bookings:errors.hoursRange"),
      z.lte(MAX_HOURS, "bookings:errors.hoursRange"),
    ),
  notes: optionalText(500),
  /** The policy the page showed: the request is refused if the sitter has changed it since. */
  cancellationPolicy,
});

/**
 * "Every week" on a walk's or a day care's request: the ticked weekdays (1 Monday to 7 Sunday) from the first
 * date, until the date `until` or, without one, until ended.
 */
const weekly = {
  repeat: z._default(z.enum(["once", "weekly"]), "once"),
  weekdays: z.optional(
    z
      .array(z.coerce.number<number>().check(z.refine(Number.isInteger), z.gte(1), z.lte(7)), "series:errors.noWeekday")
      .check(z.maxLength(7, "series:errors.noWeekday")),
  ),
  until: z.optional(day),
};

/**
 * A walk or a drop-in visit: one, of the sitter's length, at a start time of a day; or, with `repeat` weekly, the
 * same every week on the ticked weekdays (1 Monday to 7 Sunday) from that day, until a last date or until ended.
 */
export const walkRequestSchema = z.object({
  id: uuid("bookings:errors.stale"),
  sitterId: z.string().check(minLength(1), maxLength(64)),
  service: z.enum(["walk", "drop_in"], "bookings:stay.errors.serviceRequired"),
  petIds,
  day,
  startTime: time,
  notes: optionalText(500),
  cancellationPolicy,
  ...weekly,
});

/** A stay: house sitting, boarding or day care from a first day's drop-off to a last day's pick-up. */
export const stayRequestSchema = z.object({
  id: uuid("bookings:errors.stale"),
  sitterId: z.string().check(minLength(1), maxLength(64)),
  service: z.enum(STAY_SERVICES, "bookings:stay.errors.serviceRequired"),
  petIds,
  firstDay: day,
  dropOff: time,
  lastDay: day,
  pickUp: time,
  notes: optionalText(500),
  cancellationPolicy,
  ...weekly,
});

export const cardSchema = z.object({
  attempt: uuid("bookings:errors.stale"),
  name: z
    .string("bookings:payment.errors.nameRequired")
    .check(z.trim(), minLength(1, "bookings:payment.errors.nameRequired"), maxLength(100, "validation.tooLong")),
  number: z.pipe(
    z.pipe(
      z.string("bookings:payment.errors.incorrect_number"),
      z.transform((value: string) => value.replace(/[\s-]/g, "")),
    ),
    z.string().check(z.regex(/^\d{12,19}$/, "bookings:payment.errors.incorrect_number")),
  ),
  expiry: z
    .string("bookings:payment.errors.expiryInvalid")
    .check(z.trim(), z.regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, "bookings:payment.errors.expiryInvalid")),
  cvc: z
    .string("bookings:payment.errors.incorrect_cvc")
    .check(z.trim(), z.regex(/^\d{3,4}$/, "bookings:payment.errors.incorrect_cvc")),
});

/** A saved card is named by our own id of it; whose it is, the server checks. */
export const savedCardSchema = z.object({
  cardId: z
    .string("bookings:payment.errors.savedCardRequired")
    .check(
      minLength(1, "bookings:payment.errors.savedCardRequired"),
      maxLength(64, "bookings:payment.errors.savedCardMissing"),
    ),
});

export function expiryParts(expiry: string): { expMonth: number; expYear: number } {
  const [month = "0", year = "0"] = expiry.split("/").map((part) => part.trim());
  return { expMonth: Number(month), expYear: year.length === 2 ? 2000 + Number(year) : Number(year) };
}

export const cancelSchema = z.object({
  reason: z
    .string("bookings:errors.reasonRequired")
    .check(
      z.trim(),
      minLength(1, "bookings:errors.reasonRequired"),
      maxLength(CANCEL_REASON_MAX, "validation.tooLong"),
    ),
});

export const reviewSchema = z.object({
  rating: z.coerce
    .number<number>("bookings:errors.ratingRequired")
    .check(
      z.refine(Number.isInteger, "bookings:errors.ratingRequired"),
      z.gte(1, "bookings:errors.ratingRequired"),
      z.lte(5, "bookings:errors.ratingRequired"),
    ),
  comment: optionalText(REVIEW_COMMENT_MAX),
});
