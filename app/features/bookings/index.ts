export { BookingCard, bookingCardText, bookingSummaryText } from "./booking-card";
export { BOOKING_TABS, CANCEL_REASON_MAX, REVIEW_COMMENT_MAX, priceOf } from "./machine";
export type { AccountClosure, Actor, BookingEvent } from "./machine";
export { DurationChoice, FreeDays, PetChoice, PriceBreakdown, StartTimeChoice } from "./request-form-parts";
export { cancelSchema, cardSchema, expiryParts, requestSchema, reviewSchema } from "./schema";
