import type { Booking } from "~db/schema";

/** The platform's part: 20 % of what the sitter keeps, so the owner pays 120 % of the sitter's share. */
export const PLATFORM_FEE_RATE = 0.2;

/** What a booking's money is worked out from: its price and its payment and refund records. */
export type PaymentRecord = Pick<
  Booking,
  | "status"
  | "total_cents"
  | "payment_status"
  | "payment_task"
  | "capture_cents"
  | "refund_due_cents"
  | "refunded_cents"
  | "released_at"
>;

export interface BookingMoney {
  /**
   * How far the money has gone:
   * - `expected`: held or still to be held; the amounts are those of the booking as agreed;
   * - `settled`: taken in whole or part, or given back, as decided (`pending` until the provider confirms);
   * - `none`: nothing was taken and nothing will be (cancelled before a hold, or the card failed).
   */
  stage: "expected" | "settled" | "none";
  /** What the booking costs the owner: the sitter's price with the fee on top (what is held). */
  priceCents: number;
  /** What the owner pays in the end: the price less every refund decided so far. */
  paidCents: number;
  /** What goes back to the owner: refunds and any part of the hold not taken. */
  refundedCents: number;
  /** Of `paidCents`, what the sitter keeps. */
  sitterKeepsCents: number;
  /** Of `paidCents`, the platform fee: 20 % of what the sitter keeps (`sitterKeepsCents + platformFeeCents = paidCents`). */
  platformFeeCents: number;
  /** A hold, capture, void or refund is decided and the payment provider has not confirmed it yet. */
  pending: boolean;
}

/**
 * The one place a booking's money is worked out: every page, email, notification, export and the
 * capture itself read it from here, so that they never disagree. Any amount may be refunded in
 * any number of parts (settlements, refunds, cancellation policies); the split follows what is paid.
 */
export function bookingMoney(record: PaymentRecord): BookingMoney {
  const price = record.total_cents;
  const pending = record.payment_task !== null || record.refund_due_cents !== null;
  const outcome = (stage: BookingMoney["stage"], paidCents: number): BookingMoney => {
    const paid = Math.min(price, Math.max(0, paidCents));
    const sitterKeepsCents = Math.round(paid / (1 + PLATFORM_FEE_RATE));
    return {
      stage,
      priceCents: price,
      paidCents: paid,
      refundedCents: stage === "none" ? 0 : price - paid,
      sitterKeepsCents,
      platformFeeCents: paid - sitterKeepsCents,
      pending,
    };
  };
  switch (record.payment_status) {
    case "released":
      // Refunds made, and one decided that the provider has not confirmed yet.
      return outcome("settled", price - record.refunded_cents - (record.refund_due_cents ?? 0));
    case "refunded":
      // All of it went back: a released payment refunded in full, or a hold given back.
      return outcome("settled", 0);
    case "held":
      if (record.payment_task === "void") return outcome("settled", 0);
      // A settlement takes part of the hold and gives the rest back.
      if (record.payment_task === "capture" && record.capture_cents !== null)
        return outcome("settled", record.capture_cents);
      return outcome("expected", price);
    case "unpaid":
      // An owner's cancellation left the sitter part of a card kept for a later hold: held now, then taken.
      if (record.status === "cancelled" && record.capture_cents !== null)
        return outcome("settled", record.capture_cents);
      return record.status === "cancelled" ? outcome("none", 0) : outcome("expected", price);
    case "failed":
      return outcome("none", 0);
  }
}

/** Part of the payment went back and the rest was (or is being) taken; a full refund shows as the payment's status instead. */
export const partlyRefunded = (money: BookingMoney) =>
  money.stage === "settled" && money.refundedCents > 0 && money.paidCents > 0;
