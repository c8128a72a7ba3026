import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_HOURS, MIN_HOURS, priceOf } from "./machine";
import { bookingMoney, partlyRefunded, PLATFORM_FEE_RATE, type PaymentRecord } from "./money";

/** A completed 3 h booking at 15 €/h: 45 € for the sitter and 9 € fee, 54 € held. */
const record = (facts: Partial<PaymentRecord> = {}): PaymentRecord => ({
  status: "completed",
  total_cents: 5400,
  payment_status: "held",
  payment_task: null,
  capture_cents: null,
  refund_due_cents: null,
  refunded_cents: 0,
  released_at: null,
  ...facts,
});
const RELEASED = "2026-05-02T10:00:00.000Z";

describe("a booking's money", () => {
  it("a 40 % refund of 54 €: 21.60 € back to the owner, the sitter keeps 27 € and the fee is 5.40 € (20 % of 27 €)", () => {
    expect(bookingMoney(record({ payment_status: "released", released_at: RELEASED, refunded_cents: 2160 }))).toEqual({
      stage: "settled",
      priceCents: 5400,
      paidCents: 3240,
      refundedCents: 2160,
      sitterKeepsCents: 2700,
      platformFeeCents: 540,
      pending: false,
    });
  });

  it("says the same from the moment the settlement is decided, before the provider captures the rest", () => {
    const decided = bookingMoney(record({ payment_task: "capture", capture_cents: 3240 }));
    expect(decided).toMatchObject({
      stage: "settled",
      paidCents: 3240,
      refundedCents: 2160,
      sitterKeepsCents: 2700,
      platformFeeCents: 540,
      pending: true,
    });
  });

  it("a held or unpaid booking gives what was agreed: the sitter's price and the fee", () => {
    expect(bookingMoney(record())).toEqual({
      stage: "expected",
      priceCents: 5400,
      paidCents: 5400,
      refundedCents: 0,
      sitterKeepsCents: 4500,
      platformFeeCents: 900,
      pending: false,
    });
    expect(bookingMoney(record({ status: "requested", payment_status: "unpaid", payment_task: "hold" }))).toMatchObject(
      { stage: "expected", sitterKeepsCents: 4500, pending: true },
    );
    // The owner's release, on its way to the provider: nothing given back.
    expect(bookingMoney(record({ payment_task: "capture" }))).toMatchObject({
      stage: "expected",
      paidCents: 5400,
      refundedCents: 0,
      pending: true,
    });
    expect(bookingMoney(record({ payment_status: "released", released_at: RELEASED }))).toMatchObject({
      stage: "settled",
      paidCents: 5400,
      refundedCents: 0,
      sitterKeepsCents: 4500,
      platformFeeCents: 900,
    });
  });

  it("a refund after the release counts once decided, and refunds in parts add up", () => {
    const released = { payment_status: "released" as const, released_at: RELEASED };
    expect(bookingMoney(record({ ...released, refund_due_cents: 1000 }))).toMatchObject({
      paidCents: 4400,
      refundedCents: 1000,
      pending: true,
    });
    expect(bookingMoney(record({ ...released, refunded_cents: 1000, refund_due_cents: 1160 }))).toMatchObject({
      paidCents: 3240,
      refundedCents: 2160,
      sitterKeepsCents: 2700,
      pending: true,
    });
    expect(bookingMoney(record({ ...released, refunded_cents: 5400, payment_status: "refunded" }))).toMatchObject({
      stage: "settled",
      paidCents: 0,
      refundedCents: 5400,
      sitterKeepsCents: 0,
      platformFeeCents: 0,
    });
    // The processor refunded everything from its own dashboard: nothing is left paid whatever the column says.
    expect(
      bookingMoney(record({ payment_status: "refunded", released_at: RELEASED, refunded_cents: 0 })),
    ).toMatchObject({ paidCents: 0, refundedCents: 5400 });
  });

  it("a hold given back leaves nothing paid; a booking cancelled before its hold, or whose card failed, moved no money", () => {
    expect(bookingMoney(record({ status: "cancelled", payment_task: "void" }))).toMatchObject({
      stage: "settled",
      paidCents: 0,
      refundedCents: 5400,
      sitterKeepsCents: 0,
      pending: true,
    });
    expect(bookingMoney(record({ status: "cancelled", payment_status: "refunded" }))).toMatchObject({
      stage: "settled",
      paidCents: 0,
      refundedCents: 5400,
      pending: false,
    });
    for (const facts of [
      { status: "cancelled", payment_status: "unpaid" },
      { status: "cancelled", payment_status: "failed" },
      { status: "completed", payment_status: "failed" },
    ] as const) {
      expect(bookingMoney(record(facts))).toEqual({
        stage: "none",
        priceCents: 5400,
        paidCents: 0,
        refundedCents: 0,
        sitterKeepsCents: 0,
        platformFeeCents: 0,
        pending: false,
      });
    }
  });

  it("names a refund in part, not a full one nor none", () => {
    expect(
      partlyRefunded(bookingMoney(record({ payment_status: "released", released_at: RELEASED, refunded_cents: 2160 }))),
    ).toBe(true);
    expect(partlyRefunded(bookingMoney(record({ payment_task: "capture", capture_cents: 3240 })))).toBe(true);
    expect(partlyRefunded(bookingMoney(record({ payment_status: "released", released_at: RELEASED })))).toBe(false);
    expect(partlyRefunded(bookingMoney(record({ status: "cancelled", payment_status: "refunded" })))).toBe(false);
  });

  it("without a refund the split is the booking's own price, for every rate and number of hours", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: MIN_HOURS, max: MAX_HOURS }),
        (rate, hours) => {
          const price = priceOf(rate, hours);
          const money = bookingMoney(
            record({ total_cents: price.total, payment_status: "released", released_at: RELEASED }),
          );
          expect([money.sitterKeepsCents, money.platformFeeCents]).toEqual([price.subtotal, price.fee]);
        },
      ),
    );
  });

  it("for any price and any refunds in parts: paid and refunded make the price, the sitter and the fee make what was paid, and the fee is 20 % of the sitter's part", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
        (total, parts) => {
          let refunded = 0;
          for (const part of parts) refunded += Math.floor((total - refunded) * part);
          const money = bookingMoney(
            record({ total_cents: total, payment_status: "released", released_at: RELEASED, refunded_cents: refunded }),
          );
          expect(money.paidCents + money.refundedCents).toBe(total);
          expect(money.sitterKeepsCents + money.platformFeeCents).toBe(money.paidCents);
          expect(Math.abs(money.platformFeeCents - money.sitterKeepsCents * PLATFORM_FEE_RATE)).toBeLessThanOrEqual(1);
          expect(
            Math.min(money.paidCents, money.refundedCents, money.sitterKeepsCents, money.platformFeeCents),
          ).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
