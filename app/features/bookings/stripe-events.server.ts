import type Stripe from "stripe";
import { db } from "~/platform/db.server";
import { failureCodeOf } from "~/features/payments";
import { idOf, type WebhookHandlers, type WebhookOutcome } from "~/features/payments/index.server";
import { findBooking, transition } from "./bookings.server";
import type { BookingEvent } from "./machine";
import { logger } from "~/platform/log.server";

/** Stripe's events about booking payments. The booking rules refuse whatever no longer applies, so an event that comes late is a no-op. */

async function bookingOfIntent(intent: Stripe.PaymentIntent) {
  const bookingId = intent.metadata?.booking_id;
  const booking = bookingId ? await findBooking(bookingId) : undefined;
  return booking?.payment_provider === "stripe" ? booking : undefined;
}

async function bookingOfHold(paymentIntent: string | null) {
  if (!paymentIntent) return undefined;
  return db
    .selectFrom("bookings")
    .selectAll()
    .where("hold_ref", "=", paymentIntent)
    .where("payment_provider", "=", "stripe")
    .executeTakeFirst();
}

const sameCard = (cardRef: string | null, intent: Stripe.PaymentIntent) =>
  cardRef !== null && cardRef.endsWith(`:${idOf(intent.payment_method) ?? "-"}`);

async function apply(bookingId: string, event: BookingEvent): Promise<WebhookOutcome> {
  const result = await transition(bookingId, { kind: "system" }, event);
  return result.ok ? "applied" : `ignored: ${result.refusal}`;
}

export const bookingStripeEvents: WebhookHandlers = {
  // The hold is in place (our own call may have timed out before it could say so).
  "payment_intent.amount_capturable_updated": async (event) => {
    const intent = event.data.object as Stripe.PaymentIntent;
    const booking = await bookingOfIntent(intent);
    if (!booking || intent.status !== "requires_capture" || !sameCard(booking.card_ref, intent))
      return "ignored: not this booking's hold";
    return apply(booking.id, { type: "hold-placed", holdRef: intent.id });
  },
  "payment_intent.payment_failed": async (event) => {
    const intent = event.data.object as Stripe.PaymentIntent;
    const booking = await bookingOfIntent(intent);
    if (!booking || !sameCard(booking.card_ref, intent)) return "ignored: not this booking's hold";
    return apply(booking.id, {
      type: "hold-failed",
      error: failureCodeOf(intent.last_payment_error?.code, intent.last_payment_error?.decline_code),
    });
  },
  "payment_intent.succeeded": async (event) => {
    const intent = event.data.object as Stripe.PaymentIntent;
    const booking = await bookingOfIntent(intent);
    // A stay's charge went through (our own call may have timed out before it could say so).
    if (booking?.payment_mode === "charge" && booking.payment_task === "hold" && sameCard(booking.card_ref, intent))
      return apply(booking.id, { type: "hold-placed", holdRef: intent.id });
    if (!booking || booking.payment_mode === "charge" || booking.hold_ref !== intent.id)
      return "ignored: not this booking's hold";
    return apply(booking.id, { type: "captured" });
  },
  "payment_intent.canceled": async (event) => {
    const intent = event.data.object as Stripe.PaymentIntent;
    const booking = await bookingOfIntent(intent);
    if (!booking) return "ignored: no booking";
    return apply(booking.id, { type: "hold-cancelled", holdRef: intent.id });
  },
  // A refund made in Stripe's dashboard. Only a full refund changes the booking; a partial one is kept on the event row.
  "charge.refunded": async (event) => {
    const charge = event.data.object as Stripe.Charge;
    const booking = await bookingOfHold(idOf(charge.payment_intent));
    if (!booking) return "ignored: no booking";
    if (!charge.refunded) return "ignored: partial refund";
    return apply(booking.id, { type: "refunded" });
  },
  "charge.dispute.created": async (event) => {
    const dispute = event.data.object as Stripe.Dispute;
    const booking = await bookingOfHold(idOf(dispute.payment_intent));
    if (!booking) return "ignored: no booking";
    logger.warn(
      {
        event: "stripe.dispute",
        dispute: dispute.id,
        reason: dispute.reason,
        bookingId: booking.id,
        amount: dispute.amount,
        currency: dispute.currency,
      },
      "Stripe dispute on a booking",
    );
    return apply(booking.id, { type: "disputed" });
  },
};
