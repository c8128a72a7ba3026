import type { Booking } from "~db/schema";
import { db } from "~/platform/db.server";
import { paymentProvider } from "~/features/payments/index.server";
import type { BookingEvent } from "./machine";
import { bookingMoney } from "./money";
import { logger } from "~/platform/log.server";

export async function providerAnswer(booking: Booking): Promise<BookingEvent> {
  const task = booking.payment_task ?? "refund";
  try {
    return (await ask(booking)) ?? { type: "task-failed", task, error: "processing_error" };
  } catch (error) {
    // A provider that throws (misconfigured, or a bug) must not stop the scheduler's round or fail
    // the request whose change is already saved: the task waits for the next round like any outage.
    logger.error({ event: "payment.task-failed", task, bookingId: booking.id, err: error }, "Payment task failed");
    return { type: "task-failed", task, error: "processing_error" };
  }
}

async function ask(booking: Booking): Promise<BookingEvent | null> {
  const provider = paymentProvider(booking.payment_provider);
  const task = booking.payment_task;
  if (task === null && booking.refund_due_cents !== null && booking.hold_ref) {
    // Keyed by the amount already refunded too, so a second refund of the same amount is a new one.
    const refunded = await provider.refund({
      holdRef: booking.hold_ref,
      amountCents: booking.refund_due_cents,
      idempotencyKey: `${booking.id}:refund:${booking.refunded_cents}:${booking.refund_due_cents}`,
    });
    return refunded.ok ? { type: "refund-done" } : { type: "task-failed", task: "refund", error: refunded.code };
  }
  if (task === "hold" && booking.card_ref) {
    const payee = await db
      .selectFrom("users")
      .select("stripe_account_id")
      .where("id", "=", booking.sitter_id)
      .executeTakeFirst();
    const held = await provider.hold({
      cardRef: booking.card_ref,
      amountCents: booking.total_cents,
      feeCents: booking.fee_cents,
      payeeRef: payee?.stripe_account_id ?? null,
      offSession: booking.hold_due_at !== null,
      description: `Booking ${booking.id}`,
      reference: booking.id,
      idempotencyKey: `${booking.id}:hold:${booking.card_ref}`,
    });
    if (held.ok) return { type: "hold-placed", holdRef: held.holdRef };
    if (held.code === "processing_error") return { type: "task-failed", task, error: held.code };
    return { type: "hold-failed", error: held.code };
  }
  if (task === "capture" && booking.hold_ref) {
    // The whole hold, or the part a settlement takes, with the fee of what the sitter keeps of it.
    const { paidCents: amountCents, platformFeeCents } = bookingMoney(booking);
    // Only a hold paid to a connected sitter carries a fee, set on the hold: a partial capture replaces it.
    const payee =
      amountCents === booking.total_cents
        ? null
        : await db
            .selectFrom("users")
            .select("stripe_account_id")
            .where("id", "=", booking.sitter_id)
            .executeTakeFirst();
    const captured = await provider.capture({
      holdRef: booking.hold_ref,
      amountCents,
      ...(payee?.stripe_account_id ? { feeCents: platformFeeCents } : {}),
      idempotencyKey: `${booking.id}:capture:${booking.hold_ref}`,
    });
    return captured.ok ? { type: "captured" } : { type: "task-failed", task, error: captured.code };
  }
  if (task === "void" && booking.hold_ref) {
    const voided = await provider.voidHold({
      holdRef: booking.hold_ref,
      idempotencyKey: `${booking.id}:void:${booking.hold_ref}`,
    });
    return voided.ok ? { type: "voided" } : { type: "task-failed", task, error: voided.code };
  }
  return null;
}
