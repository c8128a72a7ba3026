import type { SubscriptionPlan } from "~db/schema";
import { serialized } from "~/platform/lock.server";
import { storeCard, paymentProvider } from "~/features/payments/index.server";
import type { CardInput, PaymentFailureCode, PaymentProvider } from "~/features/payments";
import { checkoutKind } from "./machine";
import { actAtProcessor, checkoutAtProcessor, subscribeAtProcessor, type OwnAction } from "./processor.server";
import { runCharge, transitionAndCharge } from "./renewals.server";
import {
  findPlan,
  findSubscription,
  liveSubscriptionOf,
  startSubscription,
  transition,
  type CheckoutOutcome,
  type TransitionResult,
} from "./subscriptions.server";

/** `attempt` becomes the subscription's id, so a double submit is one checkout. */
export async function checkout(
  user: { id: string; email: string },
  planId: string,
  card: CardInput,
  attempt: string,
  provider: PaymentProvider = paymentProvider(),
): Promise<CheckoutOutcome> {
  return serialized(`subscription:${user.id}`, async (): Promise<CheckoutOutcome> => {
    const earlier = await findSubscription(attempt);
    if (earlier) {
      if (earlier.user_id !== user.id) return { status: "refused", reason: "stale" };
      if (earlier.status === "active") return { status: "active", subscription: earlier };
      // The same form again (a double submit, or Pay after a timeout): the processor's subscription is looked up or made with the same key.
      if (earlier.status === "incomplete" && earlier.ended_at === null && provider.billing)
        return subscribeAtProcessor(earlier.id, provider.billing);
      return {
        status: "failed",
        code: (earlier.last_payment_error as PaymentFailureCode | null) ?? "processing_error",
      };
    }
    const plan = await findPlan(planId);
    if (!plan) return { status: "refused", reason: "notFound" };
    const current = await liveSubscriptionOf(user.id);
    const kind = checkoutKind(current, plan.id);
    if (!kind.ok) return { status: "refused", reason: kind.refusal };
    if (provider.billing)
      return checkoutAtProcessor(user, plan, card, attempt, provider, provider.billing, current, kind);

    const saved = await provider.saveCard({
      card,
      email: user.email,
      purpose: { kind: "subscription", userId: user.id, planId: plan.id },
      idempotencyKey: `subscription:${user.id}:card:${attempt}`,
    });
    if (!saved.ok) return { status: "failed", code: saved.code };
    await storeCard(user.id, provider.name, saved.cardRef, saved.details, { makeDefault: true });

    if (current && kind.kind === "switch") {
      const switched = await transition(
        current.id,
        { kind: "user", userId: user.id },
        { type: "switch", planId: plan.id },
      );
      if (!switched.ok) return { status: "refused", reason: switched.refusal === "samePlan" ? "samePlan" : "notFound" };
      return { status: "switched", subscription: switched.subscription };
    }

    const created = await startSubscription(
      { kind: "user", userId: user.id },
      {
        type: "created",
        id: attempt,
        userId: user.id,
        planId: plan.id,
        provider: provider.name,
        billingTask: "charge",
      },
    );
    if (!created.ok)
      return { status: "refused", reason: created.refusal === "notFound" ? "notFound" : "chargePending" };
    await runCharge(attempt);
    const after = (await findSubscription(attempt))!;
    if (after.status === "active") return { status: "active", subscription: after };
    return { status: "failed", code: (after.last_payment_error as PaymentFailureCode | null) ?? "processing_error" };
  });
}

export async function actOnSubscription(
  userId: string,
  subscriptionId: string,
  action: OwnAction,
): Promise<TransitionResult> {
  return serialized(`subscription:${userId}`, async () => {
    const subscription = await findSubscription(subscriptionId);
    if (!subscription || subscription.user_id !== userId) return { ok: false, refusal: "notFound" };
    const billing = paymentProvider(subscription.provider).billing;
    if (!billing) return transitionAndCharge(subscriptionId, { kind: "user", userId }, { type: action });
    const result = await actAtProcessor(subscription, billing, action);
    if (!result.ok || !result.subscription.billing_task) return result;
    await runCharge(subscriptionId);
    return { ok: true, subscription: (await findSubscription(subscriptionId))! };
  });
}

export type CheckoutOffer =
  | {
      ok: true;
      plan: SubscriptionPlan;
      billed: boolean;
      switchFrom: { planId: string; planName: string; periodEnd: string | null } | null;
    }
  | { ok: false; reason: "notFound" | "samePlan" | "pastDue" | "chargePending" | "switchAtPeriodEnd" };

export async function checkoutOffer(
  userId: string,
  planId: string,
  provider: PaymentProvider = paymentProvider(),
): Promise<CheckoutOffer> {
  const plan = await findPlan(planId);
  if (!plan) return { ok: false, reason: "notFound" };
  const current = await liveSubscriptionOf(userId);
  const kind = checkoutKind(current, plan.id);
  if (!kind.ok) return { ok: false, reason: kind.refusal };
  const billed = Boolean(provider.billing);
  if (kind.kind === "new" || !current) return { ok: true, plan, billed, switchFrom: null };
  if (billed) return { ok: false, reason: "switchAtPeriodEnd" };
  const currentPlan = await findPlan(current.plan_id);
  return {
    ok: true,
    plan,
    billed,
    switchFrom: {
      planId: current.plan_id,
      planName: currentPlan?.name ?? current.plan_id,
      periodEnd: current.current_period_end,
    },
  };
}
