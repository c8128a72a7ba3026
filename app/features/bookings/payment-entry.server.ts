import { now } from "~/platform/clock.server";
import { serialized } from "~/platform/lock.server";
import { paymentProvider, payerCustomer, storedCustomer, usableCardOf } from "~/features/payments/index.server";
import type { CardInput, PaymentFailureCode, PaymentProvider, PaymentResult } from "~/features/payments";
import { decide, isAuthorised, type Refusal } from "./machine";
import { findBooking, transition } from "./bookings.server";
import { logger } from "~/platform/log.server";

export type PaymentOutcome =
  | { status: "held" }
  | { status: "card-saved" }
  | { status: "failed"; code: PaymentFailureCode }
  | { status: "refused"; refusal: Refusal | "notFound" | "slotTaken" | "cardNotFound" };

export async function payForBooking(
  owner: { id: string; email: string },
  bookingId: string,
  card: CardInput,
  attempt: string,
): Promise<PaymentOutcome> {
  // One payment per booking at a time: a double-clicked Pay gets the first click's outcome.
  return serialized(`pay:${bookingId}`, async () => {
    const booking = await findBooking(bookingId);
    if (!booking || booking.owner_id !== owner.id) return { status: "refused", refusal: "notFound" };
    if (booking.status === "requested" && isAuthorised(booking))
      return { status: booking.payment_status === "held" ? "held" : "card-saved" };
    const precheck = decide(
      booking,
      { kind: "owner", userId: owner.id },
      { type: "card-saved", cardRef: "", cardLabel: "" },
      now(),
    );
    if (!precheck.ok) return { status: "refused", refusal: precheck.refusal };

    const customerRef = await storedCustomer(owner.id);
    const saved = await providerCall("save a card", () =>
      paymentProvider(booking.payment_provider).saveCard({
        card,
        email: owner.email,
        customerRef,
        purpose: { kind: "booking", userId: owner.id, bookingId: booking.id },
        idempotencyKey: `${booking.id}:card:${attempt}`,
      }),
    );
    if (!saved.ok && saved.code === "foreign_card") return { status: "failed", code: saved.code };
    if (!saved.ok) {
      await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "card-failed", error: saved.code });
      return { status: "failed", code: saved.code };
    }
    return cardChosen(booking.id, owner.id, { cardRef: saved.cardRef, label: saved.label });
  });
}

/**
 * A card the payer saved earlier (for a subscription or on its own) pays like a new one: the same
 * machine event, so the hold, the sitter's notice and every rule are the same. Only the payer's own
 * cards of the booking's provider count; any other id changes nothing.
 */
export async function payWithSavedCard(
  owner: { id: string },
  bookingId: string,
  methodId: string,
): Promise<PaymentOutcome> {
  return serialized(`pay:${bookingId}`, async () => {
    const booking = await findBooking(bookingId);
    if (!booking || booking.owner_id !== owner.id) return { status: "refused", refusal: "notFound" };
    if (booking.status === "requested" && isAuthorised(booking))
      return { status: booking.payment_status === "held" ? "held" : "card-saved" };
    const card = await usableCardOf(owner.id, methodId, booking.payment_provider);
    if (!card) return { status: "refused", refusal: "cardNotFound" };
    return cardChosen(booking.id, owner.id, card);
  });
}

async function cardChosen(
  bookingId: string,
  ownerId: string,
  card: { cardRef: string; label: string },
): Promise<PaymentOutcome> {
  const result = await transition(
    bookingId,
    { kind: "owner", userId: ownerId },
    { type: "card-saved", cardRef: card.cardRef, cardLabel: card.label },
  );
  if (!result.ok) return { status: "refused", refusal: result.refusal };
  const after = result.booking;
  if (after.payment_status === "held") return { status: "held" };
  if (after.payment_status === "failed")
    return { status: "failed", code: (after.payment_error as PaymentFailureCode | null) ?? "processing_error" };
  if (after.payment_task === "hold") return { status: "failed", code: "processing_error" };
  return { status: "card-saved" };
}

export type CardEntryOutcome =
  | { status: "ready"; clientSecret: string }
  | { status: "failed"; code: PaymentFailureCode }
  | { status: "refused"; refusal: Refusal | "notFound" };

export async function startCardEntry(
  owner: { id: string; email: string; name: string },
  bookingId: string,
  attempt: string,
): Promise<CardEntryOutcome> {
  const booking = await findBooking(bookingId);
  if (!booking || booking.owner_id !== owner.id) return { status: "refused", refusal: "notFound" };
  const precheck = decide(
    booking,
    { kind: "owner", userId: owner.id },
    { type: "card-saved", cardRef: "", cardLabel: "" },
    now(),
  );
  if (!precheck.ok) return { status: "refused", refusal: precheck.refusal };
  let provider: PaymentProvider;
  try {
    provider = paymentProvider(booking.payment_provider);
  } catch (error) {
    logger.error(
      { event: "payment.provider-unavailable", bookingId: booking.id, err: error },
      "The payment provider of a booking is not available",
    );
    return { status: "failed", code: "processing_error" };
  }
  const startEntry = provider.startCardEntry?.bind(provider);
  if (!startEntry) return { status: "refused", refusal: "wrongState" };
  const customer = await providerCall("make the payer's customer", () => payerCustomer(provider, owner));
  if (!customer.ok) return { status: "failed", code: customer.code };
  const started = await providerCall("start a card entry", () =>
    startEntry({
      customerRef: customer.customerRef,
      purpose: { kind: "booking", userId: owner.id, bookingId: booking.id },
      idempotencyKey: `${booking.id}:entry:${attempt}`,
    }),
  );
  if (!started.ok) return { status: "failed", code: started.code };
  return { status: "ready", clientSecret: started.clientSecret };
}

/** A provider that throws is an outage like a timeout: try again, never an error page. */
async function providerCall<T extends object>(
  what: string,
  call: () => Promise<PaymentResult<T>>,
): Promise<PaymentResult<T>> {
  try {
    return await call();
  } catch (error) {
    logger.error({ event: "payment.provider-failed", what, err: error }, "The payment provider failed");
    return { ok: false, code: "processing_error" };
  }
}
