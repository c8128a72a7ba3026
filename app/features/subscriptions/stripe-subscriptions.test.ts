import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { advanceClock, resetClockAfterEach } from "~/testing/clock";
import { emailsTo, notificationsOf, person } from "~/testing/people";
import { serverError, type FakeStripe } from "~/testing/fake-stripe";
import { ownerWithPet } from "~/testing/bookings";
import { payableSitter, stripeRequest, withFakeStripe } from "~/testing/stripe";
import { startCardEntry } from "~/features/bookings/index.server";
import {
  paymentProvider,
  useStripeClient,
  createStripeClient,
  STRIPE_MAX_RETRIES,
  STRIPE_TIMEOUT_MS,
  receiveStripeWebhook,
  cardsOf,
} from "~/features/payments/index.server";
import { addCard, removeCard, setDefaultCard, startSubscriptionCardEntry } from "./cards.server";
import { actOnSubscription, checkout } from "./checkout.server";
import { finishCheckout, subscriptionStripeEvents } from "./processor.server";
import { runDueSubscriptionWork } from "./renewals.server";
import { isPremiumUser, liveSubscriptionOf } from "./subscriptions.server";

/**
 * Premium subscriptions billed by Stripe, through the real SDK against the fake Stripe API: the
 * exact requests of each step, their idempotency keys, the failures a person or the scheduler can
 * finish, and the webhooks that move our subscription after Stripe's.
 */

const SECRET = "whsec_test_subscriptions";
let fake: FakeStripe;
withFakeStripe((started) => (fake = started), { timeoutMs: 300 });
resetClockAfterEach();

const stripe = () => paymentProvider("stripe");
type Who = { id: string; email: string; name: string };

async function subscriber(): Promise<Who> {
  const who = await person("owner");
  const { name } = await db.selectFrom("users").select("name").where("id", "=", who.id).executeTakeFirstOrThrow();
  return { id: who.id, email: who.email, name };
}

/** What the checkout page (a plan) or 'Add a card' (null) does: start the card entry, let Stripe.js confirm the SetupIntent, post its id. */
async function enterCard(who: Who, attempt: string, last4 = "4242", planId: string | null = "monthly") {
  const entry = await startSubscriptionCardEntry(who, attempt, planId, stripe());
  if (entry.status !== "ready") throw new Error(`card entry refused: ${JSON.stringify(entry)}`);
  return {
    kind: "token" as const,
    token: fake.confirmSetupInBrowser(entry.clientSecret, { brand: "visa", last4 }),
    name: who.name,
  };
}

async function subscribe(who: Who, planId = "monthly", last4 = "4242", attempt = randomUUID()) {
  const card = await enterCard(who, attempt, last4, planId);
  return { attempt, outcome: await checkout(who, planId, card, attempt, stripe()) };
}

const customerOf = async (userId: string) =>
  (await db.selectFrom("users").select("stripe_customer_id").where("id", "=", userId).executeTakeFirstOrThrow())
    .stripe_customer_id!;
const subscriptionRow = (id: string) =>
  db.selectFrom("subscriptions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const withoutBookkeeping = () =>
  fake.requests.map(({ method, path, params, idempotencyKey }) => ({ method, path, params, idempotencyKey }));

function signedEvent(type: string, object: object, options: { id?: string; timestamp?: number; secret?: string } = {}) {
  const event = {
    id: options.id ?? `evt_${randomUUID().replaceAll("-", "")}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: { object },
  };
  const payload = JSON.stringify(event);
  return {
    payload,
    header: Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? SECRET,
      timestamp: options.timestamp,
    }),
  };
}
const deliver = ({ payload, header }: { payload: string; header: string }) =>
  receiveStripeWebhook(payload, header, subscriptionStripeEvents, { secret: SECRET });

describe("the Stripe client", () => {
  it("gives up on a request after a bounded time and retries it a bounded number of times, so no page waits on Stripe for long", () => {
    const client = createStripeClient({ secretKey: "sk_test_settings" }) as unknown as {
      getApiField(name: string): unknown;
    };
    expect(client.getApiField("timeout")).toBe(STRIPE_TIMEOUT_MS);
    expect(client.getApiField("maxNetworkRetries")).toBe(STRIPE_MAX_RETRIES);
    expect(STRIPE_TIMEOUT_MS * (STRIPE_MAX_RETRIES + 1)).toBeLessThanOrEqual(20_000);
  });

  it("a retried request carries the same idempotency key", async () => {
    useStripeClient(fake.client({ maxNetworkRetries: 1, timeoutMs: 300 }));
    const who = await subscriber();
    const { attempt } = await subscribe(who);
    const ref = (await subscriptionRow(attempt)).provider_subscription_ref!;
    fake.clear();
    fake.fail(`POST /v1/subscriptions/${ref}`, serverError(true));
    expect((await actOnSubscription(who.id, attempt, "cancel")).ok).toBe(true);
    const keys = fake.requests.map((request) => request.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[0]).toMatch(new RegExp(`^${attempt}:cancel:`));
  });
});

describe("checkout on Stripe", () => {
  it("makes a customer, a SetupIntent, the default card, a price for the plan and a subscription, with keys named after the person, the attempt and the action", async () => {
    const who = await subscriber();
    const { attempt, outcome } = await subscribe(who, "semiannual");
    expect(outcome.status).toBe("active");
    const customer = await customerOf(who.id);
    const method = [...fake.paymentMethods.values()].at(-1)!.id as string;
    const price = [...fake.prices.values()].at(-1)!;
    const remote = [...fake.subscriptions.values()].at(-1)!;

    expect(withoutBookkeeping()).toEqual([
      {
        method: "POST",
        path: "/v1/customers",
        params: { email: who.email, name: who.name, "metadata[user_id]": who.id },
        idempotencyKey: `${who.id}:customer`,
      },
      {
        method: "POST",
        path: "/v1/setup_intents",
        params: {
          customer,
          usage: "off_session",
          "allowed_payment_method_types[0]": "card",
          "metadata[purpose]": "subscription",
          "metadata[user_id]": who.id,
          "metadata[plan]": "semiannual",
        },
        idempotencyKey: `${who.id}:subscription-entry:semiannual:${attempt}`,
      },
      {
        method: "GET",
        path: expect.stringMatching(/^\/v1\/setup_intents\/seti_/) as string,
        params: { "expand[0]": "payment_method" },
        idempotencyKey: undefined,
      },
      {
        method: "POST",
        path: `/v1/customers/${customer}`,
        params: { "invoice_settings[default_payment_method]": method },
        idempotencyKey: expect.stringMatching(
          new RegExp(`^${who.id}:default-card:[\\w-]+:after:[\\w-]+:.+:customer$`),
        ) as string,
      },
      {
        method: "POST",
        path: "/v1/prices",
        params: {
          currency: "eur",
          unit_amount: "4999",
          "recurring[interval]": "month",
          "recurring[interval_count]": "6",
          "product_data[name]": "Trusted Sitters premium: 6 Months",
          "product_data[metadata][plan_id]": "semiannual",
          "metadata[plan_id]": "semiannual",
        },
        idempotencyKey: "price:semiannual:4999:eur:6m",
      },
      {
        method: "POST",
        path: "/v1/subscriptions",
        params: {
          customer,
          "items[0][price]": price.id,
          payment_behavior: "allow_incomplete",
          off_session: "true",
          "metadata[subscription_id]": attempt,
          "metadata[user_id]": who.id,
          "expand[0]": "latest_invoice.confirmation_secret",
          "expand[1]": "latest_invoice.payments",
        },
        idempotencyKey: `${attempt}:subscribe`,
      },
    ]);

    const row = await subscriptionRow(attempt);
    const item = (remote.items as { data: { current_period_start: number; current_period_end: number }[] }).data[0]!;
    expect(row).toMatchObject({
      status: "active",
      provider: "stripe",
      provider_subscription_ref: remote.id,
      billing_task: null,
      cancel_at_period_end: 0,
      current_period_start: new Date(item.current_period_start * 1000).toISOString(),
      current_period_end: new Date(item.current_period_end * 1000).toISOString(),
    });
    expect(await isPremiumUser(who.id)).toBe(true);
    expect((await cardsOf(who.id)).map((card) => [card.last4, card.isDefault])).toEqual([["4242", true]]);
    expect(
      await db
        .selectFrom("subscription_plans")
        .select("stripe_price_id")
        .where("id", "=", "semiannual")
        .executeTakeFirstOrThrow(),
    ).toEqual({ stripe_price_id: price.id });
    expect((await emailsTo(who.email)).length).toBeGreaterThan(0);
  });

  it("reuses the customer the person already has and the plan's price, and the scheduler charges nothing itself", async () => {
    const who = await subscriber();
    await subscribe(who, "monthly");
    const other = await subscriber();
    fake.clear();
    const { attempt } = await subscribe(other, "monthly");
    expect(fake.routes().filter((route) => route === "POST /v1/prices")).toEqual([]);
    fake.clear();
    // A month later, our scheduler leaves the renewal to Stripe.
    advanceClock(40 * 24 * 3600_000);
    await runDueSubscriptionWork();
    // It only reads Stripe's subscriptions whose renewal it has not heard of; it asks Stripe for no charge.
    expect(fake.routes().filter((route) => !route.startsWith("GET /v1/subscriptions/"))).toEqual([]);
    expect((await subscriptionRow(attempt)).status).toBe("active");
    expect(
      await db.selectFrom("subscription_payments").select("id").where("subscription_id", "=", attempt).execute(),
    ).toEqual([]);
  });

  it("a declined card leaves the checkout incomplete with the reason; a new card replaces it and the abandoned Stripe subscription is cancelled", async () => {
    const who = await subscriber();
    const first = await subscribe(who, "monthly", "0002");
    expect(first.outcome).toEqual({ status: "failed", code: "card_declined" });
    const failed = await subscriptionRow(first.attempt);
    expect(failed).toMatchObject({ status: "incomplete", last_payment_error: "card_declined", ended_at: null });
    expect(await isPremiumUser(who.id)).toBe(false);

    fake.clear();
    const second = await subscribe(who, "monthly", "4242");
    expect(second.outcome.status).toBe("active");
    expect(fake.routes()).toContain(`DELETE /v1/subscriptions/${failed.provider_subscription_ref}`);
    expect(fake.requests.find((request) => request.method === "DELETE")?.idempotencyKey).toBe(
      `${first.attempt}:cancel-now`,
    );
    expect(fake.subscriptions.get(failed.provider_subscription_ref!)?.status).toBe("canceled");
    expect((await subscriptionRow(first.attempt)).ended_at).not.toBeNull();
  });

  it("insufficient funds is told as such", async () => {
    const who = await subscriber();
    expect((await subscribe(who, "monthly", "9995")).outcome).toEqual({ status: "failed", code: "insufficient_funds" });
  });

  it("a card that needs 3-D Secure hands the page the payment's secret; once confirmed in the browser the subscription is active", async () => {
    const who = await subscriber();
    const { attempt, outcome } = await subscribe(who, "monthly", "3155");
    if (outcome.status !== "confirm") throw new Error(`expected confirm, got ${outcome.status}`);
    expect(outcome).toEqual({
      status: "confirm",
      subscriptionId: attempt,
      clientSecret: expect.stringMatching(/^pi_\w+_secret_/) as string,
    });
    expect(await subscriptionRow(attempt)).toMatchObject({
      status: "incomplete",
      last_payment_error: "authentication_required",
    });

    fake.confirmPaymentInBrowser(outcome.clientSecret);
    const finished = await finishCheckout(who.id, attempt);
    expect(finished.status).toBe("active");
    expect(await isPremiumUser(who.id)).toBe(true);
    // Someone else cannot finish it.
    expect(await finishCheckout((await subscriber()).id, attempt)).toEqual({ status: "refused", reason: "notFound" });
  });

  it("a failed 3-D Secure check is told, and the subscription stays unpaid", async () => {
    const who = await subscriber();
    const { attempt, outcome } = await subscribe(who, "monthly", "3155");
    if (outcome.status !== "confirm") throw new Error("expected confirm");
    fake.confirmPaymentInBrowser(outcome.clientSecret, false);
    expect(await finishCheckout(who.id, attempt)).toEqual({ status: "failed", code: "authentication_required" });
    expect(await isPremiumUser(who.id)).toBe(false);
  });

  it("a 500 from Stripe when subscribing leaves an incomplete checkout that the same Pay, or the scheduler, finishes with the same key", async () => {
    const who = await subscriber();
    const attempt = randomUUID();
    const card = await enterCard(who, attempt);
    fake.fail("POST /v1/subscriptions", serverError(true));
    expect(await checkout(who, "monthly", card, attempt, stripe())).toEqual({
      status: "failed",
      code: "processing_error",
    });
    expect(await subscriptionRow(attempt)).toMatchObject({
      status: "incomplete",
      provider_subscription_ref: null,
      billing_task: null,
    });

    // The person presses Pay again.
    expect((await checkout(who, "monthly", card, attempt, stripe())).status).toBe("active");
    const creations = fake.requests.filter(
      (request) => request.method === "POST" && request.path === "/v1/subscriptions",
    );
    expect(creations.map((request) => request.idempotencyKey)).toEqual([
      `${attempt}:subscribe`,
      `${attempt}:subscribe`,
    ]);
    expect(fake.subscriptions.size).toBeGreaterThan(0);
    expect(
      [...fake.subscriptions.values()].filter(
        (entry) => (entry.metadata as { subscription_id: string }).subscription_id === attempt,
      ),
    ).toHaveLength(1);
  });

  it("a timeout when subscribing: Stripe made the subscription, the scheduler asks again with the same key and gets it, never a second one", async () => {
    const who = await subscriber();
    const attempt = randomUUID();
    const card = await enterCard(who, attempt);
    fake.fail("POST /v1/subscriptions", "lost");
    expect(await checkout(who, "monthly", card, attempt, stripe())).toEqual({
      status: "failed",
      code: "processing_error",
    });
    expect((await subscriptionRow(attempt)).status).toBe("incomplete");
    expect(
      [...fake.subscriptions.values()].filter(
        (entry) => (entry.metadata as { subscription_id: string }).subscription_id === attempt,
      ),
    ).toHaveLength(1);

    await runDueSubscriptionWork();
    const row = await subscriptionRow(attempt);
    expect(row.status).toBe("active");
    expect(
      [...fake.subscriptions.values()].filter(
        (entry) => (entry.metadata as { subscription_id: string }).subscription_id === attempt,
      ),
    ).toHaveLength(1);
    expect(
      fake.requests.filter((request) => request.path === "/v1/subscriptions").map((request) => request.idempotencyKey),
    ).toEqual([`${attempt}:subscribe`, `${attempt}:subscribe`]);
  });

  it("with Stripe's keys gone, the scheduler's round still ends; once they are back it finishes the checkout", async () => {
    const who = await subscriber();
    const attempt = randomUUID();
    const card = await enterCard(who, attempt);
    fake.fail("POST /v1/subscriptions", "lost");
    expect(await checkout(who, "monthly", card, attempt, stripe())).toEqual({
      status: "failed",
      code: "processing_error",
    });

    useStripeClient(null);
    await expect(runDueSubscriptionWork()).resolves.toBeTypeOf("number");
    expect((await subscriptionRow(attempt)).status).toBe("incomplete");

    useStripeClient(fake.client({ timeoutMs: 300 }));
    await runDueSubscriptionWork();
    expect((await subscriptionRow(attempt)).status).toBe("active");
  });

  it("a plan change is not offered on Stripe: the person is told to choose the new plan when the current one ends", async () => {
    const who = await subscriber();
    await subscribe(who, "monthly");
    expect((await subscribe(who, "yearly")).outcome).toEqual({ status: "refused", reason: "switchAtPeriodEnd" });
  });
});

describe("cancel and reactivate on Stripe", () => {
  it("cancel sets cancel_at_period_end at Stripe, then here; reactivate withdraws it; each change has its own key and a retry after a 500 repeats it", async () => {
    const who = await subscriber();
    const { attempt } = await subscribe(who);
    const ref = (await subscriptionRow(attempt)).provider_subscription_ref!;
    const before = (await subscriptionRow(attempt)).updated_at;
    fake.clear();

    fake.fail(`POST /v1/subscriptions/${ref}`, serverError(true));
    expect(await actOnSubscription(who.id, attempt, "cancel")).toEqual({ ok: false, refusal: "unavailable" });
    expect((await subscriptionRow(attempt)).cancel_at_period_end).toBe(0);
    const cancelled = await actOnSubscription(who.id, attempt, "cancel");
    expect(cancelled.ok && cancelled.subscription.cancel_at_period_end).toBe(1);
    expect(fake.subscriptions.get(ref)?.cancel_at_period_end).toBe(true);
    expect(await isPremiumUser(who.id)).toBe(true);

    const afterCancel = (await subscriptionRow(attempt)).updated_at;
    const reactivated = await actOnSubscription(who.id, attempt, "reactivate");
    expect(reactivated.ok && reactivated.subscription.cancel_at_period_end).toBe(0);
    expect(fake.subscriptions.get(ref)?.cancel_at_period_end).toBe(false);

    // Cancelling twice asks Stripe once.
    const afterReactivate = (await subscriptionRow(attempt)).updated_at;
    await actOnSubscription(who.id, attempt, "cancel");
    await actOnSubscription(who.id, attempt, "cancel");
    expect(withoutBookkeeping()).toEqual([
      ...[1, 2].map(() => ({
        method: "POST",
        path: `/v1/subscriptions/${ref}`,
        params: {
          cancel_at_period_end: "true",
          "expand[0]": "latest_invoice.confirmation_secret",
          "expand[1]": "latest_invoice.payments",
        },
        idempotencyKey: `${attempt}:cancel:${before}`,
      })),
      {
        method: "POST",
        path: `/v1/subscriptions/${ref}`,
        params: {
          cancel_at_period_end: "false",
          "expand[0]": "latest_invoice.confirmation_secret",
          "expand[1]": "latest_invoice.payments",
        },
        idempotencyKey: `${attempt}:reactivate:${afterCancel}`,
      },
      {
        method: "POST",
        path: `/v1/subscriptions/${ref}`,
        params: {
          cancel_at_period_end: "true",
          "expand[0]": "latest_invoice.confirmation_secret",
          "expand[1]": "latest_invoice.payments",
        },
        idempotencyKey: `${attempt}:cancel:${afterReactivate}`,
      },
    ]);
    // Someone else's subscription does not exist for them, and nothing is asked of Stripe.
    expect(await actOnSubscription((await subscriber()).id, attempt, "reactivate")).toEqual({
      ok: false,
      refusal: "notFound",
    });
    expect(fake.requests).toHaveLength(4);
  });

  it("a network timeout on cancel changes nothing here; the person can try again", async () => {
    const who = await subscriber();
    const { attempt } = await subscribe(who);
    const ref = (await subscriptionRow(attempt)).provider_subscription_ref!;
    fake.fail(`POST /v1/subscriptions/${ref}`, "hang");
    expect(await actOnSubscription(who.id, attempt, "cancel")).toEqual({ ok: false, refusal: "unavailable" });
    expect((await subscriptionRow(attempt)).cancel_at_period_end).toBe(0);
    expect((await actOnSubscription(who.id, attempt, "cancel")).ok).toBe(true);
  });
});

describe("saved cards on Stripe", () => {
  it("adds a card through a SetupIntent, makes it the default at Stripe (customer and subscription), and removes one by detaching it", async () => {
    const who = await subscriber();
    const { attempt } = await subscribe(who);
    const ref = (await subscriptionRow(attempt)).provider_subscription_ref!;
    const customer = await customerOf(who.id);
    const cardAttempt = randomUUID();
    const card = await enterCard(who, cardAttempt, "5555", null);
    expect((await addCard(who, card, cardAttempt, {}, stripe())).status).toBe("saved");
    const cards = await cardsOf(who.id);
    expect(cards.map((entry) => [entry.last4, entry.isDefault])).toEqual([
      ["4242", true],
      ["5555", false],
    ]);
    const newMethod = [...fake.paymentMethods.values()].at(-1)!.id as string;
    const oldDefault = await db
      .selectFrom("payment_methods")
      .select(["id", "default_since"])
      .where("id", "=", cards[0]!.id)
      .executeTakeFirstOrThrow();
    fake.clear();

    fake.fail(`POST /v1/customers/${customer}`, serverError(true));
    expect(await setDefaultCard(who.id, cards[1]!.id)).toEqual({ ok: false, reason: "unavailable" });
    expect((await cardsOf(who.id))[0]!.last4).toBe("4242");
    expect(await setDefaultCard(who.id, cards[1]!.id)).toEqual({ ok: true });
    const key = `${who.id}:default-card:${cards[1]!.id}:after:${oldDefault.id}:${oldDefault.default_since}`;
    expect(withoutBookkeeping()).toEqual([
      {
        method: "POST",
        path: `/v1/customers/${customer}`,
        params: { "invoice_settings[default_payment_method]": newMethod },
        idempotencyKey: `${key}:customer`,
      },
      {
        method: "POST",
        path: `/v1/customers/${customer}`,
        params: { "invoice_settings[default_payment_method]": newMethod },
        idempotencyKey: `${key}:customer`,
      },
      {
        method: "POST",
        path: `/v1/subscriptions/${ref}`,
        params: { default_payment_method: newMethod },
        idempotencyKey: `${key}:subscription`,
      },
    ]);
    expect(fake.subscriptions.get(ref)?.default_payment_method).toBe(newMethod);
    expect((await cardsOf(who.id))[0]).toMatchObject({ last4: "5555", isDefault: true });

    // Back to the first card: a new change, so a new key (a replay would leave Stripe on the second card).
    fake.clear();
    expect(await setDefaultCard(who.id, cards[0]!.id)).toEqual({ ok: true });
    expect(fake.requests[0]!.idempotencyKey).not.toBe(`${key}:customer`);
    const oldMethod = (
      await db
        .selectFrom("payment_methods")
        .select("provider_ref")
        .where("id", "=", cards[0]!.id)
        .executeTakeFirstOrThrow()
    ).provider_ref.split(":")[1];
    expect(fake.subscriptions.get(ref)?.default_payment_method).toBe(oldMethod);

    // Removing the card that is not the default detaches it.
    fake.clear();
    expect(await removeCard(who.id, cards[1]!.id)).toEqual({ ok: true });
    expect(withoutBookkeeping()).toEqual([
      {
        method: "POST",
        path: `/v1/payment_methods/${newMethod}/detach`,
        params: {},
        idempotencyKey: `remove:${cards[1]!.id}`,
      },
    ]);
    expect(fake.paymentMethods.get(newMethod)?.customer).toBeNull();
    // The last card of a renewing subscription stays.
    expect(await removeCard(who.id, cards[0]!.id)).toEqual({ ok: false, reason: "inUse" });
  });
});

describe("a card entry is taken only from its person, for what it was made for", () => {
  it("a checkout refuses another person's SetupIntent, one made for a booking, for 'Add a card' or for another plan, and saves nothing; the rightful one subscribes", async () => {
    const who = await subscriber();
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());
    const bookingEntry = await startCardEntry(owner, booking.id, randomUUID());
    if (bookingEntry.status !== "ready") throw new Error("no entry");
    const forBooking = {
      kind: "token" as const,
      token: fake.confirmSetupInBrowser(bookingEntry.clientSecret),
      name: owner.name,
    };

    const refused = { status: "failed", code: "foreign_card" };
    expect(
      await checkout(who, "monthly", await enterCard(await subscriber(), randomUUID()), randomUUID(), stripe()),
    ).toEqual(refused);
    expect(await checkout(owner, "monthly", forBooking, randomUUID(), stripe())).toEqual(refused);
    expect(
      await checkout(who, "monthly", await enterCard(who, randomUUID(), "4242", null), randomUUID(), stripe()),
    ).toEqual(refused);
    expect(
      await checkout(who, "monthly", await enterCard(who, randomUUID(), "4242", "yearly"), randomUUID(), stripe()),
    ).toEqual(refused);
    for (const person of [who.id, owner.id]) {
      expect(await db.selectFrom("payment_methods").select("id").where("user_id", "=", person).execute()).toEqual([]);
      expect(await db.selectFrom("subscriptions").select("id").where("user_id", "=", person).execute()).toEqual([]);
    }
    expect(
      fake.routes().filter((route) => route === "POST /v1/subscriptions" || route.startsWith("POST /v1/customers/")),
    ).toEqual([]);

    expect((await subscribe(who, "yearly")).outcome.status).toBe("active");
  });

  it("'Add a card' refuses another person's SetupIntent and a checkout's, and keeps its own", async () => {
    const who = await subscriber();
    const theirs = await enterCard(await subscriber(), randomUUID(), "4242", null);
    expect(await addCard(who, theirs, randomUUID(), {}, stripe())).toEqual({ status: "failed", code: "foreign_card" });
    expect(await addCard(who, await enterCard(who, randomUUID()), randomUUID(), {}, stripe())).toEqual({
      status: "failed",
      code: "foreign_card",
    });
    expect(await cardsOf(who.id)).toEqual([]);
    expect(
      (await addCard(who, await enterCard(who, randomUUID(), "5555", null), randomUUID(), {}, stripe())).status,
    ).toBe("saved");
    expect((await cardsOf(who.id)).map((card) => card.last4)).toEqual(["5555"]);
  });
});

describe("subscription webhooks", () => {
  async function activeSubscription() {
    const who = await subscriber();
    const { attempt } = await subscribe(who);
    const row = await subscriptionRow(attempt);
    return { who, id: attempt, ref: row.provider_subscription_ref! };
  }

  it("a renewal Stripe charged moves the period on once, however many times the event comes", async () => {
    const { who, id, ref } = await activeSubscription();
    const before = await subscriptionRow(id);
    const mailsBefore = (await emailsTo(who.email)).length;
    fake.renew(ref);
    const event = signedEvent("invoice.paid", {
      id: fake.subscriptions.get(ref)!.latest_invoice,
      object: "invoice",
      parent: { type: "subscription_details", subscription_details: { subscription: ref } },
    });
    const answers = [];
    for (let delivery = 0; delivery < 10; delivery += 1) answers.push(await deliver(event));
    expect(answers[0]).toEqual({ status: 200, message: "applied" });
    expect(answers.slice(1).every((answer) => answer.status === 200 && answer.message === "Already processed")).toBe(
      true,
    );
    const after = await subscriptionRow(id);
    expect(after.current_period_start).toBe(before.current_period_end);
    expect(after.period_index).toBe(before.period_index + 1);
    // One receipt for the renewal.
    expect((await emailsTo(who.email)).length).toBe(mailsBefore + 1);

    // Another event about the same renewal (a different id) changes nothing more.
    expect(await deliver(signedEvent("customer.subscription.updated", fake.subscriptionObject(ref)))).toEqual({
      status: 200,
      message: "ignored: unchanged",
    });
    expect((await subscriptionRow(id)).updated_at).toBe(after.updated_at);
    expect((await emailsTo(who.email)).length).toBe(mailsBefore + 1);
  });

  it("a failed renewal makes it past due (perks kept, the person told), an exhausted one unpaid, and a later payment active again", async () => {
    const { who, id, ref } = await activeSubscription();
    const card = await db
      .selectFrom("payment_methods")
      .select("provider_ref")
      .where("user_id", "=", who.id)
      .executeTakeFirstOrThrow();
    fake.paymentMethods.get(card.provider_ref.split(":")[1]!)!.card = {
      brand: "visa",
      last4: "0002",
      exp_month: 12,
      exp_year: 2030,
    };
    fake.renew(ref);
    const invoice = {
      id: fake.subscriptions.get(ref)!.latest_invoice,
      object: "invoice",
      parent: { type: "subscription_details", subscription_details: { subscription: ref } },
    };
    expect(await deliver(signedEvent("invoice.payment_failed", invoice))).toEqual({ status: 200, message: "applied" });
    expect(await subscriptionRow(id)).toMatchObject({ status: "past_due", last_payment_error: "card_declined" });
    expect(await isPremiumUser(who.id)).toBe(true);
    expect((await notificationsOf(who.id)).some((notice) => notice.data.includes("renewalFailed"))).toBe(true);

    fake.subscriptions.get(ref)!.status = "unpaid";
    expect(await deliver(signedEvent("customer.subscription.updated", fake.subscriptionObject(ref)))).toEqual({
      status: 200,
      message: "applied",
    });
    expect((await subscriptionRow(id)).status).toBe("unpaid");
    expect(await isPremiumUser(who.id)).toBe(false);

    // The person pays now with a working card: Stripe pays the open invoice.
    fake.paymentMethods.get(card.provider_ref.split(":")[1]!)!.card = {
      brand: "visa",
      last4: "4242",
      exp_month: 12,
      exp_year: 2030,
    };
    fake.clear();
    const retried = await actOnSubscription(who.id, id, "retry");
    expect(retried.ok && retried.subscription.status).toBe("active");
    expect(fake.routes()).toContain(`POST /v1/invoices/${String(invoice.id)}/pay`);
  });

  it("out of order: an older 'updated' delivered after a newer one does not roll the subscription back", async () => {
    const { who, id, ref } = await activeSubscription();
    const older = fake.subscriptionObject(ref);
    expect((await actOnSubscription(who.id, id, "cancel")).ok).toBe(true);
    const newer = signedEvent("customer.subscription.updated", fake.subscriptionObject(ref));
    await deliver(newer);
    expect(await deliver(signedEvent("customer.subscription.updated", older))).toMatchObject({ status: 200 });
    expect((await subscriptionRow(id)).cancel_at_period_end).toBe(1);
  });

  it("deleted at the period's end: the subscription is over and the person told", async () => {
    const { who, id, ref } = await activeSubscription();
    expect((await actOnSubscription(who.id, id, "cancel")).ok).toBe(true);
    fake.renew(ref);
    expect(await deliver(signedEvent("customer.subscription.deleted", fake.subscriptionObject(ref)))).toEqual({
      status: 200,
      message: "applied",
    });
    const row = await subscriptionRow(id);
    expect(row).toMatchObject({ status: "canceled" });
    expect(row.ended_at).not.toBeNull();
    expect(await liveSubscriptionOf(who.id)).toBeUndefined();
    expect((await notificationsOf(who.id)).some((notice) => notice.data.includes("ended"))).toBe(true);
    // An ended subscription does not come back with a late event.
    expect(
      (
        await deliver(
          signedEvent("customer.subscription.updated", { ...fake.subscriptionObject(ref), status: "active" }),
        )
      ).message,
    ).toBe("ignored: wrongState");
  });

  it("a renewal whose webhook never came is picked up by the scheduler a day after the period ended", async () => {
    const { id, ref } = await activeSubscription();
    const before = await subscriptionRow(id);
    fake.renew(ref);
    advanceClock(new Date(before.current_period_end!).getTime() - now().getTime() + 25 * 3600_000);
    expect(await isPremiumUser((await subscriptionRow(id)).user_id)).toBe(false);
    fake.clear();
    await runDueSubscriptionWork();
    expect(fake.routes()).toContain(`GET /v1/subscriptions/${ref}`);
    expect(fake.routes().filter((route) => route.startsWith("POST"))).toEqual([]);
    const after = await subscriptionRow(id);
    expect(after.current_period_start).toBe(before.current_period_end);
    expect(await isPremiumUser(after.user_id)).toBe(true);
  });

  it("created, for a checkout whose answer never came, links and activates it", async () => {
    const who = await subscriber();
    const attempt = randomUUID();
    const card = await enterCard(who, attempt);
    fake.fail("POST /v1/subscriptions", "lost");
    await checkout(who, "monthly", card, attempt, stripe());
    const remote = [...fake.subscriptions.values()].find(
      (entry) => (entry.metadata as { subscription_id: string }).subscription_id === attempt,
    )!;
    expect(
      await deliver(signedEvent("customer.subscription.created", fake.subscriptionObject(remote.id as string))),
    ).toEqual({ status: 200, message: "applied" });
    expect(await subscriptionRow(attempt)).toMatchObject({ status: "active", provider_subscription_ref: remote.id });
  });

  it("tampered, stale and unsigned events are refused and change nothing; a Stripe outage while reading answers 500 so Stripe sends it again", async () => {
    const { id, ref } = await activeSubscription();
    fake.subscriptions.get(ref)!.cancel_at_period_end = true;
    const event = signedEvent("customer.subscription.updated", fake.subscriptionObject(ref));
    expect(
      await deliver({
        payload: event.payload.replace('"cancel_at_period_end":true', '"cancel_at_period_end":false'),
        header: event.header,
      }),
    ).toEqual({ status: 400, message: "Invalid signature" });
    expect(
      await deliver(
        signedEvent("customer.subscription.updated", fake.subscriptionObject(ref), {
          timestamp: Math.floor(Date.now() / 1000) - 3600,
        }),
      ),
    ).toEqual({ status: 400, message: "Invalid signature" });
    expect(
      await deliver(
        signedEvent("customer.subscription.updated", fake.subscriptionObject(ref), { secret: "whsec_someone_else" }),
      ),
    ).toEqual({ status: 400, message: "Invalid signature" });
    expect((await subscriptionRow(id)).cancel_at_period_end).toBe(0);

    fake.fail(`GET /v1/subscriptions/${ref}`, serverError(true));
    expect(await deliver(event)).toEqual({ status: 500, message: "Processing failed" });
    expect((await subscriptionRow(id)).cancel_at_period_end).toBe(0);
    expect(await deliver(event)).toEqual({ status: 200, message: "applied" });
    expect((await subscriptionRow(id)).cancel_at_period_end).toBe(1);
  });

  it("a subscription we no longer keep that Stripe still bills is cancelled there", async () => {
    const { who, id, ref } = await activeSubscription();
    await db.updateTable("subscriptions").set({ ended_at: now().toISOString() }).where("id", "=", id).execute();
    expect((await deliver(signedEvent("customer.subscription.updated", fake.subscriptionObject(ref)))).status).toBe(
      200,
    );
    expect(fake.subscriptions.get(ref)?.status).toBe("canceled");
    expect(who.id).toBeTruthy();
  });
});
