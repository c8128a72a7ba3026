import type Stripe from "stripe";
import type { Subscription, SubscriptionPlan } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { serialized } from "~/platform/lock.server";
import {
  makeDefaultCard,
  storeCard,
  storedCustomer,
  paymentProvider,
  idOf,
  type WebhookHandler,
  type WebhookHandlers,
} from "~/features/payments/index.server";
import type {
  CardInput,
  PaymentFailureCode,
  PaymentProvider,
  ProviderSubscription,
  SubscriptionBilling,
} from "~/features/payments";
import { decide, INTERVAL_MONTHS, type Actor, type CheckoutKind } from "./machine";
import { billedSubscriptionRef } from "./cards.server";
import {
  findSubscription,
  startSubscription,
  transition,
  type CheckoutOutcome,
  type TransitionResult,
} from "./subscriptions.server";
import { logger } from "~/platform/log.server";

/** A plan change is not offered: the person cancels and chooses the new plan at the period's end. */
export async function checkoutAtProcessor(
  user: { id: string; email: string },
  plan: SubscriptionPlan,
  card: CardInput,
  attempt: string,
  provider: PaymentProvider,
  billing: SubscriptionBilling,
  current: Subscription | undefined,
  kind: Extract<CheckoutKind, { ok: true }>,
): Promise<CheckoutOutcome> {
  if (kind.kind === "switch") return { status: "refused", reason: "switchAtPeriodEnd" };
  const customerRef = await storedCustomer(user.id);
  const saved = await provider.saveCard({
    card,
    email: user.email,
    customerRef,
    purpose: { kind: "subscription", userId: user.id, planId: plan.id },
    idempotencyKey: `subscription:${user.id}:card:${attempt}`,
  });
  if (!saved.ok) return { status: "failed", code: saved.code };
  const methodId = await storeCard(user.id, provider.name, saved.cardRef, saved.details, { makeDefault: false });
  const defaulted = await makeDefaultCard(user.id, methodId, billedSubscriptionRef(user.id));
  if (!defaulted.ok) return { status: "failed", code: "processing_error" };

  const price = await billing.priceFor({
    planId: plan.id,
    name: plan.name,
    amountCents: plan.price_cents,
    currency: plan.currency,
    intervalMonths: INTERVAL_MONTHS[plan.interval],
    priceRef: plan.stripe_price_id,
  });
  if (!price.ok) return { status: "failed", code: price.code };
  if (price.priceRef !== plan.stripe_price_id)
    await db
      .updateTable("subscription_plans")
      .set({ stripe_price_id: price.priceRef })
      .where("id", "=", plan.id)
      .execute();

  // A checkout whose subscription the processor never confirmed making (a timeout) is finished, not made twice.
  if (
    current &&
    current.provider === provider.name &&
    current.status === "incomplete" &&
    current.provider_subscription_ref === null &&
    current.plan_id === plan.id
  ) {
    return subscribeAtProcessor(current.id, billing);
  }
  const created = await startSubscription(
    { kind: "user", userId: user.id },
    { type: "created", id: attempt, userId: user.id, planId: plan.id, provider: provider.name, billingTask: null },
  );
  if (!created.ok) return { status: "refused", reason: created.refusal === "notFound" ? "notFound" : "chargePending" };
  const replacedRef = created.replaced?.provider === provider.name ? created.replaced.provider_subscription_ref : null;
  if (replacedRef) {
    // The abandoned attempt's subscription must never be charged later.
    const cancelled = await billing.cancelNow({
      subscriptionRef: replacedRef,
      idempotencyKey: `${created.replaced!.id}:cancel-now`,
    });
    if (!cancelled.ok)
      logger.warn(
        { event: "subscription.cancel-failed", subscriptionRef: replacedRef, code: cancelled.code },
        "The processor could not cancel the replaced subscription",
      );
  }
  return subscribeAtProcessor(attempt, billing);
}

export async function subscribeAtProcessor(id: string, billing: SubscriptionBilling): Promise<CheckoutOutcome> {
  const subscription = (await findSubscription(id))!;
  const plan = await db
    .selectFrom("subscription_plans")
    .select(["stripe_price_id"])
    .where("id", "=", subscription.plan_id)
    .executeTakeFirstOrThrow();
  const customerRef = await storedCustomer(subscription.user_id);
  if (!customerRef || !plan.stripe_price_id) return { status: "failed", code: "no_payment_method" };
  const answer = subscription.provider_subscription_ref
    ? await fetchAtProcessor(billing, subscription.provider_subscription_ref)
    : await billing.subscribe({
        customerRef,
        priceRef: plan.stripe_price_id,
        reference: id,
        userId: subscription.user_id,
        idempotencyKey: `${id}:subscribe`,
      });
  if (!answer.ok) return { status: "failed", code: answer.code };
  const applied = await applyProcessorState(answer.subscription, id);
  const after = applied.ok ? applied.subscription : (await findSubscription(id))!;
  if (after.status === "active") return { status: "active", subscription: after };
  if (answer.subscription.actionSecret && after.ended_at === null)
    return { status: "confirm", subscriptionId: id, clientSecret: answer.subscription.actionSecret };
  return { status: "failed", code: answer.subscription.paymentError ?? "processing_error" };
}

async function fetchAtProcessor(
  billing: SubscriptionBilling,
  ref: string,
): Promise<{ ok: true; subscription: ProviderSubscription } | { ok: false; code: PaymentFailureCode }> {
  try {
    const subscription = await billing.fetch(ref);
    return subscription ? { ok: true, subscription } : { ok: false, code: "processing_error" };
  } catch (error) {
    logger.warn(
      { event: "subscription.read-failed", subscriptionRef: ref, err: error },
      "Could not read a subscription",
    );
    return { ok: false, code: "processing_error" };
  }
}

export async function finishCheckout(userId: string, subscriptionId: string): Promise<CheckoutOutcome> {
  return serialized(`subscription:${userId}`, async (): Promise<CheckoutOutcome> => {
    const subscription = await findSubscription(subscriptionId);
    if (!subscription || subscription.user_id !== userId) return { status: "refused", reason: "notFound" };
    if (subscription.status === "active") return { status: "active", subscription };
    const billing = paymentProvider(subscription.provider).billing;
    if (!billing || subscription.ended_at !== null)
      return {
        status: "failed",
        code: (subscription.last_payment_error as PaymentFailureCode | null) ?? "processing_error",
      };
    return subscribeAtProcessor(subscriptionId, billing);
  });
}

/** A replaced attempt the processor still bills is cancelled there. */
export async function applyProcessorState(
  remote: ProviderSubscription,
  localId?: string,
): Promise<TransitionResult & { changed?: boolean }> {
  const local =
    (localId ? await findSubscription(localId) : undefined) ??
    (await db
      .selectFrom("subscriptions")
      .selectAll()
      .where("provider_subscription_ref", "=", remote.ref)
      .executeTakeFirst()) ??
    (remote.reference ? await findSubscription(remote.reference) : undefined);
  if (!local || (local.provider_subscription_ref !== null && local.provider_subscription_ref !== remote.ref))
    return { ok: false, refusal: "notFound" };
  const system: Actor = { kind: "system" };
  if (local.provider_subscription_ref === null) await transition(local.id, system, { type: "linked", ref: remote.ref });
  const result = await transition(local.id, system, { type: "synced", facts: remote });
  if (!result.ok && local.ended_at !== null && (remote.status === "active" || remote.status === "past_due")) {
    const billing = paymentProvider(local.provider).billing;
    const cancelled = await billing?.cancelNow({
      subscriptionRef: remote.ref,
      idempotencyKey: `${local.id}:cancel-now`,
    });
    if (cancelled && !cancelled.ok)
      throw new Error(`Could not cancel subscription ${remote.ref}, which we no longer keep: ${cancelled.code}`);
  }
  return result.ok
    ? {
        ...result,
        changed: result.subscription.updated_at !== local.updated_at || local.provider_subscription_ref === null,
      }
    : result;
}

export async function reconcileProcessorSubscription(
  providerName: string,
  ref: string,
): Promise<"applied" | `ignored: ${string}`> {
  const billing = paymentProvider(providerName).billing;
  if (!billing) return "ignored: provider does not bill";
  // Network failures throw: the webhook answers 500 and the processor delivers it again.
  const remote = await billing.fetch(ref);
  if (!remote) return "ignored: unknown subscription";
  const result = await applyProcessorState(remote);
  if (!result.ok) return `ignored: ${result.refusal}`;
  return result.changed ? "applied" : "ignored: unchanged";
}

export type OwnAction = "cancel" | "reactivate" | "keep-plan" | "retry";

export async function actAtProcessor(
  subscription: Subscription,
  billing: SubscriptionBilling,
  action: OwnAction,
): Promise<TransitionResult> {
  const actor: Actor = { kind: "user", userId: subscription.user_id };
  const precheck = decide(subscription, actor, { type: action }, now());
  if (!precheck.ok) return precheck;
  const ref = subscription.provider_subscription_ref;
  if (Object.keys(precheck.change.set).length === 0 || action === "keep-plan" || !ref)
    return transition(subscription.id, actor, { type: action });
  // The key names the state being changed (updated_at): a retry repeats the request, a later change is a new one.
  const version = subscription.updated_at;
  const answer =
    action === "retry"
      ? await billing.payNow({ subscriptionRef: ref, idempotencyKey: `${subscription.id}:pay-now:${version}` })
      : action === "cancel" && precheck.change.set.ended_at
        ? await billing.cancelNow({ subscriptionRef: ref, idempotencyKey: `${subscription.id}:cancel-now` })
        : await billing.setCancelAtPeriodEnd({
            subscriptionRef: ref,
            cancel: action === "cancel",
            idempotencyKey: `${subscription.id}:${action}:${version}`,
          });
  if (!answer.ok) return { ok: false, refusal: "unavailable" };
  if (action === "retry")
    return applyProcessorState(answer.subscription, subscription.id).then(async (result) =>
      result.ok ? result : { ok: true, subscription: (await findSubscription(subscription.id))! },
    );
  return transition(subscription.id, actor, { type: action });
}

function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const fromParent = invoice.parent?.subscription_details?.subscription;
  // Older API versions put it on the invoice itself.
  return idOf(fromParent ?? (invoice as unknown as { subscription?: string | { id: string } | null }).subscription);
}

/** The event's copy may be older than another event already handled, so the subscription is read from Stripe as it is now. */
const reconcileSubscription: WebhookHandler = async (event) => {
  const object = event.data.object as Stripe.Subscription | Stripe.Invoice;
  const ref = object.object === "subscription" ? object.id : subscriptionOfInvoice(object);
  if (!ref) return "ignored: not a subscription's invoice";
  return reconcileProcessorSubscription("stripe", ref);
};

export const subscriptionStripeEvents: WebhookHandlers = {
  "customer.subscription.created": reconcileSubscription,
  "customer.subscription.updated": reconcileSubscription,
  "customer.subscription.deleted": reconcileSubscription,
  "invoice.paid": reconcileSubscription,
  "invoice.payment_succeeded": reconcileSubscription,
  "invoice.payment_failed": reconcileSubscription,
  "invoice.payment_action_required": reconcileSubscription,
};
