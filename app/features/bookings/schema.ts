import { z } from "zod";
import { CANCEL_REASON_MAX, MAX_HOURS, MIN_HOURS, REVIEW_COMMENT_MAX } from "./machine";

const day = z.string({ required_error: "bookings:errors.dateRequired" }).regex(/^\d{4}-\d{2}-\d{2}$/, "bookings:errors.dateRequired");
const time = z.string({ required_error: "bookings:errors.timeRequired" }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, "bookings:errors.timeRequired");

/** The booking request form. The price is never taken from the form: the server computes it from the sitter's rate. */
export const requestSchema = z.object({
  id: z.string().uuid("bookings:errors.stale"),
  sitterId: z.string().min(1).max(64),
  petId: z.string({ required_error: "bookings:errors.petRequired" }).min(1, "bookings:errors.petRequired").max(64),
  day,
  startTime: time,
  hours: z.coerce
    .number({ invalid_type_error: "bookings:errors.hoursRange" })
    .int("bookings:errors.hoursRange")
    .min(MIN_HOURS, "bookings:errors.hoursRange")
    .max(MAX_HOURS, "bookings:errors.hoursRange"),
  notes: z.string().trim().max(500, "validation.tooLong").optional().default(""),
});

/** The offline provider's card form (Stripe's own field replaces it when Stripe is configured). */
export const cardSchema = z.object({
  attempt: z.string().uuid("bookings:errors.stale"),
  name: z.string({ required_error: "bookings:payment.errors.nameRequired" }).trim().min(1, "bookings:payment.errors.nameRequired").max(100, "validation.tooLong"),
  number: z
    .string({ required_error: "bookings:payment.errors.incorrect_number" })
    .transform((value) => value.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, "bookings:payment.errors.incorrect_number")),
  expiry: z
    .string({ required_error: "bookings:payment.errors.expiryInvalid" })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, "bookings:payment.errors.expiryInvalid"),
  cvc: z.string({ required_error: "bookings:payment.errors.incorrect_cvc" }).trim().regex(/^\d{3,4}$/, "bookings:payment.errors.incorrect_cvc"),
});

export function expiryParts(expiry: string): { expMonth: number; expYear: number } {
  const [month = "0", year = "0"] = expiry.split("/").map((part) => part.trim());
  return { expMonth: Number(month), expYear: year.length === 2 ? 2000 + Number(year) : Number(year) };
}

export const cancelSchema = z.object({
  reason: z
    .string({ required_error: "bookings:errors.reasonRequired" })
    .trim()
    .min(1, "bookings:errors.reasonRequired")
    .max(CANCEL_REASON_MAX, "validation.tooLong"),
});

export const reviewSchema = z.object({
  rating: z.coerce.number({ invalid_type_error: "bookings:errors.ratingRequired" }).int().min(1, "bookings:errors.ratingRequired").max(5, "bookings:errors.ratingRequired"),
  comment: z.string().trim().max(REVIEW_COMMENT_MAX, "validation.tooLong").optional().default(""),
});
