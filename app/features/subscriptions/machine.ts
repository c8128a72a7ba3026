import type { PlanInterval, Subscription, SubscriptionStatus } from "~db/schema";

/**
 * Pure rules (no I/O); nothing writes a subscription any other way. A repeated request changes
 * nothing. A plan switch starts at the period's end: nobody pays twice, no pro-rata credit.
 */

export const INTERVAL_MONTHS: Record<PlanInterval, number> = { month: 1, "6months": 6, year: 12 };

/** A failed renewal is retried after these delays, then the subscription is unpaid. */
export const RETRY_DELAYS_MS = [24 * 3600_000, 3 * 24 * 3600_000, 5 * 24 * 3600_000];
/** A first payment that never succeeds stops blocking a new checkout after this long. */
export const INCOMPLETE_TTL_MS = 23 * 3600_000;

export const PREMIUM_STATUSES: readonly SubscriptionStatus[] = ["active", "past_due"];

/** UTC; a day the target month lacks becomes its last day: Jan 31 + 1 month = Feb 28/29. */
export function addMonths(from: Date, months: number): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(from.getTime());
  result.setUTCDate(1);
  result.setUTCFullYear(year, month, Math.min(from.getUTCDate(), lastDay));
  return result;
}

/** Counted from the anchor, not the previous end: Jan 31 renews on Feb 28/29, then Mar 31. */
export function periodOf(anchor: Date, interval: PlanInterval, index: number): { start: Date; end: Date } {
  const months = INTERVAL_MONTHS[interval];
  return { start: addMonths(anchor, months * index), end: addMonths(anchor, months * (index + 1)) };
}

export function daysUntil(end: Date, at: Date): number {
  return Math.max(0, Math.ceil((end.getTime() - at.getTime()) / (24 * 3600_000)));
}

export type Actor = { kind: "user"; userId: string } | { kind: "system" };

export type PlanFacts = { id: string; interval: PlanInterval };

export type SubscriptionEvent =
  | { type: "paid"; plan: PlanFacts; pendingPlan: PlanFacts | null }
  | { type: "payment-failed"; error: string }
  | { type: "renewal-due" }
  | { type: "retry-due" }
  | { type: "retry" }
  | { type: "period-ended" }
  | { type: "cancel" }
  | { type: "reactivate" }
  | { type: "switch"; planId: string }
  | { type: "keep-plan" }
  | { type: "replace" }
  | { type: "expire" }
  | { type: "linked"; ref: string }
  | { type: "synced"; facts: ProcessorFacts };

export interface ProcessorFacts {
  status: "incomplete" | "incomplete_expired" | "active" | "past_due" | "unpaid" | "canceled";
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  endedAt: string | null;
  paymentError: string | null;
}

type Fields = Pick<
  Subscription,
  | "status"
  | "plan_id"
  | "billing_anchor"
  | "period_index"
  | "current_period_start"
  | "current_period_end"
  | "cancel_at_period_end"
  | "pending_plan_id"
  | "billing_task"
  | "failed_attempts"
  | "next_retry_at"
  | "last_payment_error"
  | "canceled_at"
  | "ended_at"
  | "provider_subscription_ref"
>;

export type NoticeKind = "activated" | "renewed" | "renewalFailed" | "unpaid" | "ended";

export interface Change {
  set: Partial<Fields>;
  notify: NoticeKind[];
}

export type Refusal = "notYours" | "wrongState" | "tooEarly" | "samePlan" | "chargePending";

export type Decision = { ok: true; change: Change } | { ok: false; refusal: Refusal };

export type SubscriptionFacts = Pick<Subscription, "user_id" | "created_at" | keyof Fields>;

const refuse = (refusal: Refusal): Decision => ({ ok: false, refusal });
const allow = (set: Change["set"], notify: NoticeKind[] = []): Decision => ({ ok: true, change: { set, notify } });
const nothing = (): Decision => allow({});

export function isPremium(
  subscription: Pick<Subscription, "status" | "current_period_end" | "ended_at"> | undefined | null,
  at: Date,
): boolean {
  if (!subscription || subscription.ended_at !== null || !PREMIUM_STATUSES.includes(subscription.status)) return false;
  // A past_due subscription keeps its perks while the retries run; an active one until its period ends.
  return (
    subscription.status === "past_due" ||
    (subscription.current_period_end !== null && new Date(subscription.current_period_end) > at)
  );
}

export function displayStatus(
  subscription: Pick<Subscription, "status" | "ended_at"> | undefined | null,
): SubscriptionStatus | "inactive" {
  if (!subscription) return "inactive";
  if (subscription.ended_at !== null && subscription.status !== "canceled") return "inactive";
  return subscription.status;
}

export function decide(sub: SubscriptionFacts, actor: Actor, event: SubscriptionEvent, at: Date): Decision {
  const system = actor.kind === "system";
  const subscriber = actor.kind === "user" && actor.userId === sub.user_id;
  const iso = at.toISOString();
  const ended = sub.ended_at !== null;
  const periodEnd = sub.current_period_end ? new Date(sub.current_period_end) : null;

  switch (event.type) {
    case "paid": {
      if (!system) return refuse("notYours");
      if (sub.billing_task !== "charge" || ended) return refuse("wrongState");
      const base = {
        billing_task: null,
        failed_attempts: 0,
        next_retry_at: null,
        last_payment_error: null,
        status: "active" as const,
      };
      if (sub.status === "incomplete" || sub.status === "unpaid" || !periodEnd || !sub.billing_anchor) {
        // A first payment, or one long overdue: a fresh period starts now.
        const plan = event.pendingPlan ?? event.plan;
        const period = periodOf(at, plan.interval, 0);
        return allow(
          {
            ...base,
            plan_id: plan.id,
            pending_plan_id: null,
            billing_anchor: iso,
            period_index: 0,
            current_period_start: iso,
            current_period_end: period.end.toISOString(),
          },
          [sub.status === "incomplete" ? "activated" : "renewed"],
        );
      }
      if (event.pendingPlan) {
        const period = periodOf(periodEnd, event.pendingPlan.interval, 0);
        return allow(
          {
            ...base,
            plan_id: event.pendingPlan.id,
            pending_plan_id: null,
            billing_anchor: periodEnd.toISOString(),
            period_index: 0,
            current_period_start: period.start.toISOString(),
            current_period_end: period.end.toISOString(),
          },
          ["renewed"],
        );
      }
      const next = periodOf(new Date(sub.billing_anchor), event.plan.interval, sub.period_index + 1);
      return allow(
        {
          ...base,
          period_index: sub.period_index + 1,
          current_period_start: next.start.toISOString(),
          current_period_end: next.end.toISOString(),
        },
        ["renewed"],
      );
    }
    case "payment-failed": {
      if (!system) return refuse("notYours");
      if (sub.billing_task !== "charge" || ended) return refuse("wrongState");
      const error = event.error.slice(0, 100);
      if (sub.status === "incomplete") return allow({ billing_task: null, last_payment_error: error });
      if (sub.status === "unpaid") return allow({ billing_task: null, last_payment_error: error });
      const failures = sub.failed_attempts + 1;
      const delay = RETRY_DELAYS_MS[failures - 1];
      if (delay === undefined) {
        return allow(
          {
            billing_task: null,
            status: "unpaid",
            failed_attempts: failures,
            next_retry_at: null,
            last_payment_error: error,
          },
          ["unpaid"],
        );
      }
      return allow(
        {
          billing_task: null,
          status: "past_due",
          failed_attempts: failures,
          next_retry_at: new Date(at.getTime() + delay).toISOString(),
          last_payment_error: error,
        },
        sub.status === "active" ? ["renewalFailed"] : [],
      );
    }
    case "renewal-due": {
      if (!system) return refuse("notYours");
      if (sub.status !== "active" || ended || sub.cancel_at_period_end) return refuse("wrongState");
      if (sub.billing_task) return refuse("chargePending");
      if (!periodEnd || at < periodEnd) return refuse("tooEarly");
      return allow({ billing_task: "charge" });
    }
    case "retry-due": {
      if (!system) return refuse("notYours");
      if (sub.status !== "past_due" || ended) return refuse("wrongState");
      if (sub.billing_task) return refuse("chargePending");
      if (!sub.next_retry_at || at < new Date(sub.next_retry_at)) return refuse("tooEarly");
      return allow({ billing_task: "charge", next_retry_at: null });
    }
    case "retry": {
      if (!subscriber) return refuse("notYours");
      if ((sub.status !== "past_due" && sub.status !== "unpaid") || ended) return refuse("wrongState");
      if (sub.billing_task) return refuse("chargePending");
      return allow({ billing_task: "charge", next_retry_at: null });
    }
    case "period-ended": {
      if (!system) return refuse("notYours");
      if (sub.status !== "active" || ended || !sub.cancel_at_period_end) return refuse("wrongState");
      if (!periodEnd || at < periodEnd) return refuse("tooEarly");
      return allow({ status: "canceled", ended_at: periodEnd.toISOString(), pending_plan_id: null }, ["ended"]);
    }
    case "cancel": {
      if (!subscriber) return refuse("notYours");
      if (ended || sub.status === "canceled" || sub.status === "incomplete") return refuse("wrongState");
      if (sub.status === "past_due" || sub.status === "unpaid") {
        // Nothing paid is left to run out: it ends now.
        if (sub.billing_task) return refuse("chargePending");
        return allow({
          status: "canceled",
          cancel_at_period_end: 0,
          canceled_at: iso,
          ended_at: iso,
          next_retry_at: null,
          pending_plan_id: null,
        });
      }
      if (sub.cancel_at_period_end) return nothing();
      return allow({ cancel_at_period_end: 1, canceled_at: iso, pending_plan_id: null });
    }
    case "reactivate": {
      if (!subscriber) return refuse("notYours");
      if (sub.status !== "active" || ended || !periodEnd || at >= periodEnd) return refuse("wrongState");
      if (!sub.cancel_at_period_end) return nothing();
      return allow({ cancel_at_period_end: 0, canceled_at: null });
    }
    case "switch": {
      if (!subscriber) return refuse("notYours");
      if (sub.status !== "active" || ended) return refuse("wrongState");
      if (event.planId === sub.plan_id) {
        // Choosing the plan one already has: only meaningful as "keep it" while a change or a cancellation is waiting.
        if (sub.pending_plan_id === null && !sub.cancel_at_period_end) return refuse("samePlan");
        return allow({ pending_plan_id: null, cancel_at_period_end: 0, canceled_at: null });
      }
      if (sub.pending_plan_id === event.planId && !sub.cancel_at_period_end) return nothing();
      return allow({ pending_plan_id: event.planId, cancel_at_period_end: 0, canceled_at: null });
    }
    case "keep-plan": {
      if (!subscriber) return refuse("notYours");
      if (sub.status !== "active" || ended) return refuse("wrongState");
      return allow({ pending_plan_id: null });
    }
    case "replace": {
      if (!system) return refuse("notYours");
      if (ended || (sub.status !== "incomplete" && sub.status !== "unpaid")) return refuse("wrongState");
      if (sub.billing_task) return refuse("chargePending");
      return allow(
        sub.status === "unpaid" ? { status: "canceled", canceled_at: iso, ended_at: iso } : { ended_at: iso },
      );
    }
    case "linked": {
      // Kept even on an ended subscription: a replaced attempt the processor still bills is found by it, and cancelled there.
      if (!system) return refuse("notYours");
      if (sub.provider_subscription_ref === event.ref) return nothing();
      if (sub.provider_subscription_ref !== null) return refuse("wrongState");
      return allow({ provider_subscription_ref: event.ref });
    }
    case "synced":
      return sync(sub, actor, event.facts, at);
    case "expire": {
      if (!system) return refuse("notYours");
      if (ended || sub.status !== "incomplete" || sub.billing_task) return refuse("wrongState");
      if (at.getTime() < new Date(sub.created_at).getTime() + INCOMPLETE_TTL_MS) return refuse("tooEarly");
      return allow({ ended_at: iso });
    }
  }
}

/** The processor's state is the truth; only what differs is written, so a replayed webhook changes nothing. */
function sync(sub: SubscriptionFacts, actor: Actor, facts: ProcessorFacts, at: Date): Decision {
  if (actor.kind !== "system") return refuse("notYours");
  if (sub.ended_at !== null) return refuse("wrongState");
  const iso = at.toISOString();
  const wanted: Partial<Fields> = { billing_task: null };
  const notify: NoticeKind[] = [];
  if (
    facts.currentPeriodStart &&
    facts.currentPeriodEnd &&
    facts.status !== "incomplete" &&
    facts.status !== "incomplete_expired"
  ) {
    Object.assign(wanted, {
      current_period_start: facts.currentPeriodStart,
      current_period_end: facts.currentPeriodEnd,
      billing_anchor: sub.billing_anchor ?? facts.currentPeriodStart,
    });
  }
  const cancelAtPeriodEnd = facts.cancelAtPeriodEnd ? 1 : 0;
  if (cancelAtPeriodEnd !== sub.cancel_at_period_end)
    Object.assign(wanted, {
      cancel_at_period_end: cancelAtPeriodEnd,
      canceled_at: cancelAtPeriodEnd ? (sub.canceled_at ?? iso) : null,
    });
  switch (facts.status) {
    case "active": {
      Object.assign(wanted, { status: "active", failed_attempts: 0, next_retry_at: null, last_payment_error: null });
      const advanced =
        sub.current_period_end !== null &&
        facts.currentPeriodEnd !== null &&
        facts.currentPeriodEnd > sub.current_period_end;
      if (advanced) wanted.period_index = sub.period_index + 1;
      if (sub.status === "incomplete") notify.push("activated");
      else if (sub.status !== "active" || advanced) notify.push("renewed");
      break;
    }
    case "past_due":
      Object.assign(wanted, { status: "past_due", last_payment_error: facts.paymentError ?? sub.last_payment_error });
      if (sub.status === "active") {
        wanted.failed_attempts = sub.failed_attempts + 1;
        notify.push("renewalFailed");
      }
      break;
    case "unpaid":
      Object.assign(wanted, { status: "unpaid", last_payment_error: facts.paymentError ?? sub.last_payment_error });
      if (sub.status === "active" || sub.status === "past_due") notify.push("unpaid");
      break;
    case "incomplete":
      if (sub.status !== "incomplete") return refuse("wrongState");
      Object.assign(wanted, { last_payment_error: facts.paymentError });
      break;
    case "incomplete_expired":
      // The first payment never came: it is over, without a notice (nothing was ever paid).
      Object.assign(wanted, { ended_at: facts.endedAt ?? iso });
      break;
    case "canceled": {
      const endedAt = facts.endedAt ?? iso;
      if (sub.status === "incomplete") Object.assign(wanted, { ended_at: endedAt });
      else {
        Object.assign(wanted, {
          status: "canceled",
          ended_at: endedAt,
          canceled_at: sub.canceled_at ?? endedAt,
          next_retry_at: null,
          pending_plan_id: null,
        });
        notify.push("ended");
      }
      break;
    }
  }
  const set = Object.fromEntries(
    Object.entries(wanted).filter(([field, value]) => sub[field as keyof Fields] !== value),
  ) as Partial<Fields>;
  return allow(set, notify);
}

export interface StartEvent {
  type: "created";
  id: string;
  userId: string;
  planId: string;
  provider: string;
  billingTask: "charge" | null;
}

export type NewSubscription = Pick<
  Subscription,
  "id" | "user_id" | "plan_id" | "status" | "provider" | "billing_task" | "created_at" | "updated_at"
>;

export type StartDecision =
  { ok: true; row: NewSubscription; replaced: Change | null } | { ok: false; refusal: Refusal };

export function decideStart(live: SubscriptionFacts | null, actor: Actor, event: StartEvent, at: Date): StartDecision {
  if (actor.kind !== "user" || actor.userId !== event.userId) return { ok: false, refusal: "notYours" };
  const replaced = live && live.ended_at === null ? decide(live, { kind: "system" }, { type: "replace" }, at) : null;
  if (replaced && !replaced.ok) return replaced;
  const iso = at.toISOString();
  return {
    ok: true,
    row: {
      id: event.id,
      user_id: event.userId,
      plan_id: event.planId,
      status: "incomplete",
      provider: event.provider,
      billing_task: event.billingTask,
      created_at: iso,
      updated_at: iso,
    },
    replaced: replaced ? replaced.change : null,
  };
}

export type CheckoutKind =
  { ok: true; kind: "new" | "switch" } | { ok: false; refusal: "samePlan" | "pastDue" | "chargePending" };

export function checkoutKind(
  current:
    | Pick<
        Subscription,
        "status" | "plan_id" | "ended_at" | "billing_task" | "cancel_at_period_end" | "pending_plan_id"
      >
    | undefined
    | null,
  planId: string,
): CheckoutKind {
  if (!current || current.ended_at !== null || current.status === "canceled") return { ok: true, kind: "new" };
  if (current.billing_task) return { ok: false, refusal: "chargePending" };
  if (current.status === "incomplete" || current.status === "unpaid") return { ok: true, kind: "new" };
  if (current.status === "past_due") return { ok: false, refusal: "pastDue" };
  if (current.plan_id === planId) return { ok: false, refusal: "samePlan" };
  return { ok: true, kind: "switch" };
}
