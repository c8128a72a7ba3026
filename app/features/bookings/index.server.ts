export { closeOpenBookingsIn, closeOpenBookingsOf, runPaymentTasks, transition } from "./bookings.server";
export { runDueBookingWork } from "./due-work.server";
export { payForBooking, startCardEntry } from "./payment-entry.server";
export type { PaymentOutcome } from "./payment-entry.server";
export { requestBooking, requestPage } from "./requests.server";
export { bookingStripeEvents } from "./stripe-events.server";
export { bookingView, earningsOf, leaveReview, listBookings, reviewsReceived } from "./views.server";
export type { BookingTab } from "./views.server";
