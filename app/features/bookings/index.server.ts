export {
  applyEvent,
  closeOpenBookingsIn,
  closeOpenBookingsOf,
  findBooking,
  hasPaymentWork,
  runPaymentTasks,
  transition,
} from "./bookings.server";
export type { TransitionResult } from "./bookings.server";
export { bookedPetNames, ownersPets } from "./booked-pets.server";
export { makeOccurrence } from "./occurrences.server";
export type { OccurrenceInput } from "./occurrences.server";
export { runDueBookingWork } from "./due-work.server";
export { payForBooking, payWithSavedCard, startCardEntry } from "./payment-entry.server";
export type { PaymentOutcome } from "./payment-entry.server";
export { requestBooking, requestPage, requestRefusalReply } from "./requests.server";
export { requestStay, stayPage, stayRefusalReply } from "./stays.server";
export { SHARED_STAYS, sharesDays, stayFits } from "./stay-capacity.server";
export { walkPage } from "./walks.server";
export { firstBookingPath, prefilledPets } from "./book-again.server";
export { reliabilitySection, sitterReliability } from "./reliability.server";
export type { ReliabilityText } from "./reliability.server";
export { bookingStripeEvents } from "./stripe-events.server";
export { bookingView, earningsOf, leaveReview, listBookings, reviewsReceived } from "./views.server";
export type { BookingTab } from "./views.server";
export { AUTO_RELEASE_AFTER_MS, DELAYED_HOLD_BEFORE_MS, HOLD_NOW_WITHIN_MS, UNPAID_REQUEST_TTL_MS } from "./machine";
export { PLATFORM_FEE_RATE } from "./money";
export { bookingsSection } from "./personal-data.server";
