import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { CancellationPolicy } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { getPublicProfile, updateSitterDetails } from "~/features/profiles/index.server";
import { sitterDetailsSchema } from "~/features/profiles";
import { clockTo, DAY, HOUR, MINUTE, resetClockAfterEach } from "~/testing/clock";
import {
  bookingRow,
  card,
  ownerWithPet,
  paymentRow,
  requestInput,
  requested,
  sitterWithSlot,
  type Owner,
} from "~/testing/bookings";
import { emailsTo, person } from "~/testing/people";
import { transition } from "./bookings.server";
import { requestBooking } from "./requests.server";
import { payForBooking } from "./payment-entry.server";
import { runDueBookingWork } from "./due-work.server";
import { keptCentsOf, policyTimeline, refundPercentAt } from "./cancellation";
import { bookingMoney } from "./money";
import { requestSchema } from "./schema";
import { ownerCancelPreview } from "./views.server";

resetClockAfterEach();

const START = "2026-12-12T10:00:00.000Z";
const before = (ms: number) => new Date(new Date(START).getTime() - ms);

describe("each policy at its deadline (pure)", () => {
  const edges: [CancellationPolicy, number, number, number][] = [
    // policy, notice, refund strictly before the deadline, refund from the deadline on
    ["flexible", DAY, 100, 0],
    ["moderate", 3 * DAY, 100, 50],
    ["strict", 7 * DAY, 50, 0],
  ];
  for (const [policy, notice, early, late] of edges)
    it(`${policy}: ${early} % back until ${notice / HOUR} h before the start, ${late} % from then on`, () => {
      expect(refundPercentAt(policy, START, before(notice + MINUTE))).toBe(early);
      expect(refundPercentAt(policy, START, before(notice))).toBe(late);
      expect(refundPercentAt(policy, START, before(notice - MINUTE))).toBe(late);
      expect(refundPercentAt(policy, START, before(30 * DAY))).toBe(early);
      expect(policyTimeline(policy, START, 3600)).toEqual({
        policy,
        deadline: before(notice).toISOString(),
        refundPercent: early,
        refundCents: (3600 * early) / 100,
        lateRefundPercent: late,
        lateRefundCents: (3600 * late) / 100,
      });
    });

  it("a booking older than policies is refunded in full, however late", () => {
    expect(refundPercentAt(null, START, before(MINUTE))).toBe(100);
  });

  it("half of an odd amount: the refund is rounded to the cent and the sitter keeps the rest", () => {
    expect(keptCentsOf(3689, 50)).toBe(1844);
    expect(keptCentsOf(3689, 100)).toBe(0);
    expect(keptCentsOf(3689, 0)).toBe(3689);
  });
});

const asOwner = (who: { id: string }) => ({ kind: "owner" as const, userId: who.id });
const asSitter = (who: { id: string }) => ({ kind: "sitter" as const, userId: who.id });

async function choosePolicy(sitter: { id: string; role: "sitter" }, policy: CancellationPolicy) {
  const details = sitterDetailsSchema.parse({ hourlyRate: "15", caresFor: ["dog"], cancellationPolicy: policy });
  expect(await updateSitterDetails(sitter, details)).toBe(true);
}

/** A confirmed 2 h booking at 15 €/h (36 € with the fee) `daysAhead` days ahead, paid by card, on `policy`. */
async function confirmed(policy: CancellationPolicy, daysAhead: number) {
  const sitter = await sitterWithSlot({ daysAhead });
  await choosePolicy({ id: sitter.id, role: "sitter" }, policy);
  const owner = await ownerWithPet();
  const booking = await requested(owner, sitter);
  const paid = await payForBooking(owner, booking.id, card(), randomUUID());
  expect(paid.status).toBe(daysAhead <= 5 ? "held" : "card-saved");
  expect((await transition(booking.id, asSitter(sitter), { type: "accept" })).ok).toBe(true);
  return { sitter, owner, booking: await bookingRow(booking.id) };
}

/** The owner cancels `msBefore` the start; returns the booking once the provider has answered. */
async function cancelBefore(owner: Owner, booking: { id: string; start_at: string }, msBefore: number) {
  clockTo(booking.start_at, -msBefore);
  const preview = ownerCancelPreview(await bookingRow(booking.id), now());
  const result = await transition(booking.id, asOwner(owner), { type: "cancel", reason: "Plans changed" });
  expect(result.ok).toBe(true);
  const row = await bookingRow(booking.id);
  // What the cancel page announced is what happened.
  expect({ ...bookingMoney(row), pending: false }).toEqual({ ...preview, pending: false });
  return row;
}

describe("an owner's cancellation on a held card (the booking within six days)", () => {
  const cases: [CancellationPolicy, number, number][] = [
    ["flexible", DAY + MINUTE, 0],
    ["flexible", DAY, 3600],
    ["flexible", DAY - MINUTE, 3600],
    ["moderate", 3 * DAY + MINUTE, 0],
    ["moderate", 3 * DAY, 1800],
    ["moderate", 3 * DAY - MINUTE, 1800],
    ["strict", 2 * DAY, 3600],
  ];
  for (const [policy, msBefore, kept] of cases)
    it(`${policy}, ${msBefore / MINUTE} minutes before the start: the sitter keeps ${kept / 100} €`, async () => {
      const { sitter, owner, booking } = await confirmed(policy, 5);
      expect(booking.cancellation_policy).toBe(policy);
      const row = await cancelBefore(owner, booking, msBefore);
      const payment = await paymentRow(row.hold_ref);
      if (kept === 0) {
        expect(row).toMatchObject({ status: "cancelled", payment_status: "refunded", capture_cents: null });
        expect(payment).toMatchObject({ status: "voided" });
        expect(bookingMoney(row)).toMatchObject({ paidCents: 0, refundedCents: 3600, sitterKeepsCents: 0 });
        return;
      }
      // Keeping part of a hold is capturing that part; the rest of the hold is released.
      expect(row).toMatchObject({
        status: "cancelled",
        cancelled_by: "owner",
        payment_status: "released",
        payment_task: null,
        capture_cents: kept,
        refunded_cents: 3600 - kept,
      });
      expect(payment).toMatchObject({ status: "captured", amount_cents: kept });
      const money = bookingMoney(row);
      expect(money).toMatchObject({ stage: "settled", paidCents: kept, refundedCents: 3600 - kept, pending: false });
      // The platform fee is 20 % of what the sitter keeps.
      expect(money.sitterKeepsCents).toBe(kept === 1800 ? 1500 : 3000);
      expect(money.platformFeeCents).toBe(money.sitterKeepsCents * 0.2);
      // The sitter's email about the cancellation says what they keep.
      const cancelled = (await emailsTo(sitter.email)).find((email) => email.subject.includes("cancelled a booking"));
      expect(cancelled?.text_body).toContain(
        `You keep €${(money.sitterKeepsCents / 100).toFixed(2)} of the €${(kept / 100).toFixed(2)} paid`,
      );
    });
});

describe("an owner's cancellation on a card kept for a later hold (more than six days ahead)", () => {
  const cases: [CancellationPolicy, number, number][] = [
    ["strict", 7 * DAY + MINUTE, 1800],
    ["strict", 7 * DAY, 3600],
    ["strict", 7 * DAY - MINUTE, 3600],
    ["moderate", 3 * DAY + MINUTE, 0],
    ["moderate", 3 * DAY - MINUTE, 1800],
  ];
  for (const [policy, msBefore, kept] of cases)
    it(`${policy}, ${msBefore / MINUTE} minutes before the start: the sitter keeps ${kept / 100} €`, async () => {
      const { owner, booking } = await confirmed(policy, 10);
      expect(booking).toMatchObject({ payment_status: "unpaid", hold_ref: null });
      const row = await cancelBefore(owner, booking, msBefore);
      if (kept === 0) {
        // Nothing was ever taken: no hold is placed.
        expect(row).toMatchObject({
          status: "cancelled",
          payment_status: "unpaid",
          hold_ref: null,
          payment_task: null,
        });
        expect(bookingMoney(row)).toMatchObject({ stage: "none", paidCents: 0 });
        return;
      }
      // The card is held now for the whole price and the kept part captured.
      expect(row).toMatchObject({ payment_status: "released", capture_cents: kept, refunded_cents: 3600 - kept });
      expect(await paymentRow(row.hold_ref)).toMatchObject({ status: "captured", amount_cents: kept });
      expect(bookingMoney(row)).toMatchObject({ paidCents: kept, refundedCents: 3600 - kept });
      // Nothing is left for the scheduler: the hold that was due is not placed again.
      clockTo(row.hold_due_at!);
      await runDueBookingWork();
      expect(await bookingRow(booking.id)).toEqual(row);
    });

  it("a card that fails the hold for the kept part leaves the booking cancelled, nothing taken", async () => {
    const { owner, booking } = await confirmed("strict", 10);
    await db.updateTable("test_payments").set({ status: "no-funds" }).where("ref", "=", booking.card_ref!).execute();
    const row = await cancelBefore(owner, booking, 8 * DAY).catch(() => null);
    const after = await bookingRow(booking.id);
    expect(row === null || row.status === "cancelled").toBe(true);
    expect(after).toMatchObject({
      status: "cancelled",
      cancelled_by: "owner",
      cancel_reason: "Plans changed",
      payment_status: "failed",
      payment_task: null,
    });
    expect(bookingMoney(after)).toMatchObject({ stage: "none", paidCents: 0 });
  });
});

describe("what the policy does not reach", () => {
  it("a request the sitter has not accepted yet is given back in full, even on the strict policy", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 2 });
    await choosePolicy({ id: sitter.id, role: "sitter" }, "strict");
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    expect((await payForBooking(owner, booking.id, card(), randomUUID())).status).toBe("held");
    const row = await cancelBefore(owner, booking, HOUR);
    expect(row).toMatchObject({ payment_status: "refunded", capture_cents: null });
  });

  it("a sitter's cancellation always gives everything back", async () => {
    const { sitter, booking } = await confirmed("strict", 2);
    clockTo(booking.start_at, -HOUR);
    const result = await transition(booking.id, asSitter(sitter), { type: "sitter-cancel", reason: "Ill" });
    expect(result).toMatchObject({ ok: true, booking: { payment_status: "refunded", capture_cents: null } });
    expect(await paymentRow(booking.hold_ref)).toMatchObject({ status: "voided" });
  });

  it("the policy shown at the request binds the booking: a later change by the sitter does not reach it", async () => {
    const { sitter, owner, booking } = await confirmed("moderate", 5);
    await choosePolicy({ id: sitter.id, role: "sitter" }, "strict");
    expect((await getPublicProfile(sitter.id))?.cancellationPolicy).toBe("strict");
    const row = await cancelBefore(owner, booking, 4 * DAY);
    expect(row).toMatchObject({ cancellation_policy: "moderate", payment_status: "refunded" });
  });
});

describe("bad input changes nothing", () => {
  it("a forged policy value is refused with its message; none given keeps the default", () => {
    const base = { hourlyRate: "15", caresFor: ["dog"] };
    for (const forged of ["lenient", "", "FLEXIBLE", ["strict", "moderate"]])
      expect(
        sitterDetailsSchema
          .safeParse({ ...base, cancellationPolicy: forged })
          .error?.issues.map((issue) => [issue.path, issue.message]),
      ).toEqual([[["cancellationPolicy"], "validation.cancellationPolicyInvalid"]]);
    expect(sitterDetailsSchema.parse(base).cancellationPolicy).toBe("flexible");
    const request = {
      id: randomUUID(),
      sitterId: "s",
      petIds: ["p"],
      day: "2026-12-12",
      startTime: "10:00",
      hours: "2",
    };
    expect(requestSchema.safeParse({ ...request, cancellationPolicy: "none" }).error?.issues[0]?.message).toBe(
      "bookings:errors.policyChanged",
    );
  });

  it("every sitter starts on the flexible policy", async () => {
    const sitter = await person("sitter");
    expect((await getPublicProfile(sitter.id))?.cancellationPolicy).toBe("flexible");
  });

  it("a request made on a policy the sitter has since changed is refused, and no booking is made", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 3 });
    await choosePolicy({ id: sitter.id, role: "sitter" }, "strict");
    const owner = await ownerWithPet();
    const input = {
      ...requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2),
      cancellationPolicy: "flexible" as const,
    };
    expect(await requestBooking(owner, input)).toEqual({ status: "refused", reason: "policyChanged" });
    expect(await db.selectFrom("bookings").select("id").where("owner_id", "=", owner.id).execute()).toEqual([]);
  });

  it("cancelling someone else's booking, or twice, is refused and changes nothing", async () => {
    const { owner, booking } = await confirmed("moderate", 5);
    clockTo(booking.start_at, -2 * DAY);
    const stranger = await person("owner");
    expect(await transition(booking.id, asOwner(stranger), { type: "cancel", reason: "mine" })).toEqual({
      ok: false,
      refusal: "notFound",
    });
    expect(await bookingRow(booking.id)).toEqual(booking);
    expect((await transition(booking.id, asOwner(owner), { type: "cancel", reason: "Plans changed" })).ok).toBe(true);
    const once = await bookingRow(booking.id);
    expect(once).toMatchObject({ payment_status: "released", capture_cents: 1800 });
    expect(await transition(booking.id, asOwner(owner), { type: "cancel", reason: "Plans changed" })).toEqual({
      ok: false,
      refusal: "wrongState",
    });
    expect(await bookingRow(booking.id)).toEqual(once);
  });
});
