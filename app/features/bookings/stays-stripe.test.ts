import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { clockTo, MINUTE, resetClockAfterEach } from "~/testing/clock";
import { bookingRow, dayAhead, ownerWithPet } from "~/testing/bookings";
import { person } from "~/testing/people";
import type { FakeStripe } from "~/testing/fake-stripe";
import { payWithStripe, payableSitter, withFakeStripe } from "~/testing/stripe";
import { paymentProvider } from "~/features/payments/index.server";
import { transition } from "./bookings.server";
import { AUTO_RELEASE_AFTER_MS } from "./machine";
import { runDueBookingWork } from "./due-work.server";
import { requestStay } from "./stays.server";

/**
 * A stay longer than a card hold, on Stripe (its local fake): the card is saved, a PaymentIntent on the
 * platform is charged when the stay starts, a transfer of the sitter's part goes to their connected account at
 * release, and a refund after release reverses part of that transfer.
 */

let fake: FakeStripe;
withFakeStripe((started) => (fake = started));
resetClockAfterEach();

const post = (path: string) => fake.requests.filter((request) => request.method === "POST" && request.path === path);

describe("a charged stay on Stripe", () => {
  it("saves the card, charges at the start, transfers the sitter's part at release and reverses it in part on a refund", async () => {
    const sitter = await payableSitter();
    // The sitter's connected account, as Stripe knows it once onboarding is done.
    fake.accounts.set(sitter.account, { id: sitter.account, object: "account", payouts_enabled: true });
    await db
      .insertInto("sitter_services")
      .values({ sitter_id: sitter.id, service: "boarding", price_cents: 4000, duration_minutes: null })
      .execute();
    const owner = await ownerWithPet();
    const result = await requestStay(
      owner,
      {
        id: randomUUID(),
        sitterId: sitter.id,
        service: "boarding",
        petIds: [owner.petId],
        firstDay: dayAhead(sitter.time_zone, 10),
        dropOff: "10:00",
        lastDay: dayAhead(sitter.time_zone, 15),
        pickUp: "18:00",
        notes: "",
      },
      paymentProvider("stripe"),
    );
    if (result.status !== "created") throw new Error(result.reason);
    const booking = result.booking;
    expect(booking).toMatchObject({ payment_mode: "charge", total_cents: 24_000, payment_provider: "stripe" });

    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "card-saved" });
    expect(post("/v1/payment_intents")).toEqual([]);
    expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);

    clockTo(booking.start_at);
    await runDueBookingWork();
    const [charge] = post("/v1/payment_intents");
    // On the platform: no manual capture, no destination, no fee taken out yet; grouped for its later transfer.
    expect(charge?.params).toMatchObject({ amount: "24000", off_session: "true", transfer_group: booking.id });
    expect(charge?.params).not.toHaveProperty("capture_method");
    expect(charge?.params).not.toHaveProperty("transfer_data[destination]");
    const charged = await bookingRow(booking.id);
    expect(charged).toMatchObject({ status: "in-progress", payment_status: "held" });

    clockTo(booking.end_at);
    await runDueBookingWork();
    clockTo((await bookingRow(booking.id)).completed_at!, AUTO_RELEASE_AFTER_MS + MINUTE);
    await runDueBookingWork();
    const released = await bookingRow(booking.id);
    expect(released).toMatchObject({ payment_status: "released", payout_ref: expect.stringMatching(/^tr_/) });
    expect(post("/v1/transfers").map((request) => request.params)).toEqual([
      expect.objectContaining({ amount: "20000", destination: sitter.account, transfer_group: booking.id }),
    ]);

    const operator = await person("owner");
    expect(
      (
        await transition(
          booking.id,
          { kind: "operator", userId: operator.id },
          { type: "operator-refund", amountCents: 6_000 },
        )
      ).ok,
    ).toBe(true);
    await runDueBookingWork();
    expect(post(`/v1/transfers/${released.payout_ref!}/reversals`).map((request) => request.params)).toEqual([
      { amount: "5000" },
    ]);
    expect(post("/v1/refunds").map((request) => request.params)).toEqual([
      { payment_intent: charged.hold_ref!, amount: "6000" },
    ]);
    expect(await bookingRow(booking.id)).toMatchObject({ refunded_cents: 6_000, refund_due_cents: null });
  });
});
