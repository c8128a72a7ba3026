import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { advanceClock, now, resetClock } from "~/platform/clock.server";
import { payForBooking, requestBooking, runDueBookingWork, transition } from "~/features/bookings/bookings.server";
import { bookingRow, noticesOf, ownerWithPet, requestInput, sitterWithSlot } from "~/features/bookings/test-world";
import { cardError, serverError, type FakeStripe } from "./fake-stripe";
import { paymentProvider, useStripeClient } from "./payments.server";
import { createStripeProvider, failureCodeOf } from "./stripe-provider.server";
import { payWithStripe, payableSitter, stripeOwner, stripeRequest, withFakeStripe } from "./stripe-world";
import { payoutOnboardingLink, refreshPayoutStatus } from "./connect.server";

let fake: FakeStripe;
withFakeStripe((started) => (fake = started));
afterEach(() => resetClock());

const clockTo = (instant: string | Date, plusMs = 60_000) => advanceClock(new Date(instant).getTime() - now().getTime() + plusMs);
const paymentIntentCreations = () => fake.requests.filter((request) => request.method === "POST" && request.path === "/v1/payment_intents");

describe("the stripe provider, driven through bookings", () => {
  it("saves the card through a SetupIntent, holds with manual capture, the fee and the sitter's account, and captures on release", async () => {
    const sitter = await payableSitter();
    const owner = await stripeOwner();
    const booking = await stripeRequest(owner, sitter);
    expect(booking.payment_provider).toBe("stripe");
    expect(fake.requests).toEqual([]);

    expect(await payWithStripe(fake, owner, booking.id, "attempt-1")).toEqual({ status: "held" });
    const customer = (await db.selectFrom("users").select("stripe_customer_id").where("id", "=", owner.id).executeTakeFirstOrThrow()).stripe_customer_id!;
    expect(customer).toMatch(/^cus_/);
    const setupIntent = [...fake.setupIntents.values()].at(-1)!;
    const paymentMethod = (setupIntent.payment_method as { id: string }).id;
    const held = await bookingRow(booking.id);
    expect(held).toMatchObject({ status: "requested", payment_status: "held", payment_task: null, card_ref: `${customer}:${paymentMethod}`, card_label: "Visa •••• 4242" });
    expect(held.hold_ref).toMatch(/^pi_/);

    expect(fake.requests).toEqual([
      {
        method: "POST",
        path: "/v1/customers",
        params: { email: owner.email, name: owner.name },
        idempotencyKey: `${owner.id}:entry:${booking.id}:attempt-1:customer`,
        stripeAccount: undefined,
      },
      {
        method: "POST",
        path: "/v1/setup_intents",
        params: { customer, usage: "off_session", "allowed_payment_method_types[0]": "card", "metadata[booking_id]": booking.id },
        idempotencyKey: `${owner.id}:entry:${booking.id}:attempt-1:setup`,
        stripeAccount: undefined,
      },
      { method: "GET", path: `/v1/setup_intents/${setupIntent.id as string}`, params: { "expand[0]": "payment_method" }, idempotencyKey: undefined, stripeAccount: undefined },
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
      { method: "POST", path: `/v1/payment_intents/${held.hold_ref!}/capture`, params: { amount_to_capture: "3600" }, idempotencyKey: `${booking.id}:capture:${held.hold_ref!}`, stripeAccount: undefined },
    ]);
    expect(fake.paymentIntents.get(held.hold_ref!)).toMatchObject({ status: "succeeded", amount_received: 3600 });
  });

  it("a second booking reuses the owner's customer; a decline cancels the PaymentIntent", async () => {
    const owner = await stripeOwner();
    const first = await stripeRequest(owner, await payableSitter());
    await payWithStripe(fake, owner, first.id);
    const sitter = await payableSitter();
    const booking = await stripeRequest(owner, sitter);
    fake.clear();
    expect(await payWithStripe(fake, owner, booking.id, "a2")).toEqual({ status: "held" });
    expect(fake.routes()).toEqual(["POST /v1/setup_intents", `GET /v1/setup_intents/${[...fake.setupIntents.keys()].at(-1)!}`, "POST /v1/payment_intents"]);
    expect(fake.requests[0]!.idempotencyKey).toBe(`${booking.id}:entry:a2:setup`);

    fake.clear();
    const holdRef = (await bookingRow(booking.id)).hold_ref!;
    expect(await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "decline" })).toMatchObject({ ok: true, booking: { status: "cancelled", payment_status: "refunded", payment_task: null } });
    expect(fake.requests).toEqual([{ method: "POST", path: `/v1/payment_intents/${holdRef}/cancel`, params: {}, idempotencyKey: `${booking.id}:void:${holdRef}`, stripeAccount: undefined }]);
  });

  it("a booking more than six days ahead keeps the card and is held off-session two days before", async () => {
    const sitter = await payableSitter({ daysAhead: 10 });
    const owner = await stripeOwner();
    const booking = await stripeRequest(owner, sitter);
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "card-saved" });
    expect(paymentIntentCreations()).toHaveLength(0);
    const saved = await bookingRow(booking.id);
    expect(saved.hold_due_at).not.toBeNull();

    clockTo(saved.hold_due_at!);
    await runDueBookingWork();
    const [hold] = paymentIntentCreations();
    expect(hold?.params).toMatchObject({ off_session: "true", confirm: "true", capture_method: "manual", amount: "3600", application_fee_amount: "600" });
    expect(hold?.idempotencyKey).toBe(`${booking.id}:hold:${saved.card_ref!}`);
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "held", hold_due_at: null, payment_task: null });
  });

  it("a double-clicked Pay makes one customer, one card and one hold", async () => {
    const owner = await stripeOwner();
    const booking = await stripeRequest(owner, await payableSitter());
    const { startCardEntry } = await import("~/features/bookings/bookings.server");
    const entry = await startCardEntry(owner, booking.id, "same");
    if (entry.status !== "ready") throw new Error("no entry");
    const setupIntent = fake.confirmSetupInBrowser(entry.clientSecret);
    const token = { kind: "token" as const, token: setupIntent, name: owner.name };
    const outcomes = await Promise.all([payForBooking(owner, booking.id, token, "same"), payForBooking(owner, booking.id, token, "same")]);
    expect(outcomes).toEqual([{ status: "held" }, { status: "held" }]);
    expect(paymentIntentCreations()).toHaveLength(1);
  });

  it("sitters who have not finished Stripe onboarding cannot be booked", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const stripe = paymentProvider("stripe");
    expect(await requestBooking(owner, requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2), stripe)).toEqual({ status: "refused", reason: "sitterNotPayable" });
    await db.updateTable("users").set({ stripe_account_id: `acct_pending${sitter.id.slice(0, 6)}` }).where("id", "=", sitter.id).execute();
    expect(await requestBooking(owner, requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2), stripe)).toEqual({ status: "refused", reason: "sitterNotPayable" });
    // The test provider pays nobody out: its bookings do not need onboarding.
    expect((await requestBooking(owner, requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2))).status).toBe("created");
  });
});

describe("when Stripe says no or does not answer", () => {
  it("a declined card fails the payment, clears the card and tells nobody; another card then works", async () => {
    const sitter = await payableSitter();
    const owner = await stripeOwner();
    const booking = await stripeRequest(owner, sitter);
    fake.fail("POST /v1/payment_intents", cardError("card_declined", "generic_decline"));
    expect(await payWithStripe(fake, owner, booking.id, "a1")).toEqual({ status: "failed", code: "card_declined" });
    expect(await bookingRow(booking.id)).toMatchObject({ status: "requested", payment_status: "failed", payment_error: "card_declined", card_ref: null, payment_task: null });
    expect(await noticesOf(sitter.id)).toEqual([]);

    fake.fail("POST /v1/payment_intents", cardError("card_declined", "insufficient_funds"));
    expect(await payWithStripe(fake, owner, booking.id, "a2")).toEqual({ status: "failed", code: "insufficient_funds" });
    expect(await payWithStripe(fake, owner, booking.id, "a3")).toEqual({ status: "held" });
    expect(await noticesOf(sitter.id)).toEqual(["requested"]);
  });

  it("a card that needs 3-D Secure at the hold asks the owner to authenticate", async () => {
    const owner = await stripeOwner();
    const booking = await stripeRequest(owner, await payableSitter());
    fake.fail("POST /v1/payment_intents", { status: 200, body: { id: "pi_needs_action", object: "payment_intent", status: "requires_action", metadata: {} } });
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "failed", code: "authentication_required" });
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "failed", payment_error: "authentication_required", payment_task: null });
  });

  it("a delayed hold that needs the owner's authentication cancels the booking cleanly and tells both", async () => {
    const sitter = await payableSitter({ daysAhead: 10 });
    const owner = await stripeOwner();
    const booking = await stripeRequest(owner, sitter);
    await payWithStripe(fake, owner, booking.id);
    expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
    const saved = await bookingRow(booking.id);
    fake.fail("POST /v1/payment_intents", cardError("authentication_required", "authentication_required", { payment_intent: { id: "pi_auth", status: "requires_payment_method" } }));
    clockTo(saved.hold_due_at!);
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({ status: "cancelled", cancel_reason: "payment", payment_status: "failed", payment_error: "authentication_required", payment_task: null });
    expect(await noticesOf(owner.id)).toContain("holdFailed");
    expect(await noticesOf(sitter.id)).toContain("cancelledPayment");
  });

  it("a timeout leaves the hold to the scheduler, which retries with the same idempotency key", async () => {
    useStripeClient(fake.client({ timeoutMs: 300 }));
    const owner = await stripeOwner();
    const booking = await stripeRequest(owner, await payableSitter());
    fake.fail("POST /v1/payment_intents", "hang");
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "failed", code: "processing_error" });
    expect(await bookingRow(booking.id)).toMatchObject({ status: "requested", payment_status: "unpaid", payment_task: "hold", payment_task_attempts: 1, payment_error: "processing_error" });

    await runDueBookingWork();
    const [first, second] = paymentIntentCreations();
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(second?.params).toEqual(first?.params);
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "held", payment_task: null });
  });

  it("a 500 that Stripe did not keep is retried by the scheduler with the same key", async () => {
    const owner = await stripeOwner();
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
    const owner = await stripeOwner();
    const booking = await stripeRequest(owner, await payableSitter());
    fake.fail("POST /v1/payment_intents", serverError(true));
    expect(await payWithStripe(fake, owner, booking.id)).toEqual({ status: "held" });
    const [first, second] = paymentIntentCreations();
    expect(first?.idempotencyKey).toBeDefined();
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
  });

  it("a capture that fails is retried until the money is released, and an answer lost on the way is not a second capture", async () => {
    const sitter = await payableSitter();
    const owner = await stripeOwner();
    const booking = await stripeRequest(owner, sitter);
    await payWithStripe(fake, owner, booking.id);
    await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" });
    const held = await bookingRow(booking.id);
    clockTo(held.end_at);
    await runDueBookingWork();

    fake.fail(`POST /v1/payment_intents/${held.hold_ref!}/capture`, serverError(true));
    expect(await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "release" })).toMatchObject({ ok: true, booking: { payment_task: "capture", payment_status: "held" } });
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({ payment_task: null, payment_status: "released" });
    const captures = fake.requests.filter((request) => request.path.endsWith("/capture"));
    expect(captures.map((request) => request.idempotencyKey)).toEqual([`${booking.id}:capture:${held.hold_ref!}`, `${booking.id}:capture:${held.hold_ref!}`]);

    // Captured already at Stripe (say, after our own record was lost): capturing again counts as done.
    const provider = createStripeProvider(fake.client());
    expect(await provider.capture({ holdRef: held.hold_ref!, amountCents: 3600, idempotencyKey: "another-key" })).toEqual({ ok: true });
    expect(await provider.voidHold({ holdRef: held.hold_ref!, idempotencyKey: "void-after-capture" })).toEqual({ ok: false, code: "processing_error" });
  });

  it("refunds reverse the sitter's transfer and the platform fee", async () => {
    const owner = await stripeOwner();
    const booking = await stripeRequest(owner, await payableSitter());
    await payWithStripe(fake, owner, booking.id);
    const { hold_ref: holdRef } = await bookingRow(booking.id);
    fake.clear();
    const provider = createStripeProvider(fake.client());
    expect(await provider.refund({ holdRef: holdRef!, amountCents: 1200, idempotencyKey: `${booking.id}:refund:1` })).toEqual({ ok: true });
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

  it("a SetupIntent of someone else's customer, or a card that failed to set up, is not saved", async () => {
    const owner = await stripeOwner();
    const other = await stripeOwner();
    const booking = await stripeRequest(owner, await payableSitter());
    const otherBooking = await stripeRequest(other, await payableSitter());
    const { startCardEntry } = await import("~/features/bookings/bookings.server");
    await startCardEntry(owner, booking.id, "mine");
    const theirs = await startCardEntry(other, otherBooking.id, "theirs");
    if (theirs.status !== "ready") throw new Error("no entry");
    const stolen = fake.confirmSetupInBrowser(theirs.clientSecret);
    expect(await payForBooking(owner, booking.id, { kind: "token", token: stolen, name: "x" }, randomUUID())).toEqual({ status: "failed", code: "processing_error" });
    expect(await payForBooking(owner, booking.id, { kind: "token", token: "tok_visa", name: "x" }, randomUUID())).toEqual({ status: "failed", code: "processing_error" });
    expect(paymentIntentCreations()).toHaveLength(0);
  });

  it("a bare PaymentMethod token is attached to a new customer", async () => {
    const provider = createStripeProvider(fake.client());
    const saved = await provider.saveCard({ card: { kind: "token", token: "pm_card_mastercard", name: "Olga" }, email: "olga@example.com", idempotencyKey: "b1:card:a1" });
    expect(saved).toMatchObject({ ok: true, label: "Visa •••• 4242" });
    expect(fake.requests.map(({ method, path, params, idempotencyKey }) => ({ method, path, params, idempotencyKey }))).toEqual([
      { method: "POST", path: "/v1/customers", params: { email: "olga@example.com", name: "Olga" }, idempotencyKey: "b1:card:a1:customer" },
      { method: "POST", path: "/v1/payment_methods/pm_card_mastercard/attach", params: { customer: expect.stringMatching(/^cus_/) as string }, idempotencyKey: "b1:card:a1:attach" },
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


describe("Connect onboarding", () => {
  it("creates the sitter's Express account once, links to Stripe's onboarding and reads back whether payouts are enabled", async () => {
    const sitter = await sitterWithSlot();
    const row = () => db.selectFrom("users").select(["id", "email", "stripe_account_id", "payouts_enabled"]).where("id", "=", sitter.id).executeTakeFirstOrThrow();
    const urls = { returnUrl: "https://sitters.example/profile?payouts=return", refreshUrl: "https://sitters.example/profile?payouts=refresh" };
    const url = await payoutOnboardingLink(await row(), urls, "click-1");
    const { stripe_account_id: account } = await row();
    expect(account).toMatch(/^acct_/);
    expect(url).toBe(`https://connect.stripe.com/setup/e/${account!}/link_${url!.split("link_")[1]!}`);
    expect(fake.requests.map(({ method, path, params, idempotencyKey }) => ({ method, path, params, idempotencyKey }))).toEqual([
      {
        method: "POST",
        path: "/v1/accounts",
        params: { type: "express", email: sitter.email, "capabilities[transfers][requested]": "true", "metadata[user_id]": sitter.id },
        idempotencyKey: `${sitter.id}:connect-account`,
      },
      { method: "POST", path: "/v1/account_links", params: { account: account!, type: "account_onboarding", return_url: urls.returnUrl, refresh_url: urls.refreshUrl }, idempotencyKey: `${sitter.id}:account-link:click-1` },
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
  const keys = { STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" };
  it("test by default, stripe when the keys are set, and no start with stripe asked for but keys missing", async () => {
    const { parseEnv } = await import("~/platform/env.server");
    expect(parseEnv(base).PAYMENT_PROVIDER).toBe("test");
    expect(parseEnv({ ...base, STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: "" }).PAYMENT_PROVIDER).toBe("test");
    expect(parseEnv({ ...base, ...keys }).PAYMENT_PROVIDER).toBe("stripe");
    expect(parseEnv({ ...base, ...keys, PAYMENT_PROVIDER: "test" }).PAYMENT_PROVIDER).toBe("test");
    expect(parseEnv({ ...base, ...keys, DEMO_MODE: "true" }).PAYMENT_PROVIDER).toBe("test");
    expect(() => parseEnv({ ...base, PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_1" })).toThrow(/STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET/);
    expect(() => parseEnv({ ...base, ...keys, STRIPE_WEBHOOK_SECRET: undefined })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => parseEnv({ ...base, STRIPE_SECRET_KEY: "pk_wrong" })).toThrow(/STRIPE_SECRET_KEY/);
  });
});
