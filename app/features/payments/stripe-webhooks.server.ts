import Stripe from "stripe";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { nowIso } from "~/platform/clock.server";
import { serialized } from "~/platform/lock.server";
import { findBooking, transition } from "~/features/bookings/bookings.server";
import type { BookingEvent } from "~/features/bookings/machine";
import { reconcileProcessorSubscription } from "~/features/subscriptions/subscriptions.server";
import { failureCodeOf } from "./stripe-provider.server";

/**
 * Stripe's webhook events. Each is checked against its signature on the raw body, stored by its
 * id, and processed once: a replay finds the stored row and changes nothing. Events may arrive in
 * any order and more than once; the booking rules (machine.ts) refuse whatever no longer applies,
 * so an event that comes late is a no-op. A failure while processing leaves the row unprocessed
 * and answers 500, so Stripe delivers it again.
 */

export type WebhookAnswer = { status: 200 | 400 | 500; message: string };

/** What processing one event did, kept on its row. */
type Outcome = "applied" | `ignored${string}` | "unhandled";

type Handler = (event: Stripe.Event) => Promise<Outcome>;

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));

/** The booking a PaymentIntent was made for (we put its id in the metadata), if it is paid with Stripe. */
async function bookingOfIntent(intent: Stripe.PaymentIntent) {
  const bookingId = intent.metadata?.booking_id;
  const booking = bookingId ? await findBooking(bookingId) : undefined;
  return booking?.payment_provider === "stripe" ? booking : undefined;
}

/** The booking whose hold a charge or dispute belongs to. */
async function bookingOfHold(paymentIntent: string | null) {
  if (!paymentIntent) return undefined;
  return db.selectFrom("bookings").selectAll().where("hold_ref", "=", paymentIntent).where("payment_provider", "=", "stripe").executeTakeFirst();
}

/** Whether the PaymentIntent was made with the card the booking holds now (an older attempt's events change nothing). */
const sameCard = (cardRef: string | null, intent: Stripe.PaymentIntent) => cardRef !== null && cardRef.endsWith(`:${idOf(intent.payment_method) ?? "-"}`);

async function apply(bookingId: string, event: BookingEvent): Promise<Outcome> {
  const result = await transition(bookingId, { kind: "system" }, event);
  return result.ok ? "applied" : `ignored: ${result.refusal}`;
}

/** The subscription an invoice bills, if it bills one. */
function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const fromParent = invoice.parent?.subscription_details?.subscription;
  // Older API versions put it on the invoice itself.
  return idOf(fromParent ?? (invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

/**
 * A premium subscription changed at Stripe (made, renewed, failed, cancelled, ended). The event's
 * copy may be older than another event already handled, so the subscription is read from Stripe
 * as it is now and ours is moved to that (subscriptions.server.ts, through machine.ts).
 */
const reconcileSubscription: Handler = async (event) => {
  const object = event.data.object as Stripe.Subscription | Stripe.Invoice;
  const ref = object.object === "subscription" ? object.id : subscriptionOfInvoice(object);
  if (!ref) return "ignored: not a subscription's invoice";
  return reconcileProcessorSubscription("stripe", ref);
};

/** What each event type does, each a function of the event. */
export const webhookHandlers: Partial<Record<Stripe.Event.Type, Handler>> = {
  // The hold is in place (our own call may have timed out before it could say so).
  "payment_intent.amount_capturable_updated": async (event) => {
    const intent = event.data.object as Stripe.PaymentIntent;
    const booking = await bookingOfIntent(intent);
    if (!booking || intent.status !== "requires_capture" || !sameCard(booking.card_ref, intent)) return "ignored: not this booking's hold";
    return apply(booking.id, { type: "hold-placed", holdRef: intent.id });
  },
  "payment_intent.payment_failed": async (event) => {
    const intent = event.data.object as Stripe.PaymentIntent;
    const booking = await bookingOfIntent(intent);
    if (!booking || !sameCard(booking.card_ref, intent)) return "ignored: not this booking's hold";
    return apply(booking.id, { type: "hold-failed", error: failureCodeOf(intent.last_payment_error?.code, intent.last_payment_error?.decline_code) });
  },
  // Captured: the sitter's money is on its way.
  "payment_intent.succeeded": async (event) => {
    const intent = event.data.object as Stripe.PaymentIntent;
    const booking = await bookingOfIntent(intent);
    if (!booking || booking.hold_ref !== intent.id) return "ignored: not this booking's hold";
    return apply(booking.id, { type: "captured" });
  },
  // Voided by us, or lapsed at Stripe after about 7 days.
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
    // The operator answers disputes in Stripe's dashboard; the log tells them which booking it is.
    console.warn(`Stripe dispute ${dispute.id} (${dispute.reason}) on booking ${booking.id}: ${dispute.amount} ${dispute.currency}`);
    return apply(booking.id, { type: "disputed" });
  },
  "customer.subscription.created": reconcileSubscription,
  "customer.subscription.updated": reconcileSubscription,
  "customer.subscription.deleted": reconcileSubscription,
  "invoice.paid": reconcileSubscription,
  "invoice.payment_succeeded": reconcileSubscription,
  "invoice.payment_failed": reconcileSubscription,
  "invoice.payment_action_required": reconcileSubscription,
  // Connect onboarding: the sitter can be booked once Stripe lets their account receive payouts.
  "account.updated": async (event) => {
    const account = event.data.object as Stripe.Account;
    const ready = Boolean(account.details_submitted && account.payouts_enabled);
    const updated = await db
      .updateTable("users")
      .set({ payouts_enabled: ready ? 1 : 0, updated_at: nowIso() })
      .where("stripe_account_id", "=", account.id)
      .where("payouts_enabled", "=", ready ? 0 : 1)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0 ? "applied" : "ignored: unchanged";
  },
};

/** Checks, stores and processes one delivery of Stripe's webhook. `rawBody` is the request body exactly as received. */
export async function receiveStripeWebhook(
  rawBody: string,
  signature: string | null,
  options: { secret?: string; toleranceSeconds?: number; handlers?: typeof webhookHandlers } = {},
): Promise<WebhookAnswer> {
  const secret = options.secret ?? env.STRIPE_WEBHOOK_SECRET;
  if (!secret) return { status: 400, message: "Stripe webhooks are not configured" };
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature ?? "", secret, options.toleranceSeconds);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return { status: 400, message: "Invalid signature" };
    return { status: 400, message: "Invalid payload" };
  }

  await db.insertInto("stripe_events").values({ id: event.id, type: event.type, payload: rawBody, received_at: nowIso() }).onConflict((oc) => oc.column("id").doNothing()).execute();
  // Deliveries of one event at the same moment wait for each other, so it is processed once.
  return serialized(`stripe-event:${event.id}`, async (): Promise<WebhookAnswer> => {
    const stored = await db.selectFrom("stripe_events").select("processed_at").where("id", "=", event.id).executeTakeFirstOrThrow();
    if (stored.processed_at) return { status: 200, message: "Already processed" };
    const handler = (options.handlers ?? webhookHandlers)[event.type];
    let outcome: Outcome;
    try {
      outcome = handler ? await handler(event) : "unhandled";
    } catch (error) {
      console.error(`Stripe event ${event.id} (${event.type}) failed`, error);
      return { status: 500, message: "Processing failed" };
    }
    await db.updateTable("stripe_events").set({ processed_at: nowIso(), outcome }).where("id", "=", event.id).execute();
    return { status: 200, message: outcome };
  });
}
