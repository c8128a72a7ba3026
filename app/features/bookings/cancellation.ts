import type { Booking } from "~db/schema";
import { POLICY_TERMS, type CancellationPolicy } from "~/features/profiles";

/*
 * What an owner's cancellation gives back, by the policy stored on the booking when it was requested.
 * Pure: the machine decides with it, and every page that shows a policy's dates and amounts reads them here.
 */

/** The part of the price (in percent) an owner who cancels at `at` gets back; no policy (older bookings): all of it. */
export function refundPercentAt(policy: CancellationPolicy | null, startAt: string, at: Date): number {
  if (policy === null) return 100;
  const terms = POLICY_TERMS[policy];
  const deadline = new Date(startAt).getTime() - terms.noticeMs;
  // Strictly before the deadline: "Cancel before Fri 12 Dec 10:00 for a full refund".
  return at.getTime() < deadline ? terms.refundPercent : terms.lateRefundPercent;
}

/** Of `totalCents`, what the sitter keeps when `refundPercent` goes back (the refund rounded to the cent). */
export function keptCentsOf(totalCents: number, refundPercent: number): number {
  return totalCents - Math.round((totalCents * refundPercent) / 100);
}

export interface PolicyTimeline {
  policy: CancellationPolicy;
  /** Cancelling strictly before this instant gets `refundCents` back; from it on, `lateRefundCents`. */
  deadline: string;
  refundPercent: number;
  refundCents: number;
  lateRefundPercent: number;
  lateRefundCents: number;
}

/** A booking's policy as dates and amounts: what a cancellation before and after its deadline gives back. */
export function policyTimeline(policy: CancellationPolicy, startAt: string, totalCents: number): PolicyTimeline {
  const terms = POLICY_TERMS[policy];
  return {
    policy,
    deadline: new Date(new Date(startAt).getTime() - terms.noticeMs).toISOString(),
    refundPercent: terms.refundPercent,
    refundCents: totalCents - keptCentsOf(totalCents, terms.refundPercent),
    lateRefundPercent: terms.lateRefundPercent,
    lateRefundCents: totalCents - keptCentsOf(totalCents, terms.lateRefundPercent),
  };
}

type CancelFacts = Pick<Booking, "status" | "start_at" | "total_cents"> & {
  cancellation_policy?: CancellationPolicy | null;
};

/**
 * What the sitter keeps if the owner cancels at `at`. The policy binds once the sitter has accepted a
 * paid request; a request not yet accepted (or never paid) is given back in full.
 */
export function keptOnOwnerCancel(booking: CancelFacts, authorised: boolean, at: Date): number {
  if (booking.status !== "confirmed" || !authorised) return 0;
  return keptCentsOf(booking.total_cents, refundPercentAt(booking.cancellation_policy ?? null, booking.start_at, at));
}
