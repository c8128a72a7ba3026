import { serialized } from "~/platform/lock.server";
import {
  addSavedCard,
  makeDefaultCard,
  removeSavedCard,
  startSavedCardEntry,
  type AddCardOutcome,
  type CardActionResult,
  type SubscriptionRefOf,
  paymentProvider,
} from "~/features/payments/index.server";
import type { CardInput, PaymentFailureCode, PaymentProvider } from "~/features/payments";
import { findPlan, liveSubscriptionOf, type Tx } from "./subscriptions.server";

/**
 * One change at a time per person, with checkouts; the last card stays while the subscription
 * needs it for a charge.
 */

export const billedSubscriptionRef =
  (userId: string): SubscriptionRefOf =>
  async (provider) => {
    const live = await liveSubscriptionOf(userId);
    return live?.provider === provider ? live.provider_subscription_ref : null;
  };

async function lastCardNeeded(userId: string, database: Tx): Promise<boolean> {
  const live = await liveSubscriptionOf(userId, database);
  return Boolean(
    live &&
    ((live.status === "active" && !live.cancel_at_period_end) ||
      live.status === "past_due" ||
      live.billing_task !== null),
  );
}

export async function addCard(
  user: { id: string; email: string },
  card: CardInput,
  attempt: string,
  options: { makeDefault?: boolean } = {},
  provider: PaymentProvider = paymentProvider(),
): Promise<AddCardOutcome> {
  return serialized(`subscription:${user.id}`, () =>
    addSavedCard(user, card, attempt, options, provider, billedSubscriptionRef(user.id)),
  );
}

export async function setDefaultCard(userId: string, methodId: string): Promise<CardActionResult> {
  return serialized(`subscription:${userId}`, () => makeDefaultCard(userId, methodId, billedSubscriptionRef(userId)));
}

export async function removeCard(userId: string, methodId: string): Promise<CardActionResult> {
  return serialized(`subscription:${userId}`, () =>
    removeSavedCard(userId, methodId, {
      lastCardNeeded: (database) => lastCardNeeded(userId, database),
      subscriptionRefOf: billedSubscriptionRef(userId),
    }),
  );
}

export type SubscriptionCardEntryOutcome =
  | { status: "ready"; clientSecret: string }
  | { status: "failed"; code: PaymentFailureCode }
  | { status: "unavailable" }
  | { status: "notFound" };

export async function startSubscriptionCardEntry(
  user: { id: string; email: string; name: string },
  attempt: string,
  planId: string | null,
  provider: PaymentProvider = paymentProvider(),
): Promise<SubscriptionCardEntryOutcome> {
  if (!provider.startCardEntry) return { status: "unavailable" };
  if (planId !== null && !(await findPlan(planId))) return { status: "notFound" };
  return planId === null
    ? startSavedCardEntry(user, { kind: "card", userId: user.id }, `${user.id}:card-entry:${attempt}`, provider)
    : startSavedCardEntry(
        user,
        { kind: "subscription", userId: user.id, planId },
        `${user.id}:subscription-entry:${planId}:${attempt}`,
        provider,
      );
}
