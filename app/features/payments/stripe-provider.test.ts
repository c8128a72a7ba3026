import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { clockTo, resetClockAfterEach } from "~/testing/clock";
import {
  transition,
  requestBooking,
  payForBooking,
  startCardEntry,
  runDueBookingWork,
} from "~/features/bookings/index.server";
import { bookingRow, ownerWithPet, requestInput, sitterWithSlot, type Owner } from "~/testing/bookings";
import { noticesOf } from "~/testing/people";
import { cardError, serverError, type FakeStripe } from "~/testing/fake-stripe";
import { payWithStripe, payableSitter, stripeRequest, withFakeStripe } from "~/testing/stripe";
import { paymentProvider, useStripeClient } from "./payments.server";
import { createStripeProvider, failureCodeOf } from "./stripe-provider.server";
import { startSubscriptionCardEntry } from "~/features/subscriptions/index.server";
import { storedCustomer as customerOf } from "./customers.server";
import { payoutOnboardingLink, refreshPayoutStatus } from "./connect.server";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started));
resetClockAfterEach();

const paymentIntentCreations = () =>
  fake.requests.filter((request) => request.method === "POST" && request.path === "/v1/payment_intents");

describe("the stripe provider, driven through bookings", () => {
  it("saves the card through a SetupIntent, holds with manual capture, the fee and the sitter's account, and captures on release", async () => {
    const sitter = await payableSitter();
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, sitter);
    expect(booking.payment_provider).toBe("stripe");
    expect(fake.requests).toEqual([]);

    expect(await payWithStripe(fake, owner, booking.id, "attempt-1")).toEqual({ status: "held" });
    const customer = (
      await db.selectFrom("users").select("stripe_customer_id").where("id", "=", owner.id).executeTakeFirstOrThrow()
    ).stripe_customer_id!;
    expect(customer).toMatch(/^cus_/);
    const setupIntent = [...fake.setupIntents.values()].at(-1)!;
    const paymentMethod = (setupIntent.payment_method as { id: string }).id;
    const held = await bookingRow(booking.id);
    expect(held).toMatchObject({
      status: "requested",
      payment_status: "held",
      payment_task: null,
      card_ref: `${customer}:${paymentMethod}`,
      card_label: "Visa •••• 4242",
    });
    expect(held.hold_ref).toMatch(/^pi_/);

    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: "/v1/customers",
        params: { email: owner.email, name: owner.name, "metadata[user_id]": owner.id },
        idempotencyKey: `${owner.id}:customer`,
        stripeAccount: undefined,
      },
      {
        method: "POST",
        path: "/v1/setup_intents",
        params: {
          customer,
          usage: "off_session",
          "allowed_payment_method_types[0]": "card",
          "metadata[purpose]": "booking",
          "metadata[booking_id]": booking.id,
          "metadata[user_id]": owner.id,
        },
        idempotencyKey: `${booking.id}:entry:attempt-1`,
        stripeAccount: undefined,
      },
      {
        method: "GET",
        path: `/v1/setup_intents/${setupIntent.id as string}`,
        params: { "expand[0]": "payment_method" },
        idempotencyKey: undefined,
        stripeAccount: undefined,
      },
      {
        method: "POST",
        path: "/v1/payment_intents",
        params: {
          amount: "3600",
          currency: "eur",
          customer,
          payment_method: paymentMethod,
          "allowed_payment_method_types[0]": "card",
          capture_method: "manual",
          confirm: "true",
          application_fee_amount: "600",
          "transfer_data[destination]": sitter.account,
          description: `Booking ${booking.id}`,
          "metadata[purpose]": "booking",
          "metadata[booking_id]": booking.id,
        },
        idempotencyKey: `${booking.id}:hold:${customer}:${paymentMethod}`,
        stripeAccount: undefined,
      },
    ]);

    // Accepting, starting and finishing call nobody; releasing captures the hold once.
    fake.clear();
    expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
    clockTo(held.end_at);
    await runDueBookingWork();
    expect((await bookingRow(booking.id)).status).toBe("completed");
    expect(fake.requests).toEqual([]);
    const released = await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "release" });
    expect(released).toMatchObject({ ok: true, booking: { payment_status: "released", payment_task: null } });
    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: `/v1/payment_intents/${held.hold_ref!}/capture`,
        params: { amount_to_capture: "3600" },
        idempotencyKey: `${booking.id}:capture:${held.hold_ref!}`,
        stripeAccount: undefined,
      },
    ]);
    expect(fake.paymentIntents.get(held.hold_ref!)).toMatchObject({ status: "succeeded", amount_received: 3600 });
  });

  it("a second booking reuses the owner's customer; a decline cancels the PaymentIntent", async () => {
    const owner = await ownerWithPet();
    const first = await stripeRequest(owner, await payableSitter());
    await payWithStripe(fake, owner, first.id);
    const sitter = await payableSitter();
    const booking = await stripeRequest(owner, sitter);
    fake.clear();
    expect(await payWithStripe(fake, owner, booking.id, "a2")).toEqual({ status: "held" });
    expect(fake.routes()).toEqual([
      "POST /v1/setup_intents",
      `GET /v1/setup_intents/${[...fake.setupIntents.keys()].at(-1)!}`,
      "POST /v1/payment_intents",
    ]);
    expect(fake.requests[0]!.idempotencyKey).toBe(`${booking.id}:entry:a2`);

    fake.clear();
    const holdRef = (await bookingRow(booking.id)).hold_ref!;
    expect(await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "decline" })).toMatchObject({
      ok: true,
      booking: { status: "cancelled", payment_status: "refunded", payment_task: null },
    });
    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: `/v1/payment_intents/${holdRef}/cancel`,
        params: {},
        idempotencyKey: `${booking.id}:void:${holdRef}`,
        stripeAccount: undefined,
      },
    ]);
  });

  it("a booking more than six days ahead keeps the card and is held off-session two days before", async () => {
    const sitter = await payableSitter({ daysAhead: 10 });
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, sitter);
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "card-saved" });
    expect(paymentIntentCreations()).toHaveLength(0);
    const saved = await bookingRow(booking.id);
    expect(saved.hold_due_at).not.toBeNull();

    clockTo(saved.hold_due_at!);
    await runDueBookingWork();
    const [hold] = paymentIntentCreations();
    expect(hold?.params).toMatchObject({
      off_session: "true",
      confirm: "true",
      capture_method: "manual",
      amount: "3600",
      application_fee_amount: "600",
    });
    expect(hold?.idempotencyKey).toBe(`${booking.id}:hold:${saved.card_ref!}`);
    expect(await bookingRow(booking.id)).toMatchObject({
      payment_status: "held",
      hold_due_at: null,
      payment_task: null,
    });
  });

  it("a double-clicked Pay makes one customer, one card and one hold", async () => {
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    const entry = await startCardEntry(owner, booking.id, "same");
    if (entry.status !== "ready") throw new Error("no entry");
    const setupIntent = fake.confirmSetupInBrowser(entry.clientSecret);
    const token = { kind: "token" as const, token: setupIntent, name: owner.name };
    const outcomes = await Promise.all([
      payForBooking(owner, booking.id, token, "same"),
      payForBooking(owner, booking.id, token, "same"),
    ]);
    expect(outcomes).toEqual([{ status: "held" }, { status: "held" }]);
    expect(paymentIntentCreations()).toHaveLength(1);
  });

  it("sitters who have not finished Stripe onboarding cannot be booked", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const stripe = paymentProvider("stripe");
    expect(await requestBooking(owner, requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2), stripe)).toEqual({
      status: "refused",
      reason: "sitterNotPayable",
    });
    await db
      .updateTable("users")
      .set({ stripe_account_id: `acct_pending${sitter.id.slice(0, 6)}` })
      .where("id", "=", sitter.id)
      .execute();
    expect(await requestBooking(owner, requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2), stripe)).toEqual({
      status: "refused",
      reason: "sitterNotPayable",
    });
    // The test provider pays nobody out: its bookings do not need onboarding.
    expect((await requestBooking(owner, requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2))).status).toBe(
      "created",
    );
  });
});

describe("when Stripe says no or does not answer", () => {
  it("a declined card fails the payment, clears the card and tells nobody; another card then works", async () => {
    const sitter = await payableSitter();
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, sitter);
    fake.fail("POST /v1/payment_intents", cardError("card_declined", "generic_decline"));
    expect(await payWithStripe(fake, owner, booking.id, "a1")).toEqual({ status: "failed", code: "card_declined" });
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "requested",
      payment_status: "failed",
      payment_error: "card_declined",
      card_ref: null,
      payment_task: null,
    });
    expect(await noticesOf(sitter.id)).toEqual([]);

    fake.fail("POST /v1/payment_intents", cardError("card_declined", "insufficient_funds"));
    expect(await payWithStripe(fake, owner, booking.id, "a2")).toEqual({
      status: "failed",
      code: "insufficient_funds",
    });
    expect(await payWithStripe(fake, owner, booking.id, "a3")).toEqual({ status: "held" });
    expect(await noticesOf(sitter.id)).toEqual(["requested"]);
  });

  it("a card that needs 3-D Secure at the hold asks the owner to authenticate", async () => {
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    fake.fail("POST /v1/payment_intents", {
      status: 200,
      body: { id: "pi_needs_action", object: "payment_intent", status: "requires_action", metadata: {} },
    });
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "failed", code: "authentication_required" });
    expect(await bookingRow(booking.id)).toMatchObject({
      payment_status: "failed",
      payment_error: "authentication_required",
      payment_task: null,
    });
  });

  it("a delayed hold that needs the owner's authentication cancels the booking cleanly and tells both", async () => {
    const sitter = await payableSitter({ daysAhead: 10 });
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, sitter);
    await payWithStripe(fake, owner, booking.id);
    expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
    const saved = await bookingRow(booking.id);
    fake.fail(
      "POST /v1/payment_intents",
      cardError("authentication_required", "authentication_required", {
        payment_intent: { id: "pi_auth", status: "requires_payment_method" },
      }),
    );
    clockTo(saved.hold_due_at!);
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "cancelled",
      cancel_reason: "payment",
      payment_status: "failed",
      payment_error: "authentication_required",
      payment_task: null,
    });
    expect(await noticesOf(owner.id)).toContain("holdFailed");
    expect(await noticesOf(sitter.id)).toContain("cancelledPayment");
  });

  it("a timeout leaves the hold to the scheduler, which retries with the same idempotency key", async () => {
    // Long enough that the card entry's own calls finish on a loaded machine; only the hold hangs.
    useStripeClient(fake.client({ timeoutMs: 2_000 }));
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    fake.fail("POST /v1/payment_intents", "hang");
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "failed", code: "processing_error" });
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "requested",
      payment_status: "unpaid",
      payment_task: "hold",
      payment_task_attempts: 1,
      payment_error: "processing_error",
    });

    await runDueBookingWork();
    const [first, second] = paymentIntentCreations();
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(second?.params).toEqual(first?.params);
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "held", payment_task: null });
  });

  it("a 500 that Stripe did not keep is retried by the scheduler with the same key", async () => {
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    fake.fail("POST /v1/payment_intents", serverError(true));
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "failed", code: "processing_error" });
    expect(await bookingRow(booking.id)).toMatchObject({ payment_task: "hold", payment_status: "unpaid" });
    await runDueBookingWork();
    expect(new Set(paymentIntentCreations().map((request) => request.idempotencyKey)).size).toBe(1);
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "held", payment_task: null });
  });

  it("the SDK's own retry after a 500 carries the same key", async () => {
    useStripeClient(fake.client({ maxNetworkRetries: 1 }));
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    fake.fail("POST /v1/payment_intents", serverError(true));
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "held" });
    const [first, second] = paymentIntentCreations();
    expect(first?.idempotencyKey).toBeDefined();
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
  });

  it("a capture that fails is retried until the money is released, and an answer lost on the way is not a second capture", async () => {
    const sitter = await payableSitter();
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, sitter);
    await payWithStripe(fake, owner, booking.id);
    await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" });
    const held = await bookingRow(booking.id);
    clockTo(held.end_at);
    await runDueBookingWork();

    fake.fail(`POST /v1/payment_intents/${held.hold_ref!}/capture`, serverError(true));
    expect(await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "release" })).toMatchObject({
      ok: true,
      booking: { payment_task: "capture", payment_status: "held" },
    });
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({ payment_task: null, payment_status: "released" });
    const captures = fake.requests.filter((request) => request.path.endsWith("/capture"));
    expect(captures.map((request) => request.idempotencyKey)).toEqual([
      `${booking.id}:capture:${held.hold_ref!}`,
      `${booking.id}:capture:${held.hold_ref!}`,
    ]);

    // Captured already at Stripe (say, after our own record was lost): capturing again counts as done.
    const provider = createStripeProvider(fake.client());
    expect(
      await provider.capture({ holdRef: held.hold_ref!, amountCents: 3600, idempotencyKey: "another-key" }),
    ).toEqual({ ok: true });
    expect(await provider.voidHold({ holdRef: held.hold_ref!, idempotencyKey: "void-after-capture" })).toEqual({
      ok: false,
      code: "processing_error",
    });
  });

  it("refunds reverse the sitter's transfer and the platform fee", async () => {
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    await payWithStripe(fake, owner, booking.id);
    const { hold_ref: holdRef } = await bookingRow(booking.id);
    fake.clear();
    const provider = createStripeProvider(fake.client());
    expect(
      await provider.refund({ holdRef: holdRef!, amountCents: 1200, idempotencyKey: `${booking.id}:refund:1` }),
    ).toEqual({ ok: true });
    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: "/v1/refunds",
        params: { payment_intent: holdRef!, amount: "1200", reverse_transfer: "true", refund_application_fee: "true" },
        idempotencyKey: `${booking.id}:refund:1`,
        stripeAccount: undefined,
      },
    ]);
  });

  it("maps Stripe's codes to the messages the owner sees", () => {
    expect(failureCodeOf("card_declined", "insufficient_funds")).toBe("insufficient_funds");
    expect(failureCodeOf("card_declined", "do_not_honor")).toBe("card_declined");
    expect(failureCodeOf("expired_card")).toBe("expired_card");
    expect(failureCodeOf("incorrect_cvc")).toBe("incorrect_cvc");
    expect(failureCodeOf("invalid_number")).toBe("incorrect_number");
    expect(failureCodeOf("authentication_required", "authentication_required")).toBe("authentication_required");
    expect(failureCodeOf("setup_intent_authentication_failure")).toBe("authentication_required");
    expect(failureCodeOf(undefined)).toBe("card_declined");
  });
});

describe("a card entry is taken only from its payer, for the booking it was made for", () => {
  /** What the booking looks like before any card: the state a refused card entry must leave it in. */
  const untouched = {
    status: "requested",
    payment_status: "unpaid",
    payment_error: null,
    card_ref: null,
    card_label: null,
    hold_ref: null,
    payment_task: null,
  };
  const tokenOf = (setupIntent: string, name = "x") => ({ kind: "token" as const, token: setupIntent, name });

  async function confirmedEntry(owner: Owner, bookingId: string) {
    const entry = await startCardEntry(owner, bookingId, randomUUID());
    if (entry.status !== "ready") throw new Error(`card entry refused: ${JSON.stringify(entry)}`);
    return fake.confirmSetupInBrowser(entry.clientSecret);
  }

  it("makes the payer's customer first and the SetupIntent on it, naming the booking and the person", async () => {
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    const setupIntent = await confirmedEntry(owner, booking.id);
    const customer = await customerOf(owner.id);
    expect(fake.routes()).toEqual(["POST /v1/customers", "POST /v1/setup_intents"]);
    expect(fake.customers.get(customer!)).toMatchObject({ email: owner.email, metadata: { user_id: owner.id } });
    expect(fake.setupIntents.get(setupIntent)).toMatchObject({
      customer,
      metadata: { purpose: "booking", booking_id: booking.id, user_id: owner.id },
    });
  });

  it("another person's SetupIntent is refused with its own message and changes nothing; the owner's own then works", async () => {
    const owner = await ownerWithPet();
    const other = await ownerWithPet();
    const sitter = await payableSitter();
    const booking = await stripeRequest(owner, sitter);
    const theirs = await confirmedEntry(other, (await stripeRequest(other, await payableSitter())).id);
    // With no customer of their own yet, and with one.
    expect(await payForBooking(owner, booking.id, tokenOf(theirs), randomUUID())).toEqual({
      status: "failed",
      code: "foreign_card",
    });
    await startCardEntry(owner, booking.id, randomUUID());
    expect(await customerOf(owner.id)).not.toBe(await customerOf(other.id));
    expect(await payForBooking(owner, booking.id, tokenOf(theirs), randomUUID())).toEqual({
      status: "failed",
      code: "foreign_card",
    });
    expect(await bookingRow(booking.id)).toMatchObject(untouched);
    expect(paymentIntentCreations()).toHaveLength(0);
    expect(await noticesOf(sitter.id)).toEqual([]);

    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "held" });
  });

  it("a SetupIntent the same owner made for another booking is refused; it still pays the booking it was made for", async () => {
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    const otherBooking = await stripeRequest(owner, await payableSitter());
    const madeForOther = await confirmedEntry(owner, otherBooking.id);
    expect(await payForBooking(owner, booking.id, tokenOf(madeForOther), randomUUID())).toEqual({
      status: "failed",
      code: "foreign_card",
    });
    expect(await bookingRow(booking.id)).toMatchObject(untouched);
    expect(paymentIntentCreations()).toHaveLength(0);

    expect(await payForBooking(owner, otherBooking.id, tokenOf(madeForOther), randomUUID())).toEqual({
      status: "held",
    });
    expect(await bookingRow(booking.id)).toMatchObject(untouched);
  });

  it("a SetupIntent made for a subscription or for 'Add a card' cannot pay a booking", async () => {
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    for (const planId of ["monthly", null]) {
      const entry = await startSubscriptionCardEntry(owner, randomUUID(), planId, paymentProvider("stripe"));
      if (entry.status !== "ready") throw new Error("no entry");
      const setupIntent = fake.confirmSetupInBrowser(entry.clientSecret);
      expect(fake.setupIntents.get(setupIntent)?.customer).toBe(await customerOf(owner.id));
      expect(await payForBooking(owner, booking.id, tokenOf(setupIntent), randomUUID())).toEqual({
        status: "failed",
        code: "foreign_card",
      });
    }
    expect(await bookingRow(booking.id)).toMatchObject(untouched);
    expect(paymentIntentCreations()).toHaveLength(0);
  });

  it("an entry on another customer, with a card of another customer or with changed metadata, an unknown id and a token of another kind are refused and change nothing", async () => {
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    const setupIntent = await confirmedEntry(owner, booking.id);
    const intent = fake.setupIntents.get(setupIntent)!;
    const own = { customer: intent.customer, method: intent.payment_method as { customer: unknown } };
    // Made on someone else's customer with our metadata (say, through Stripe's dashboard).
    intent.customer = "cus_someoneelse";
    expect(await payForBooking(owner, booking.id, tokenOf(setupIntent), randomUUID())).toEqual({
      status: "failed",
      code: "foreign_card",
    });
    intent.customer = own.customer;
    own.method.customer = "cus_someoneelse";
    expect(await payForBooking(owner, booking.id, tokenOf(setupIntent), randomUUID())).toEqual({
      status: "failed",
      code: "foreign_card",
    });
    own.method.customer = own.customer;
    intent.metadata = { purpose: "booking", booking_id: booking.id, user_id: "someone-else" };
    expect(await payForBooking(owner, booking.id, tokenOf(setupIntent), randomUUID())).toEqual({
      status: "failed",
      code: "foreign_card",
    });
    intent.metadata = { booking_id: booking.id };
    expect(await payForBooking(owner, booking.id, tokenOf(setupIntent), randomUUID())).toEqual({
      status: "failed",
      code: "foreign_card",
    });
    expect(await payForBooking(owner, booking.id, tokenOf("seti_madeup000000"), randomUUID())).toEqual({
      status: "failed",
      code: "foreign_card",
    });
    expect(await payForBooking(owner, booking.id, tokenOf("tok_visa"), randomUUID())).toEqual({
      status: "failed",
      code: "foreign_card",
    });
    expect(await bookingRow(booking.id)).toMatchObject(untouched);
    expect(paymentIntentCreations()).toHaveLength(0);
  });

  it("the owner's own entry that is not finished is told as such", async () => {
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    const entry = await startCardEntry(owner, booking.id, "unfinished");
    if (entry.status !== "ready") throw new Error("no entry");
    const setupIntent = fake.confirmSetupInBrowser(entry.clientSecret, undefined, "requires_action");
    expect(await payForBooking(owner, booking.id, tokenOf(setupIntent), "unfinished")).toEqual({
      status: "failed",
      code: "authentication_required",
    });
    expect(paymentIntentCreations()).toHaveLength(0);
  });

  it("two first card entries at once end on one customer, the one kept in the database", async () => {
    const owner = await ownerWithPet();
    const [first, second] = [
      await stripeRequest(owner, await payableSitter()),
      await stripeRequest(owner, await payableSitter()),
    ];
    const entries = await Promise.all([
      startCardEntry(owner, first.id, "together"),
      startCardEntry(owner, second.id, "together"),
    ]);
    expect(entries.map((entry) => entry.status)).toEqual(["ready", "ready"]);
    const customer = await customerOf(owner.id);
    expect([...fake.setupIntents.values()].slice(-2).map((intent) => intent.customer)).toEqual([customer, customer]);
  });

  it("a PaymentMethod id is taken only when it is attached to the payer's customer, and never attached here", async () => {
    const owner = await ownerWithPet();
    const other = await ownerWithPet();
    await confirmedEntry(other, (await stripeRequest(other, await payableSitter())).id);
    const theirMethod = [...fake.paymentMethods.values()].at(-1)!.id as string;
    await confirmedEntry(owner, (await stripeRequest(owner, await payableSitter())).id);
    const ownMethod = [...fake.paymentMethods.values()].at(-1)!.id as string;
    const customerRef = await customerOf(owner.id);
    const provider = createStripeProvider(fake.client());
    const purpose = { kind: "card" as const, userId: owner.id };
    fake.clear();
    const save = (token: string) =>
      provider.saveCard({
        card: { kind: "token", token, name: "Olga" },
        email: owner.email,
        customerRef,
        purpose,
        idempotencyKey: randomUUID(),
      });
    expect(await save(ownMethod)).toEqual({
      ok: true,
      cardRef: `${customerRef}:${ownMethod}`,
      label: "Visa •••• 4242",
      details: { brand: "Visa", last4: "4242", expMonth: 12, expYear: 2030 },
    });
    expect(await save(theirMethod)).toEqual({ ok: false, code: "foreign_card" });
    expect(await save("pm_card_mastercard")).toEqual({ ok: false, code: "foreign_card" });
    expect(fake.routes().filter((route) => route.endsWith("/attach"))).toEqual([]);
  });
});

describe("Connect onboarding", () => {
  it("creates the sitter's Express account once, links to Stripe's onboarding and reads back whether payouts are enabled", async () => {
    const sitter = await sitterWithSlot();
    const row = () =>
      db
        .selectFrom("users")
        .select(["id", "email", "stripe_account_id", "payouts_enabled"])
        .where("id", "=", sitter.id)
        .executeTakeFirstOrThrow();
    const urls = {
      returnUrl: "https://sitters.example/profile?payouts=return",
      refreshUrl: "https://sitters.example/profile?payouts=refresh",
    };
    const url = await payoutOnboardingLink(await row(), urls, "click-1");
    const { stripe_account_id: account } = await row();
    expect(account).toMatch(/^acct_/);
    expect(url).toBe(`https://connect.stripe.com/setup/e/${account!}/link_${url!.split("link_")[1]!}`);
    expect(
      fake.requests.map(({ method, path, params, idempotencyKey }) => ({ method, path, params, idempotencyKey })),
    ).toEqual([
      {
        method: "POST",
        path: "/v1/accounts",
        params: {
          type: "express",
          email: sitter.email,
          "capabilities[transfers][requested]": "true",
          "metadata[user_id]": sitter.id,
        },
        idempotencyKey: `${sitter.id}:connect-account`,
      },
      {
        method: "POST",
        path: "/v1/account_links",
        params: {
          account: account!,
          type: "account_onboarding",
          return_url: urls.returnUrl,
          refresh_url: urls.refreshUrl,
        },
        idempotencyKey: `${sitter.id}:account-link:click-1`,
      },
    ]);

    // Coming back: not finished yet, then finished.
    expect(await refreshPayoutStatus(await row())).toBe(false);
    Object.assign(fake.accounts.get(account!)!, { details_submitted: true, payouts_enabled: true });
    expect(await refreshPayoutStatus(await row())).toBe(true);
    expect((await row()).payouts_enabled).toBe(1);

    fake.clear();
    await payoutOnboardingLink(await row(), urls, "click-2");
    expect(fake.routes()).toEqual(["POST /v1/account_links"]);
  });
});

describe("choosing the provider at start-up", () => {
  const base = { NODE_ENV: "test" as const, SESSION_SECRET: "s".repeat(32), DATA_DIR: process.env.DATA_DIR };
  const keys = {
    STRIPE_SECRET_KEY: "sk_test_1",
    STRIPE_PUBLISHABLE_KEY: "pk_test_1",
    STRIPE_WEBHOOK_SECRET: "whsec_1",
  };
  it("test by default, stripe when the keys are set, and no start with stripe asked for but keys missing", async () => {
    const { parseEnv } = await import("~/platform/env.server");
    expect(parseEnv(base).PAYMENT_PROVIDER).toBe("test");
    expect(parseEnv({ ...base, STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: "" }).PAYMENT_PROVIDER).toBe("test");
    expect(parseEnv({ ...base, ...keys }).PAYMENT_PROVIDER).toBe("stripe");
    expect(parseEnv({ ...base, ...keys, PAYMENT_PROVIDER: "test" }).PAYMENT_PROVIDER).toBe("test");
    expect(parseEnv({ ...base, ...keys, DEMO_MODE: "true" }).PAYMENT_PROVIDER).toBe("test");
    expect(() => parseEnv({ ...base, PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_1" })).toThrow(
      /STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET/,
    );
    expect(() => parseEnv({ ...base, ...keys, STRIPE_WEBHOOK_SECRET: undefined })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => parseEnv({ ...base, STRIPE_SECRET_KEY: "pk_wrong" })).toThrow(/STRIPE_SECRET_KEY/);
  });
});
