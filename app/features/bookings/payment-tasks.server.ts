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
  if (booking.payment_mode === "charge") return askForCharge(booking);
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

const payeeOf = async (sitterId: string) =>
  (await db.selectFrom("users").select("stripe_account_id").where("id", "=", sitterId).executeTakeFirst())
    ?.stripe_account_id ?? null;

/**
 * A stay paid by a charge: the same tasks as a hold, done with a charge, a payout and refunds.
 * - hold: charge the card (the whole price, or only the part an owner's cancellation left the sitter);
 * - capture: pay the sitter their part of what is kept, and refund from the charge what is not kept;
 * - void: refund the whole charge;
 * - a refund after release: take the sitter's part of it back from the payout, then refund the owner.
 * Every call is keyed, so a retry after a crash or a timeout repeats nothing.
 */
async function askForCharge(booking: Booking): Promise<BookingEvent | null> {
  const provider = paymentProvider(booking.payment_provider);
  const task = booking.payment_task;
  const chargeRef = booking.hold_ref;
  if (task === null && booking.refund_due_cents !== null && chargeRef) {
    const key = `${booking.id}:refund:${booking.refunded_cents}:${booking.refund_due_cents}`;
    if (booking.payout_ref) {
      const before = bookingMoney({ ...booking, refund_due_cents: null }).sitterKeepsCents;
      const taken = before - bookingMoney(booking).sitterKeepsCents;
      if (taken > 0) {
        const reversed = await provider.reversePayout({
          payoutRef: booking.payout_ref,
          amountCents: taken,
          idempotencyKey: `${key}:reversal`,
        });
        if (!reversed.ok) return { type: "task-failed", task: "refund", error: reversed.code };
      }
    }
    const refunded = await provider.refund({
      holdRef: chargeRef,
      amountCents: booking.refund_due_cents,
      platformCharge: true,
      idempotencyKey: key,
    });
    return refunded.ok ? { type: "refund-done" } : { type: "task-failed", task: "refund", error: refunded.code };
  }
  if (task === "hold" && booking.card_ref) {
    const charged = await provider.charge({
      cardRef: booking.card_ref,
      amountCents: chargedCents(booking),
      description: `Booking ${booking.id}`,
      reference: booking.id,
      idempotencyKey: `${booking.id}:charge:${booking.card_ref}`,
    });
    if (charged.ok) return { type: "hold-placed", holdRef: charged.chargeRef };
    if (charged.code === "processing_error") return { type: "task-failed", task, error: charged.code };
    return { type: "hold-failed", error: charged.code };
  }
  if (task === "capture" && chargeRef) {
    const money = bookingMoney(booking);
    let payoutRef: string | undefined;
    if (money.sitterKeepsCents > 0) {
      const paid = await provider.payOut({
        chargeRef,
        payeeRef: (await payeeOf(booking.sitter_id)) ?? booking.sitter_id,
        amountCents: money.sitterKeepsCents,
        reference: booking.id,
        idempotencyKey: `${booking.id}:payout:${chargeRef}`,
      });
      if (!paid.ok) return { type: "task-failed", task, error: paid.code };
      payoutRef = paid.payoutRef;
    }
    const rest = chargedCents(booking) - money.paidCents;
    if (rest > 0) {
      const refunded = await provider.refund({
        holdRef: chargeRef,
        amountCents: rest,
        platformCharge: true,
        idempotencyKey: `${booking.id}:capture-refund:${chargeRef}`,
      });
      if (!refunded.ok) return { type: "task-failed", task, error: refunded.code };
    }
    return { type: "captured", ...(payoutRef ? { payoutRef } : {}) };
  }
  if (task === "void" && chargeRef) {
    const refunded = await provider.refund({
      holdRef: chargeRef,
      amountCents: chargedCents(booking),
      platformCharge: true,
      idempotencyKey: `${booking.id}:void:${chargeRef}`,
    });
    return refunded.ok ? { type: "voided" } : { type: "task-failed", task, error: refunded.code };
  }
  return null;
}

/**
 * What the card is (or was) charged: a stay is charged at its start, when it can no longer be cancelled by
 * its owner, so a cancelled booking with a part kept for the sitter was charged only that part.
 */
function chargedCents(booking: Booking): number {
  return booking.status === "cancelled" && booking.capture_cents !== null ? booking.capture_cents : booking.total_cents;
}
