export { BookingCard, PaymentSummary, bookingCardText, bookingSummaryText } from "./booking-card";
export {
  BOOKING_TABS,
  CANCEL_REASON_MAX,
  MAX_TASK_ATTEMPTS,
  PROBLEM_WINDOW_MS,
  REVIEW_COMMENT_MAX,
  decide,
  priceOf,
} from "./machine";
export { bookingMoney, partlyRefunded, PLATFORM_FEE_RATE } from "./money";
export type { BookingMoney, PaymentRecord } from "./money";
export type { AccountClosure, Actor, BookingEvent, Refusal, Settlement } from "./machine";
export {
  CancelOutcome,
  CancellationTerms,
  RequestPolicy,
  cancelOutcomeText,
  termsText,
  type CancelOutcomeText,
} from "./cancellation-terms";
export { keptCentsOf, policyTimeline, refundPercentAt } from "./cancellation";
export {
  BookAgainNote,
  DurationChoice,
  FreeDays,
  PetChoice,
  PriceBreakdown,
  StartTimeChoice,
  DayField,
  TimeField,
  ServiceChoice,
} from "./request-form-parts";
export {
  cancelSchema,
  cardSchema,
  expiryParts,
  requestSchema,
  reviewSchema,
  savedCardSchema,
  stayRequestSchema,
  walkRequestSchema,
} from "./schema";
export { refusalKey } from "./refusals";
export { SitterReliability } from "./reliability";

// The forms' schemas, for validation in the browser once a form is in use.
export const loadBookingSchemas = () => import("./schema");
