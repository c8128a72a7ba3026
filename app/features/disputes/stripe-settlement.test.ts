import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { runDueBookingWork, transition } from "~/features/bookings/index.server";
import { clockTo, resetClockAfterEach } from "~/testing/clock";
import { bookingRow, ownerWithPet } from "~/testing/bookings";
import { person } from "~/testing/people";
import type { FakeStripe } from "~/testing/fake-stripe";
import { payableSitter, payWithStripe, stripeRequest, withFakeStripe } from "~/testing/stripe";
import { reportProblem, resolveDispute } from "./disputes.server";
import { refundBooking } from "./operator-bookings.server";

resetClockAfterEach();
let fake: FakeStripe;
withFakeStripe((started) => (fake = started));

async function completedStripeBooking() {
  const sitter = await payableSitter();
  const owner = await ownerWithPet();
  const booking = await stripeRequest(owner, sitter);
  expect(await payWithStripe(fake, owner, booking.id, randomUUID())).toEqual({ status: "held" });
  expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
  clockTo(booking.end_at);
  await runDueBookingWork();
  const row = await bookingRow(booking.id);
  expect(row).toMatchObject({ status: "completed", payment_status: "held", total_cents: 3600, fee_cents: 600 });
  return { owner, booking: row };
}

describe("settling a dispute with the Stripe provider", () => {
  it("a 40 % refund captures 60 % of the PaymentIntent with a fee of 20 % of what the sitter keeps; Stripe releases the rest", async () => {
    const admin = await person("owner", { columns: { is_admin: 1 } });
    const { owner, booking } = await completedStripeBooking();
    await reportProblem(owner.id, booking.id, { reason: "shortVisit", details: "Too short", images: [] });
    const dispute = await db
      .selectFrom("disputes")
      .select("id")
      .where("booking_id", "=", booking.id)
      .executeTakeFirstOrThrow();
    fake.clear();
    expect(
      await resolveDispute(admin.id, dispute.id, {
        settlement: { kind: "partial", refundCents: 1440 },
        note: "Short visit",
      }),
    ).toMatchObject({ ok: true });
    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: `/v1/payment_intents/${booking.hold_ref!}/capture`,
        params: { amount_to_capture: "2160", application_fee_amount: "360" },
        idempotencyKey: `${booking.id}:capture:${booking.hold_ref!}`,
        stripeAccount: undefined,
      },
    ]);
    expect(fake.paymentIntents.get(booking.hold_ref!)).toMatchObject({ status: "succeeded", amount_received: 2160 });
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "released", refunded_cents: 1440 });

    // A later refund of the captured payment, with its own idempotency key, never above what is left.
    fake.clear();
    expect(await refundBooking(admin.id, booking.id, { amountCents: 2161, note: "too much" })).toEqual({
      ok: false,
      message: "disputes:refusals.amountTooHigh",
    });
    expect(fake.requests).toEqual([]);
    expect(await refundBooking(admin.id, booking.id, { amountCents: 500, note: "Goodwill" })).toEqual({ ok: true });
    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: "/v1/refunds",
        params: {
          payment_intent: booking.hold_ref!,
          amount: "500",
          reverse_transfer: "true",
          refund_application_fee: "true",
        },
        idempotencyKey: `${booking.id}:refund:1440:500`,
        stripeAccount: undefined,
      },
    ]);
    expect(await bookingRow(booking.id)).toMatchObject({
      payment_status: "released",
      refunded_cents: 1940,
      refund_due_cents: null,
    });
  });

  it("a full refund cancels the PaymentIntent", async () => {
    const admin = await person("owner", { columns: { is_admin: 1 } });
    const { owner, booking } = await completedStripeBooking();
    await reportProblem(owner.id, booking.id, { reason: "noShow", details: "Nobody came", images: [] });
    const dispute = await db
      .selectFrom("disputes")
      .select("id")
      .where("booking_id", "=", booking.id)
      .executeTakeFirstOrThrow();
    fake.clear();
    await resolveDispute(admin.id, dispute.id, { settlement: { kind: "refund" }, note: "No-show" });
    expect(fake.routes()).toEqual([`POST /v1/payment_intents/${booking.hold_ref!}/cancel`]);
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "refunded" });
  });
});
