import { now } from "~/platform/clock.server";
import { longDay } from "~/platform/format";
import { formatMoney } from "~/platform/money";
import { cardsOf, paymentProvider } from "~/features/payments/index.server";
import { daysUntil, displayStatus } from "./machine";
import { listPlans, subscriptionSummary } from "./subscriptions.server";
import { flag } from "~/platform/db.server";
import { logger } from "~/platform/log.server";

/** A failed read shows a message in place of its section; the rest of the page still works. */
async function settled<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    logger.error({ event: "subscription.page-failed", err: error }, "Subscription page read failed");
    return null;
  }
}

export async function subscriptionPage(user: { id: string; time_zone: string }, language: string) {
  const [plans, summary, cards] = await Promise.all([
    settled(listPlans()),
    settled(subscriptionSummary(user.id)),
    settled(cardsOf(user.id)),
  ]);
  const live = summary?.live ?? null;
  const day = longDay(language, user.time_zone);
  return {
    plans: plans?.map((plan) => ({ ...plan, price: formatMoney(plan.priceCents, language) })) ?? null,
    summaryFailed: summary === null,
    cards,
    subscription: live
      ? {
          id: live.id,
          planId: live.plan_id,
          planName: summary?.plan?.name ?? live.plan_id,
          price: formatMoney(summary?.plan?.priceCents ?? 0, language),
          status: displayStatus(live),
          periodStart: day(live.current_period_start),
          periodEnd: day(live.current_period_end),
          daysLeft: live.current_period_end ? daysUntil(new Date(live.current_period_end), now()) : null,
          cancelAtPeriodEnd: flag.read(live.cancel_at_period_end),
          pendingPlan: summary?.pendingPlan ? { id: summary.pendingPlan.id, name: summary.pendingPlan.name } : null,
          nextRetryAt: day(live.next_retry_at),
          lastError: live.last_payment_error,
          charging: live.billing_task !== null,
          switchable: !paymentProvider(live.provider).billing,
        }
      : null,
    lastEnded: summary?.lastEnded
      ? {
          planId: summary.lastEnded.plan_id,
          planName: summary.lastEnded.planName,
          endedAt: day(summary.lastEnded.ended_at),
        }
      : null,
  };
}

export type SubscriptionPageData = Awaited<ReturnType<typeof subscriptionPage>>;
