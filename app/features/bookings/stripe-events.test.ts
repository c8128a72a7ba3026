import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { describe, expect, it, vi } from "vitest";

const SECRET = vi.hoisted(() => {
  const secret = "whsec_test_webhooks";
  // The route reads the secret from the environment, parsed when the app's modules load.
  process.env.STRIPE_WEBHOOK_SECRET = secret;
  return secret;
});

import { db } from "~/platform/db.server";
import { clockTo, resetClockAfterEach } from "~/testing/clock";
import { serverError, type FakeStripe } from "~/testing/fake-stripe";
import { payWithStripe, payableSitter, stripeRequest, withFakeStripe } from "~/testing/stripe";
import { bookingRow, dayAhead, ownerWithPet, slotsOf } from "~/testing/bookings";
import { paymentProvider } from "~/features/payments/index.server";
import { requestStay } from "./stays.server";
import { noticesOf } from "~/testing/people";
import { receiveStripeWebhook } from "~/features/payments/index.server";
import { action as webhookAction, loader as webhookLoader } from "~/routes/webhooks-stripe";
import { transition } from "./bookings.server";
import { runDueBookingWork } from "./due-work.server";
import { bookingStripeEvents } from "./stripe-events.server";
import { logger } from "~/platform/log.server";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started), { timeoutMs: 300 });
resetClockAfterEach();

function stripeEvent(type: string, object: Record<string, unknown>, id = `evt_${randomUUID().replaceAll("-", "")}`) {
  return {
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: { object },
  };
}

function signed(event: object, options: { timestamp?: number; secret?: string } = {}) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? SECRET,
    timestamp: options.timestamp,
  });
  return { payload, header };
}

async function deliver(event: object, options: { timestamp?: number } = {}) {
  const { payload, header } = signed(event, options);
  return receiveStripeWebhook(payload, header, bookingStripeEvents, { secret: SECRET });
}

const storedEvents = (id: string) => db.selectFrom("stripe_events").selectAll().where("id", "=", id).execute();

async function confirmedStripeBooking(options: { daysAhead?: number } = {}) {
  const sitter = await payableSitter(options);
  const owner = await ownerWithPet();
  const booking = await stripeRequest(owner, sitter);
  expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "held" });
  expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
  const row = await bookingRow(booking.id);
  return { sitter, owner, booking: row, intent: fake.paymentIntents.get(row.hold_ref!)! };
}

/** Completed, released by the owner, but the capture call timed out: the booking waits for the capture to be confirmed. */
async function captureInFlight() {
  const world = await confirmedStripeBooking();
  clockTo(world.booking.end_at);
  await runDueBookingWork();
  fake.fail(`POST /v1/payment_intents/${world.booking.hold_ref!}/capture`, "hang");
  expect(
    await transition(world.booking.id, { kind: "owner", userId: world.owner.id }, { type: "release" }),
  ).toMatchObject({ ok: true, booking: { payment_task: "capture", payment_status: "held" } });
  return world;
}

describe("signatures", () => {
  it("a valid event is stored and processed; tampered, stale, unsigned or wrongly signed ones are refused and not stored", async () => {
    const { booking, intent } = await captureInFlight();
    const event = stripeEvent("payment_intent.succeeded", { ...intent, status: "succeeded" });

    const { payload, header } = signed(event);
    const tampered = payload.replace('"succeeded"', '"canceled"');
    expect(await receiveStripeWebhook(tampered, header, bookingStripeEvents, { secret: SECRET })).toEqual({
      status: 400,
      message: "Invalid signature",
    });
    expect(await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 })).toEqual({
      status: 400,
      message: "Invalid signature",
    });
    expect(await receiveStripeWebhook(payload, null, bookingStripeEvents, { secret: SECRET })).toMatchObject({
      status: 400,
    });
    expect(
      await receiveStripeWebhook(payload, signed(event, { secret: "whsec_someone_else" }).header, bookingStripeEvents, {
        secret: SECRET,
      }),
    ).toMatchObject({ status: 400 });
    expect(await storedEvents(event.id)).toEqual([]);
    expect(await bookingRow(booking.id)).toMatchObject({ payment_task: "capture", payment_status: "held" });

    expect(await receiveStripeWebhook(payload, header, bookingStripeEvents, { secret: SECRET })).toEqual({
      status: 200,
      message: "applied",
    });
    expect(await bookingRow(booking.id)).toMatchObject({ payment_task: null, payment_status: "released" });
    expect(await storedEvents(event.id)).toEqual([
      expect.objectContaining({ type: "payment_intent.succeeded", outcome: "applied", payload }),
    ]);
  });

  it("the route reads the raw body and the Stripe-Signature header", async () => {
    const { booking, intent } = await captureInFlight();
    const { payload, header } = signed(stripeEvent("payment_intent.succeeded", { ...intent, status: "succeeded" }));
    const post = (signature: string) =>
      webhookAction({
        request: new Request("http://localhost/webhooks/stripe", {
          method: "POST",
          body: payload,
          headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
        }),
        params: {},
        context: { cspNonce: "", clientAddress: "127.0.0.1" },
      });
    expect((await post(header.replace(/v1=[0-9a-f]{8}/, "v1=00000000"))).status).toBe(400);
    const response = await post(header);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("applied");
    expect((await bookingRow(booking.id)).payment_status).toBe("released");
    expect(webhookLoader().status).toBe(405);
  });
});

describe("exactly once, in any order", () => {
  it("ten replays of a capture change the booking once and tell the sitter once", async () => {
    const { sitter, booking, intent } = await captureInFlight();
    const event = stripeEvent("payment_intent.succeeded", { ...intent, status: "succeeded" });
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
    expect(answers.filter((answer) => answer.message === "applied")).toHaveLength(1);
    expect(answers.filter((answer) => answer.message === "Already processed")).toHaveLength(9);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "released", payment_task: null });
    expect((await noticesOf(sitter.id)).filter((kind) => kind === "released")).toHaveLength(1);
    expect(await storedEvents(event.id)).toHaveLength(1);
    // The scheduler has nothing left to capture.
    fake.clear();
    await runDueBookingWork();
    expect(fake.requests.filter((request) => request.path.endsWith("/capture"))).toEqual([]);
  });

  it("a hold whose answer was lost (a 500 Stripe keeps for the key) is finished by its webhook, whichever event comes first", async () => {
    const sitter = await payableSitter();
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, sitter);
    fake.fail("POST /v1/payment_intents", serverError(false));
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "failed", code: "processing_error" });
    await runDueBookingWork();
    const waiting = await bookingRow(booking.id);
    // Stripe answers the retry with the 500 it kept: the booking still waits, the sitter is not told.
    expect(waiting).toMatchObject({ payment_task: "hold", payment_status: "unpaid", payment_task_attempts: 2 });
    expect(await noticesOf(sitter.id)).toEqual([]);

    const paymentMethod = waiting.card_ref!.split(":")[1];
    const intent = {
      id: "pi_lost_answer",
      object: "payment_intent",
      status: "requires_capture",
      amount: 3600,
      payment_method: paymentMethod,
      metadata: { booking_id: booking.id },
    };
    // The capture-shaped event of this intent arrives first: the booking does not know the intent yet.
    expect(await deliver(stripeEvent("payment_intent.succeeded", { ...intent, status: "succeeded" }))).toMatchObject({
      status: 200,
      message: "ignored: not this booking's hold",
    });
    // An intent of an older card attempt changes nothing.
    expect(
      await deliver(
        stripeEvent("payment_intent.amount_capturable_updated", {
          ...intent,
          id: "pi_old_card",
          payment_method: "pm_old",
        }),
      ),
    ).toMatchObject({ message: "ignored: not this booking's hold" });
    expect(await deliver(stripeEvent("payment_intent.amount_capturable_updated", intent))).toMatchObject({
      status: 200,
      message: "applied",
    });
    expect(await bookingRow(booking.id)).toMatchObject({
      payment_task: null,
      payment_status: "held",
      hold_ref: "pi_lost_answer",
    });
    expect(await noticesOf(sitter.id)).toEqual(["requested"]);

    fake.clear();
    await runDueBookingWork();
    expect(fake.requests).toEqual([]);
  });

  it("a stay's charge whose answer was lost is finished by its succeeded event; a capture-shaped event never releases it", async () => {
    const sitter = await payableSitter();
    await db
      .insertInto("sitter_services")
      .values({ sitter_id: sitter.id, service: "boarding", price_cents: 4000, duration_minutes: null })
      .execute();
    const owner = await ownerWithPet();
    const requested = await requestStay(
      owner,
      {
        id: randomUUID(),
        sitterId: sitter.id,
        service: "boarding",
        petIds: [owner.petId],
        firstDay: dayAhead(sitter.time_zone, 10),
        dropOff: "10:00",
        lastDay: dayAhead(sitter.time_zone, 13),
        pickUp: "18:00",
        notes: "",
      },
      paymentProvider("stripe"),
    );
    if (requested.status !== "created") throw new Error(requested.reason);
    const booking = requested.booking;
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "card-saved" });
    expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
    clockTo(booking.start_at);
    fake.fail("POST /v1/payment_intents", serverError(false));
    await runDueBookingWork();
    const waiting = await bookingRow(booking.id);
    expect(waiting).toMatchObject({ payment_mode: "charge", payment_task: "hold", payment_status: "unpaid" });

    const intent = {
      id: "pi_lost_charge",
      object: "payment_intent",
      status: "succeeded",
      amount: 18_000,
      payment_method: waiting.card_ref!.split(":")[1],
      metadata: { booking_id: booking.id },
    };
    expect(await deliver(stripeEvent("payment_intent.succeeded", intent))).toMatchObject({ message: "applied" });
    expect(await bookingRow(booking.id)).toMatchObject({
      payment_task: null,
      payment_status: "held",
      hold_ref: "pi_lost_charge",
    });
    // The same event again is not a release: the money waits for the stay's end and the release window.
    expect(await deliver(stripeEvent("payment_intent.succeeded", intent))).toMatchObject({
      message: "ignored: not this booking's hold",
    });
    expect((await bookingRow(booking.id)).payment_status).toBe("held");
  });

  it("a void and the older hold event give the same result in either order", async () => {
    const finals = [];
    for (const order of [
      ["payment_intent.canceled", "payment_intent.amount_capturable_updated"],
      ["payment_intent.amount_capturable_updated", "payment_intent.canceled"],
    ]) {
      // Two days ahead: cancelled in time for the default (flexible) policy, so the hold is voided.
      const { owner, booking, intent } = await confirmedStripeBooking({ daysAhead: 2 });
      fake.fail(`POST /v1/payment_intents/${intent.id as string}/cancel`, "hang");
      expect(
        await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "cancel", reason: "Plans changed" }),
      ).toMatchObject({ ok: true, booking: { payment_task: "void" } });
      for (const type of order)
        await deliver(
          stripeEvent(type, {
            ...intent,
            status: type === "payment_intent.canceled" ? "canceled" : "requires_capture",
          }),
        );
      const row = await bookingRow(booking.id);
      finals.push({ status: row.status, payment_status: row.payment_status, payment_task: row.payment_task });
    }
    expect(finals).toEqual([
      { status: "cancelled", payment_status: "refunded", payment_task: null },
      { status: "cancelled", payment_status: "refunded", payment_task: null },
    ]);
  });
});

describe("what each event does", () => {
  it("a hold that lapsed at Stripe cancels the confirmed booking, frees the slot and tells both", async () => {
    const { sitter, owner, booking, intent } = await confirmedStripeBooking();
    expect(
      await deliver(
        stripeEvent("payment_intent.canceled", { ...intent, status: "canceled", cancellation_reason: "automatic" }),
      ),
    ).toMatchObject({ message: "applied" });
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "cancelled",
      cancel_reason: "payment",
      payment_status: "failed",
      payment_error: "hold_cancelled",
    });
    expect(await noticesOf(owner.id)).toContain("holdFailed");
    expect(await noticesOf(sitter.id)).toContain("cancelledPayment");
    expect((await slotsOf(sitter.id)).every((slot) => slot.status === "available")).toBe(true);
  });

  it("a failed hold reported by Stripe ends the wait like our own answer would", async () => {
    const sitter = await payableSitter();
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, sitter);
    fake.fail("POST /v1/payment_intents", "hang");
    await payWithStripe(fake, owner, booking.id);
    const waiting = await bookingRow(booking.id);
    expect(waiting.payment_task).toBe("hold");
    const event = stripeEvent("payment_intent.payment_failed", {
      id: "pi_failed",
      object: "payment_intent",
      status: "requires_payment_method",
      payment_method: waiting.card_ref!.split(":")[1],
      last_payment_error: { type: "card_error", code: "card_declined", decline_code: "insufficient_funds" },
      metadata: { booking_id: booking.id },
    });
    expect(await deliver(event)).toMatchObject({ message: "applied" });
    expect(await bookingRow(booking.id)).toMatchObject({
      payment_task: null,
      payment_status: "failed",
      payment_error: "insufficient_funds",
      card_ref: null,
    });
  });

  it("a dispute marks the booking and is logged; a full refund marks it refunded, a partial one does not", async () => {
    const { booking, intent } = await captureInFlight();
    await deliver(stripeEvent("payment_intent.succeeded", { ...intent, status: "succeeded" }));
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const dispute = stripeEvent("charge.dispute.created", {
      id: "dp_1",
      object: "dispute",
      amount: 3600,
      currency: "eur",
      reason: "fraudulent",
      status: "needs_response",
      charge: "ch_1",
      payment_intent: intent.id,
    });
    expect(await deliver(dispute)).toMatchObject({ message: "applied" });
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ bookingId: booking.id }), expect.any(String));
    warn.mockRestore();
    expect((await bookingRow(booking.id)).disputed_at).not.toBeNull();

    const charge = {
      id: "ch_1",
      object: "charge",
      amount: 3600,
      amount_refunded: 1000,
      refunded: false,
      payment_intent: intent.id,
    };
    expect(await deliver(stripeEvent("charge.refunded", charge))).toMatchObject({ message: "ignored: partial refund" });
    expect((await bookingRow(booking.id)).payment_status).toBe("released");
    expect(
      await deliver(stripeEvent("charge.refunded", { ...charge, amount_refunded: 3600, refunded: true })),
    ).toMatchObject({ message: "applied" });
    expect((await bookingRow(booking.id)).payment_status).toBe("refunded");
  });
});
