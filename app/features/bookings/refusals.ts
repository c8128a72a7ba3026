import type { Refusal } from "./machine";

// The refusals of problems, settlements and refunds keep their words in the disputes namespace.
const DISPUTE_REFUSALS = new Set<string>([
  "alreadyReported",
  "alreadyReleased",
  "tooLate",
  "inDispute",
  "noOpenDispute",
  "amountInvalid",
  "amountTooHigh",
] satisfies Refusal[]);

/** The translation key of a refusal the machine (or applyEvent) gave. */
export const refusalKey = (refusal: Refusal | "slotTaken") =>
  DISPUTE_REFUSALS.has(refusal) ? `disputes:refusals.${refusal}` : `bookings:refusals.${refusal}`;
