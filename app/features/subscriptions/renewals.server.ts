import { randomUUID } from "node:crypto";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { serialized } from "~/platform/lock.server";
import { deliverSoon } from "~/platform/email.server";
import { defaultCardOf, paymentProvider } from "~/features/payments/index.server";
import type { PaymentFailureCode } from "~/features/payments";
import type { Actor, PlanFacts, SubscriptionEvent } from "./machine";
import { reconcileProcessorSubscription, subscribeAtProcessor } from "./processor.server";
import {
  applyInTransaction,
  findSubscription,
  SELF_BILLING_PROVIDERS,
  transition,
  type TransitionResult,
} from "./subscriptions.server";
import { logger } from "~/platform/log.server";

/** Charges commit first, then the provider is called with an idempotency key; a crash leaves `billing_task` for the scheduler. */

export async function transitionAndCharge(
  id: string,
  actor: Actor,
  event: SubscriptionEvent,
): Promise<TransitionResult> {
  const result = await transition(id, actor, event);
  if (!result.ok || !result.subscription.billing_task) return result;
  await runCharge(id);
  return { ok: true, subscription: (await findSubscription(id))! };
}

export function runCharge(id: string): Promise<void> {
  return serialized(`subscription-charge:${id}`, async () => {
    const subscription = await findSubscription(id);
    if (!subscription?.billing_task) return;
    const planId =
      subscription.status === "incomplete"
        ? subscription.plan_id
        : (subscription.pending_plan_id ?? subscription.plan_id);
    const plan = await db
      .selectFrom("subscription_plans")
      .selectAll()
      .where("id", "=", planId)
      .executeTakeFirstOrThrow();
    const current = await db
      .selectFrom("subscription_plans")
      .select(["id", "interval"])
      .where("id", "=", subscription.plan_id)
      .executeTakeFirstOrThrow();
    const card = await defaultCardOf(subscription.user_id);
    const system: Actor = { kind: "system" };
    const key = `${subscription.id}:${subscription.current_period_end ?? "first"}:${plan.id}:${subscription.failed_attempts}:${card?.provider_ref ?? "none"}`;

    let answer: { ok: true; chargeRef: string } | { ok: false; code: PaymentFailureCode | "no_payment_method" };
    if (!card) answer = { ok: false, code: "no_payment_method" };
    else {
      answer = await paymentProvider(card.provider).charge({
        cardRef: card.provider_ref,
        amountCents: plan.price_cents,
        description: `Trusted Sitters premium: ${plan.name}`,
        idempotencyKey: key,
      });
    }
    const planFacts: PlanFacts = { id: current.id, interval: current.interval };
    const pendingPlan: PlanFacts | null =
      subscription.status !== "incomplete" && subscription.pending_plan_id
        ? { id: plan.id, interval: plan.interval }
        : null;
    const event: SubscriptionEvent = answer.ok
      ? {
          type: "paid",
          plan: subscription.status === "incomplete" ? { id: plan.id, interval: plan.interval } : planFacts,
          pendingPlan,
        }
      : { type: "payment-failed", error: answer.code };
    const applied = await db.transaction().execute(async (trx) => {
      const result = await applyInTransaction(trx, id, system, event);
      if (result.ok) {
        await trx
          .insertInto("subscription_payments")
          .values({
            id: randomUUID(),
            subscription_id: id,
            user_id: subscription.user_id,
            plan_id: plan.id,
            amount_cents: plan.price_cents,
            status: answer.ok ? "paid" : "failed",
            provider_ref: answer.ok ? answer.chargeRef : null,
            failure_code: answer.ok ? null : answer.code,
            idempotency_key: key,
            created_at: now().toISOString(),
          })
          .onConflict((oc) => oc.column("idempotency_key").doNothing())
          .execute();
      }
      return result;
    });
    if (applied.ok) deliverSoon();
  });
}

export async function runDueSubscriptionWork(): Promise<number> {
  const at = now();
  const iso = at.toISOString();
  const system: Actor = { kind: "system" };
  let changed = 0;
  const run = async (ids: { id: string }[], event: SubscriptionEvent) => {
    for (const { id } of ids) if ((await transitionAndCharge(id, system, event)).ok) changed += 1;
  };
  const live = () => db.selectFrom("subscriptions").select("id").where("ended_at", "is", null);
  const billedHere = () => live().where("provider", "not in", SELF_BILLING_PROVIDERS);
  await run(
    await billedHere()
      .where("status", "=", "active")
      .where("cancel_at_period_end", "=", 1)
      .where("current_period_end", "<=", iso)
      .execute(),
    { type: "period-ended" },
  );
  await run(
    await billedHere()
      .where("status", "=", "active")
      .where("cancel_at_period_end", "=", 0)
      .where("billing_task", "is", null)
      .where("current_period_end", "<=", iso)
      .execute(),
    { type: "renewal-due" },
  );
  await run(
    await billedHere()
      .where("status", "=", "past_due")
      .where("billing_task", "is", null)
      .where("next_retry_at", "<=", iso)
      .execute(),
    { type: "retry-due" },
  );
  // An incomplete checkout the processor knows ends there (incomplete_expired, through its webhook), not here.
  await run(
    await live()
      .where("status", "=", "incomplete")
      .where("billing_task", "is", null)
      .where((eb) =>
        eb.or([eb("provider", "not in", SELF_BILLING_PROVIDERS), eb("provider_subscription_ref", "is", null)]),
      )
      .execute(),
    { type: "expire" },
  );
  for (const { id } of await billedHere().where("billing_task", "is not", null).execute()) await runCharge(id);
  const unanswered = await live()
    .select(["provider", "user_id"])
    .where("provider", "in", SELF_BILLING_PROVIDERS)
    .where("status", "=", "incomplete")
    .where("provider_subscription_ref", "is", null)
    .execute();
  for (const { id, provider, user_id } of unanswered) {
    // A processor that cannot be reached (or is no longer configured) fails this one, not the round.
    try {
      const billing = paymentProvider(provider).billing;
      if (!billing) continue;
      const outcome = await serialized(`subscription:${user_id}`, () => subscribeAtProcessor(id, billing));
      if (outcome.status === "active") changed += 1;
    } catch (error) {
      logger.warn(
        { event: "checkout.read-failed", checkoutId: id, err: error },
        "Could not ask the processor about a checkout",
      );
    }
  }
  // A period that ended a day ago without news of its renewal: the webhook was lost, so ask.
  const overdue = await live()
    .select(["provider", "provider_subscription_ref"])
    .where("provider", "in", SELF_BILLING_PROVIDERS)
    .where("status", "=", "active")
    .where("provider_subscription_ref", "is not", null)
    .where("current_period_end", "<=", new Date(at.getTime() - 24 * 3600_000).toISOString())
    .execute();
  for (const { provider, provider_subscription_ref: ref } of overdue) {
    try {
      if ((await reconcileProcessorSubscription(provider, ref!)) === "applied") changed += 1;
    } catch (error) {
      logger.warn(
        { event: "subscription.read-failed", subscriptionRef: ref, err: error },
        "Could not read a subscription",
      );
    }
  }
  return changed;
}
