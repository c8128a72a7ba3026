import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { describe, expect, it, vi } from "vitest";
import { db } from "~/platform/db.server";
import { connectStripeEvents } from "./connect.server";
import { receiveStripeWebhook } from "./stripe-webhooks.server";
import { payableSitter } from "~/testing/stripe";
import { logger } from "~/platform/log.server";

const SECRET = "whsec_test_webhooks";

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

function signed(event: object) {
  const payload = JSON.stringify(event);
  return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }) };
}

async function deliver(event: object) {
  const { payload, header } = signed(event);
  return receiveStripeWebhook(payload, header, connectStripeEvents, { secret: SECRET });
}

const storedEvents = (id: string) => db.selectFrom("stripe_events").selectAll().where("id", "=", id).execute();

describe("what each event does", () => {
  it("account.updated marks a sitter's payouts ready (and not ready again)", async () => {
    const sitter = await payableSitter();
    const account = `acct_onboarding${sitter.id.slice(0, 6)}`;
    await db
      .updateTable("users")
      .set({ stripe_account_id: account, payouts_enabled: 0 })
      .where("id", "=", sitter.id)
      .execute();
    const payouts = async () =>
      (await db.selectFrom("users").select("payouts_enabled").where("id", "=", sitter.id).executeTakeFirstOrThrow())
        .payouts_enabled;

    expect(
      await deliver(
        stripeEvent("account.updated", {
          id: account,
          object: "account",
          details_submitted: true,
          payouts_enabled: false,
        }),
      ),
    ).toMatchObject({ message: "ignored: unchanged" });
    expect(await payouts()).toBe(0);
    expect(
      await deliver(
        stripeEvent("account.updated", {
          id: account,
          object: "account",
          details_submitted: true,
          payouts_enabled: true,
        }),
      ),
    ).toMatchObject({ message: "applied" });
    expect(await payouts()).toBe(1);
    expect(
      await deliver(
        stripeEvent("account.updated", {
          id: account,
          object: "account",
          details_submitted: true,
          payouts_enabled: false,
        }),
      ),
    ).toMatchObject({ message: "applied" });
    expect(await payouts()).toBe(0);
  });

  it("event types nobody handles yet are kept and answered 200; a handler that fails is retried on the next delivery", async () => {
    const customer = stripeEvent("customer.created", { id: "cus_1", object: "customer" });
    expect(await deliver(customer)).toEqual({ status: 200, message: "unhandled" });
    expect(await storedEvents(customer.id)).toEqual([expect.objectContaining({ outcome: "unhandled" })]);

    const event = stripeEvent("invoice.paid", { id: "in_1", object: "invoice" });
    const { payload, header } = signed(event);
    let calls = 0;
    const handlers = {
      "invoice.paid": async () => {
        calls += 1;
        if (calls === 1) throw new Error("database busy");
        return "applied" as const;
      },
    };
    const error = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    expect(await receiveStripeWebhook(payload, header, handlers, { secret: SECRET })).toEqual({
      status: 500,
      message: "Processing failed",
    });
    error.mockRestore();
    expect(await receiveStripeWebhook(payload, header, handlers, { secret: SECRET })).toEqual({
      status: 200,
      message: "applied",
    });
    expect(await receiveStripeWebhook(payload, header, handlers, { secret: SECRET })).toEqual({
      status: 200,
      message: "Already processed",
    });
    expect(calls).toBe(2);
  });
});
