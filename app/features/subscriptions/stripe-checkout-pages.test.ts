import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // The app as an operator configures it for Stripe (the keys are parsed when its modules load).
  process.env.PAYMENT_PROVIDER = "stripe";
  process.env.STRIPE_SECRET_KEY = "sk_test_pages";
  process.env.STRIPE_PUBLISHABLE_KEY = "pk_test_pages";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_test_pages";
});

import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import type { FakeStripe } from "~/testing/fake-stripe";
import { withFakeStripe } from "~/testing/stripe";
import { action as cardEntryAction } from "~/routes/subscription-card-entry";
import { action as cardNewAction, loader as cardNewLoader } from "~/routes/subscription-card-new";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/subscription-checkout";
import { action as subscriptionAction } from "~/routes/subscription";
import { action as webhookAction } from "~/routes/webhooks-stripe";

/**
 * The subscription pages with PAYMENT_PROVIDER=stripe, through their loaders and actions as the
 * browser calls them (Stripe.js's part played by the fake Stripe): what each answers.
 */

let fake: FakeStripe;
withFakeStripe((started) => (fake = started), { timeoutMs: 500 });

type Handler = (args: { request: Request; params: Record<string, string>; context: object }) => Promise<unknown>;

/** Calls a loader or action; a thrown Response (or single-fetch data) is its answer too. */
async function call(
  handler: Handler,
  cookie: string,
  path: string,
  form?: Record<string, string>,
  params: Record<string, string> = {},
) {
  const request = new Request(`http://localhost${path}`, {
    method: form ? "POST" : "GET",
    headers: { Cookie: cookie, ...(form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(form) : undefined,
  });
  let result: unknown;
  try {
    result = await handler({ request, params, context: {} });
  } catch (thrown) {
    result = thrown;
  }
  if (result instanceof Response)
    return {
      status: result.status,
      location: result.headers.get("Location"),
      body: result.headers.get("Content-Type")?.includes("json") ? ((await result.json()) as unknown) : null,
    };
  const init = (result as { init?: { status?: number } }).init;
  const body = init !== undefined && "data" in (result as object) ? (result as { data: unknown }).data : result;
  return { status: init?.status ?? 200, location: null, body };
}

/** The browser's part: ask for the SetupIntent (for a plan's checkout, or with null for 'Add a card'), let Stripe.js confirm it with a card. */
async function cardEntry(cookie: string, attempt: string, last4 = "4242", plan: string | null = "monthly") {
  const entry = await call(
    cardEntryAction as Handler,
    cookie,
    plan === null ? "/subscription/card-entry" : `/subscription/card-entry?plan=${plan}`,
    { attempt },
  );
  expect(entry.status).toBe(200);
  return fake.confirmSetupInBrowser((entry.body as { clientSecret: string }).clientSecret, { brand: "visa", last4 });
}

describe("the subscription pages on Stripe", () => {
  it("the checkout gives the page Stripe's key, and Pay with a confirmed card subscribes and says so", async () => {
    const who = await person("owner", { signedIn: true });
    const page = await call(checkoutLoader as Handler, who.cookie, "/subscription/checkout/monthly", undefined, {
      planId: "monthly",
    });
    const { attempt, stripe } = page.body as { attempt: string; stripe: { publishableKey: string } };
    expect(stripe).toEqual({ publishableKey: "pk_test_pages" });

    const setupIntent = await cardEntry(who.cookie, attempt);
    const paid = await call(
      checkoutAction as Handler,
      who.cookie,
      "/subscription/checkout/monthly",
      { intent: "stripe", setupIntent, name: who.name, attempt },
      { planId: "monthly" },
    );
    expect(paid).toMatchObject({ status: 302, location: "/subscription?tab=mine" });
    expect(
      await db
        .selectFrom("subscriptions")
        .select(["status", "provider"])
        .where("id", "=", attempt)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: "active", provider: "stripe" });

    // Choosing another plan while this one runs is refused on Stripe, with the reason.
    const other = await call(checkoutLoader as Handler, who.cookie, "/subscription/checkout/yearly", undefined, {
      planId: "yearly",
    });
    expect(other).toMatchObject({ status: 302, location: "/subscription" });

    // Cancel from 'My subscription' goes through Stripe.
    const cancelled = await call(subscriptionAction as Handler, who.cookie, "/subscription", {
      intent: "cancel",
      subscriptionId: attempt,
    });
    expect(cancelled).toMatchObject({ status: 302, location: "/subscription?tab=mine" });
    const ref = (
      await db
        .selectFrom("subscriptions")
        .select("provider_subscription_ref")
        .where("id", "=", attempt)
        .executeTakeFirstOrThrow()
    ).provider_subscription_ref!;
    expect(fake.subscriptions.get(ref)?.cancel_at_period_end).toBe(true);
  });

  it("a card that needs 3-D Secure: the action hands the page the payment to confirm, then 'stripe-confirmed' finishes the checkout", async () => {
    const who = await person("owner", { signedIn: true });
    const attempt = randomUUID();
    const setupIntent = await cardEntry(who.cookie, attempt, "3155");
    const answer = await call(
      checkoutAction as Handler,
      who.cookie,
      "/subscription/checkout/monthly",
      { intent: "stripe", setupIntent, name: who.name, attempt },
      { planId: "monthly" },
    );
    expect(answer.status).toBe(200);
    const { stripeConfirm } = answer.body as { stripeConfirm: { clientSecret: string; subscriptionId: string } };
    expect(stripeConfirm.subscriptionId).toBe(attempt);

    fake.confirmPaymentInBrowser(stripeConfirm.clientSecret);
    const finished = await call(
      checkoutAction as Handler,
      who.cookie,
      "/subscription/checkout/monthly",
      { intent: "stripe-confirmed", subscriptionId: attempt, attempt: randomUUID() },
      { planId: "monthly" },
    );
    expect(finished).toMatchObject({ status: 302, location: "/subscription?tab=mine" });
  });

  it("a declined card and a bad post are answered with a message and a 4xx, never a 500", async () => {
    const who = await person("owner", { signedIn: true });
    const attempt = randomUUID();
    const setupIntent = await cardEntry(who.cookie, attempt, "0002");
    const declined = await call(
      checkoutAction as Handler,
      who.cookie,
      "/subscription/checkout/monthly",
      { intent: "stripe", setupIntent, name: who.name, attempt },
      { planId: "monthly" },
    );
    expect(declined).toEqual({
      status: 402,
      location: null,
      body: { stripeErrors: ["bookings:payment.failed", "subscription:paymentErrors.card_declined"] },
    });

    const badPosts: Record<string, string>[] = [
      { intent: "stripe", setupIntent: "nope", name: "x", attempt },
      { intent: "stripe-confirmed", attempt },
      { intent: "stripe", setupIntent, name: "", attempt },
    ];
    for (const form of badPosts) {
      expect(
        (
          await call(checkoutAction as Handler, who.cookie, "/subscription/checkout/monthly", form, {
            planId: "monthly",
          })
        ).status,
      ).toBe(400);
    }
    expect(
      (await call(cardEntryAction as Handler, who.cookie, "/subscription/card-entry", { attempt: "x" })).status,
    ).toBe(400);
    expect(
      (await call(cardEntryAction as Handler, who.cookie, "/subscription/card-entry?plan=%3Cscript%3E", { attempt }))
        .status,
    ).toBe(400);
    expect(
      (await call(cardEntryAction as Handler, who.cookie, "/subscription/card-entry?plan=nope", { attempt })).status,
    ).toBe(404);
  });

  it("a SetupIntent of another person, of 'Add a card' or of another plan does not check out, and one of a checkout is not added as a card: each is told, nothing is saved", async () => {
    const who = await person("owner", { signedIn: true });
    const other = await person("owner", { signedIn: true });
    const refused = {
      status: 402,
      location: null,
      body: { stripeErrors: ["bookings:payment.failed", "subscription:paymentErrors.foreign_card"] },
    };
    const pay = (setupIntent: string, plan = "monthly") =>
      call(
        checkoutAction as Handler,
        who.cookie,
        `/subscription/checkout/${plan}`,
        { intent: "stripe", setupIntent, name: who.name, attempt: randomUUID() },
        { planId: plan },
      );

    expect(await pay(await cardEntry(other.cookie, randomUUID()))).toEqual(refused);
    expect(await pay(await cardEntry(who.cookie, randomUUID(), "4242", null))).toEqual(refused);
    expect(await pay(await cardEntry(who.cookie, randomUUID(), "4242", "yearly"))).toEqual(refused);
    const forCheckout = await cardEntry(who.cookie, randomUUID());
    expect(
      await call(cardNewAction as Handler, who.cookie, "/subscription/cards/new", {
        intent: "stripe",
        setupIntent: forCheckout,
        name: who.name,
        attempt: randomUUID(),
      }),
    ).toEqual(refused);
    expect(await db.selectFrom("payment_methods").select("id").where("user_id", "=", who.id).execute()).toEqual([]);
    expect(await db.selectFrom("subscriptions").select("id").where("user_id", "=", who.id).execute()).toEqual([]);
    expect(
      fake.routes().filter((route) => route === "POST /v1/subscriptions" || route.startsWith("POST /v1/customers/")),
    ).toEqual([]);

    // The rightful one still works.
    expect(await pay(forCheckout)).toMatchObject({ status: 302, location: "/subscription?tab=mine" });
  });

  it("'Add a payment method' saves a card made in Stripe's field", async () => {
    const who = await person("owner", { signedIn: true });
    const page = await call(cardNewLoader as Handler, who.cookie, "/subscription/cards/new");
    const { attempt, stripe } = page.body as { attempt: string; stripe: { publishableKey: string } };
    expect(stripe).toEqual({ publishableKey: "pk_test_pages" });
    const setupIntent = await cardEntry(who.cookie, attempt, "5555", null);
    expect(
      await call(cardNewAction as Handler, who.cookie, "/subscription/cards/new", {
        intent: "stripe",
        setupIntent,
        name: who.name,
        attempt,
      }),
    ).toMatchObject({ status: 302, location: "/subscription?tab=mine" });
    expect(
      await db
        .selectFrom("payment_methods")
        .select(["last4", "is_default", "provider"])
        .where("user_id", "=", who.id)
        .execute(),
    ).toEqual([{ last4: "5555", is_default: 1, provider: "stripe" }]);
  });

  it("POST /webhooks/stripe applies a signed subscription event once", async () => {
    const who = await person("owner", { signedIn: true });
    const attempt = randomUUID();
    const setupIntent = await cardEntry(who.cookie, attempt);
    await call(
      checkoutAction as Handler,
      who.cookie,
      "/subscription/checkout/monthly",
      { intent: "stripe", setupIntent, name: who.name, attempt },
      { planId: "monthly" },
    );
    const ref = (
      await db
        .selectFrom("subscriptions")
        .select("provider_subscription_ref")
        .where("id", "=", attempt)
        .executeTakeFirstOrThrow()
    ).provider_subscription_ref!;
    fake.subscriptions.get(ref)!.cancel_at_period_end = true;
    const payload = JSON.stringify({
      id: `evt_${randomUUID().replaceAll("-", "")}`,
      object: "event",
      type: "customer.subscription.updated",
      created: Math.floor(Date.now() / 1000),
      data: { object: fake.subscriptionObject(ref) },
    });
    const deliver = () =>
      webhookAction({
        request: new Request("http://localhost/webhooks/stripe", {
          method: "POST",
          body: payload,
          headers: {
            "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_test_pages" }),
          },
        }),
        params: {},
        context: { cspNonce: "", clientAddress: "127.0.0.1" },
      });
    const first = await deliver();
    expect([first.status, await first.text()]).toEqual([200, "applied"]);
    const again = await deliver();
    expect([again.status, await again.text()]).toEqual([200, "Already processed"]);
    expect(
      (
        await db
          .selectFrom("subscriptions")
          .select("cancel_at_period_end")
          .where("id", "=", attempt)
          .executeTakeFirstOrThrow()
      ).cancel_at_period_end,
    ).toBe(1);
  });
});
