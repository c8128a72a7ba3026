import { describe, expect, it } from "vitest";
import {
  addMonths,
  checkoutKind,
  daysUntil,
  decide,
  decideStart,
  displayStatus,
  isPremium,
  periodOf,
  RETRY_DELAYS_MS,
  type Actor,
  type ProcessorFacts,
  type SubscriptionFacts,
} from "./machine";

const utc = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();

describe("periods", () => {
  it("adds calendar months, keeping the time of day", () => {
    expect(iso(addMonths(utc("2026-03-15T10:30:00.000Z"), 1))).toBe("2026-04-15T10:30:00.000Z");
    expect(iso(addMonths(utc("2026-03-15T10:30:00.000Z"), 6))).toBe("2026-09-15T10:30:00.000Z");
    expect(iso(addMonths(utc("2026-03-15T10:30:00.000Z"), 12))).toBe("2027-03-15T10:30:00.000Z");
  });

  it("clamps to the last day of shorter months, leap years included", () => {
    expect(iso(addMonths(utc("2026-01-31T08:00:00.000Z"), 1))).toBe("2026-02-28T08:00:00.000Z");
    expect(iso(addMonths(utc("2028-01-31T08:00:00.000Z"), 1))).toBe("2028-02-29T08:00:00.000Z");
    expect(iso(addMonths(utc("2026-03-31T00:00:00.000Z"), 1))).toBe("2026-04-30T00:00:00.000Z");
    expect(iso(addMonths(utc("2027-08-31T12:00:00.000Z"), 6))).toBe("2028-02-29T12:00:00.000Z");
    expect(iso(addMonths(utc("2028-02-29T12:00:00.000Z"), 12))).toBe("2029-02-28T12:00:00.000Z");
    expect(iso(addMonths(utc("2026-12-31T23:59:00.000Z"), 1))).toBe("2027-01-31T23:59:00.000Z");
    expect(iso(addMonths(utc("2026-11-30T00:00:00.000Z"), 3))).toBe("2027-02-28T00:00:00.000Z");
  });

  it("counts every period from the anchor, so the day of the month comes back after a short month", () => {
    const anchor = utc("2028-01-31T09:00:00.000Z");
    expect(periodOf(anchor, "month", 0)).toEqual({ start: anchor, end: utc("2028-02-29T09:00:00.000Z") });
    expect(periodOf(anchor, "month", 1)).toEqual({
      start: utc("2028-02-29T09:00:00.000Z"),
      end: utc("2028-03-31T09:00:00.000Z"),
    });
    expect(periodOf(anchor, "month", 2).end).toEqual(utc("2028-04-30T09:00:00.000Z"));
    expect(periodOf(anchor, "6months", 0).end).toEqual(utc("2028-07-31T09:00:00.000Z"));
    expect(periodOf(anchor, "6months", 1).end).toEqual(utc("2029-01-31T09:00:00.000Z"));
    expect(periodOf(utc("2028-02-29T00:00:00.000Z"), "year", 0).end).toEqual(utc("2029-02-28T00:00:00.000Z"));
    expect(periodOf(utc("2028-02-29T00:00:00.000Z"), "year", 3).end).toEqual(utc("2032-02-29T00:00:00.000Z"));
  });

  it("counts days left rounding up and never below zero", () => {
    const at = utc("2026-01-01T00:00:00.000Z");
    expect(daysUntil(utc("2026-01-31T00:00:00.000Z"), at)).toBe(30);
    expect(daysUntil(utc("2026-01-01T03:00:00.000Z"), at)).toBe(1);
    expect(daysUntil(utc("2025-12-01T00:00:00.000Z"), at)).toBe(0);
  });
});

const owner = "user-1";
const me: Actor = { kind: "user", userId: owner };
const stranger: Actor = { kind: "user", userId: "user-2" };
const system: Actor = { kind: "system" };
const monthly = { id: "monthly", interval: "month" as const };
const yearly = { id: "yearly", interval: "year" as const };
const start = utc("2026-01-31T10:00:00.000Z");

function sub(overrides: Partial<SubscriptionFacts> = {}): SubscriptionFacts {
  return {
    user_id: owner,
    created_at: iso(start),
    status: "active",
    plan_id: "monthly",
    billing_anchor: iso(start),
    period_index: 0,
    current_period_start: iso(start),
    current_period_end: "2026-02-28T10:00:00.000Z",
    cancel_at_period_end: 0,
    pending_plan_id: null,
    billing_task: null,
    failed_attempts: 0,
    next_retry_at: null,
    last_payment_error: null,
    canceled_at: null,
    ended_at: null,
    provider_subscription_ref: null,
    ...overrides,
  };
}

const incomplete = () =>
  sub({
    status: "incomplete",
    billing_anchor: null,
    current_period_start: null,
    current_period_end: null,
    billing_task: "charge",
  });
const during = utc("2026-02-10T00:00:00.000Z");
const afterEnd = utc("2026-02-28T10:01:00.000Z");

describe("decide", () => {
  it("activates a first payment with a period from now", () => {
    const decision = decide(incomplete(), system, { type: "paid", plan: monthly, pendingPlan: null }, start);
    expect(decision).toEqual({
      ok: true,
      change: {
        set: expect.objectContaining({
          status: "active",
          billing_task: null,
          billing_anchor: iso(start),
          period_index: 0,
          current_period_start: iso(start),
          current_period_end: "2026-02-28T10:00:00.000Z",
        }),
        notify: ["activated"],
      },
    });
  });

  it("keeps a first payment that failed incomplete, with the error, and tells nobody", () => {
    expect(decide(incomplete(), system, { type: "payment-failed", error: "card_declined" }, start)).toEqual({
      ok: true,
      change: { set: { billing_task: null, last_payment_error: "card_declined" }, notify: [] },
    });
  });

  it("renews at the end of the period, into the next period counted from the anchor", () => {
    expect(decide(sub(), system, { type: "renewal-due" }, during)).toEqual({ ok: false, refusal: "tooEarly" });
    expect(decide(sub(), system, { type: "renewal-due" }, afterEnd)).toEqual({
      ok: true,
      change: { set: { billing_task: "charge" }, notify: [] },
    });
    const paid = decide(
      sub({ billing_task: "charge" }),
      system,
      { type: "paid", plan: monthly, pendingPlan: null },
      afterEnd,
    );
    expect(paid.ok && paid.change.set).toMatchObject({
      status: "active",
      period_index: 1,
      current_period_start: "2026-02-28T10:00:00.000Z",
      current_period_end: "2026-03-31T10:00:00.000Z",
    });
    expect(paid.ok && paid.change.notify).toEqual(["renewed"]);
  });

  it("starts a switched plan where the old period ended, with the new interval", () => {
    const paid = decide(
      sub({ billing_task: "charge", pending_plan_id: "yearly" }),
      system,
      { type: "paid", plan: monthly, pendingPlan: yearly },
      afterEnd,
    );
    expect(paid.ok && paid.change.set).toMatchObject({
      plan_id: "yearly",
      pending_plan_id: null,
      billing_anchor: "2026-02-28T10:00:00.000Z",
      period_index: 0,
      current_period_start: "2026-02-28T10:00:00.000Z",
      current_period_end: "2027-02-28T10:00:00.000Z",
    });
  });

  it("moves a failed renewal to past_due, retries, then gives up as unpaid", () => {
    let current = sub({ billing_task: "charge" });
    const first = decide(current, system, { type: "payment-failed", error: "insufficient_funds" }, afterEnd);
    expect(first).toEqual({
      ok: true,
      change: {
        set: {
          billing_task: null,
          status: "past_due",
          failed_attempts: 1,
          next_retry_at: iso(new Date(afterEnd.getTime() + RETRY_DELAYS_MS[0]!)),
          last_payment_error: "insufficient_funds",
        },
        notify: ["renewalFailed"],
      },
    });
    current = { ...current, ...(first.ok ? first.change.set : {}) };
    expect(decide(current, system, { type: "retry-due" }, afterEnd)).toEqual({ ok: false, refusal: "tooEarly" });
    for (let attempt = 2; attempt <= RETRY_DELAYS_MS.length; attempt += 1) {
      const due = decide(current, system, { type: "retry-due" }, new Date(current.next_retry_at!));
      expect(due.ok).toBe(true);
      current = { ...current, ...(due.ok ? due.change.set : {}) };
      const failed = decide(
        current,
        system,
        { type: "payment-failed", error: "insufficient_funds" },
        new Date(current.next_retry_at ?? afterEnd),
      );
      expect(failed.ok && failed.change.set.status).toBe("past_due");
      expect(failed.ok && failed.change.notify).toEqual([]);
      current = { ...current, ...(failed.ok ? failed.change.set : {}) };
    }
    const due = decide(current, system, { type: "retry-due" }, new Date(current.next_retry_at!));
    current = { ...current, ...(due.ok ? due.change.set : {}) };
    const last = decide(current, system, { type: "payment-failed", error: "insufficient_funds" }, new Date());
    expect(last.ok && last.change.set.status).toBe("unpaid");
    expect(last.ok && last.change.notify).toEqual(["unpaid"]);
  });

  it("recovers a past_due subscription into the period it missed, and an unpaid one into a fresh period", () => {
    const pastDue = sub({ status: "past_due", billing_task: "charge", failed_attempts: 1 });
    const paid = decide(
      pastDue,
      system,
      { type: "paid", plan: monthly, pendingPlan: null },
      utc("2026-03-02T00:00:00.000Z"),
    );
    expect(paid.ok && paid.change.set).toMatchObject({
      status: "active",
      failed_attempts: 0,
      current_period_start: "2026-02-28T10:00:00.000Z",
      current_period_end: "2026-03-31T10:00:00.000Z",
    });
    const unpaid = sub({ status: "unpaid", billing_task: "charge", failed_attempts: 4 });
    const later = utc("2026-04-10T00:00:00.000Z");
    const fresh = decide(unpaid, system, { type: "paid", plan: monthly, pendingPlan: null }, later);
    expect(fresh.ok && fresh.change.set).toMatchObject({
      status: "active",
      billing_anchor: iso(later),
      current_period_end: "2026-05-10T00:00:00.000Z",
    });
  });

  it("cancels at the period end, hides nothing twice, reactivates before the end, and ends after it", () => {
    const cancelled = decide(sub(), me, { type: "cancel" }, during);
    expect(cancelled).toEqual({
      ok: true,
      change: { set: { cancel_at_period_end: 1, canceled_at: iso(during), pending_plan_id: null }, notify: [] },
    });
    const pending = sub({ cancel_at_period_end: 1, canceled_at: iso(during) });
    expect(decide(pending, me, { type: "cancel" }, during)).toEqual({ ok: true, change: { set: {}, notify: [] } });
    expect(decide(pending, system, { type: "renewal-due" }, afterEnd)).toEqual({ ok: false, refusal: "wrongState" });
    expect(decide(pending, me, { type: "reactivate" }, during)).toEqual({
      ok: true,
      change: { set: { cancel_at_period_end: 0, canceled_at: null }, notify: [] },
    });
    expect(decide(sub(), me, { type: "reactivate" }, during)).toEqual({ ok: true, change: { set: {}, notify: [] } });
    expect(decide(pending, me, { type: "reactivate" }, afterEnd)).toEqual({ ok: false, refusal: "wrongState" });
    expect(decide(pending, system, { type: "period-ended" }, during)).toEqual({ ok: false, refusal: "tooEarly" });
    expect(decide(pending, system, { type: "period-ended" }, afterEnd)).toEqual({
      ok: true,
      change: {
        set: { status: "canceled", ended_at: "2026-02-28T10:00:00.000Z", pending_plan_id: null },
        notify: ["ended"],
      },
    });
    expect(decide(sub(), system, { type: "period-ended" }, afterEnd)).toEqual({ ok: false, refusal: "wrongState" });
  });

  it("ends a past_due or unpaid subscription at once when cancelled", () => {
    for (const status of ["past_due", "unpaid"] as const) {
      const decision = decide(sub({ status }), me, { type: "cancel" }, during);
      expect(decision.ok && decision.change.set).toMatchObject({ status: "canceled", ended_at: iso(during) });
    }
    expect(decide(sub({ status: "past_due", billing_task: "charge" }), me, { type: "cancel" }, during)).toEqual({
      ok: false,
      refusal: "chargePending",
    });
    expect(decide(incomplete(), me, { type: "cancel" }, during)).toEqual({ ok: false, refusal: "wrongState" });
  });

  it("schedules a plan switch for the period end, and withdraws it", () => {
    expect(decide(sub(), me, { type: "switch", planId: "yearly" }, during)).toEqual({
      ok: true,
      change: { set: { pending_plan_id: "yearly", cancel_at_period_end: 0, canceled_at: null }, notify: [] },
    });
    expect(decide(sub({ pending_plan_id: "yearly" }), me, { type: "switch", planId: "yearly" }, during)).toEqual({
      ok: true,
      change: { set: {}, notify: [] },
    });
    expect(decide(sub(), me, { type: "switch", planId: "monthly" }, during)).toEqual({
      ok: false,
      refusal: "samePlan",
    });
    expect(decide(sub({ pending_plan_id: "yearly" }), me, { type: "keep-plan" }, during)).toEqual({
      ok: true,
      change: { set: { pending_plan_id: null }, notify: [] },
    });
    expect(decide(sub({ status: "past_due" }), me, { type: "switch", planId: "yearly" }, during)).toEqual({
      ok: false,
      refusal: "wrongState",
    });
  });

  it("lets the subscriber pay a failed renewal now", () => {
    expect(decide(sub({ status: "past_due", next_retry_at: iso(afterEnd) }), me, { type: "retry" }, during)).toEqual({
      ok: true,
      change: { set: { billing_task: "charge", next_retry_at: null }, notify: [] },
    });
    expect(decide(sub({ status: "unpaid" }), me, { type: "retry" }, during).ok).toBe(true);
    expect(decide(sub(), me, { type: "retry" }, during)).toEqual({ ok: false, refusal: "wrongState" });
    expect(decide(sub({ status: "past_due", billing_task: "charge" }), me, { type: "retry" }, during)).toEqual({
      ok: false,
      refusal: "chargePending",
    });
  });

  it("refuses people for what only the system does, and strangers for everything", () => {
    for (const event of [
      { type: "cancel" },
      { type: "reactivate" },
      { type: "keep-plan" },
      { type: "retry" },
      { type: "switch", planId: "yearly" },
    ] as const) {
      expect(
        decide(
          sub({ cancel_at_period_end: 1, status: event.type === "retry" ? "past_due" : "active" }),
          stranger,
          event,
          during,
        ),
      ).toEqual({ ok: false, refusal: "notYours" });
      expect(decide(sub(), system, event, during)).toEqual({ ok: false, refusal: "notYours" });
    }
    for (const event of [
      { type: "paid", plan: monthly, pendingPlan: null },
      { type: "payment-failed", error: "x" },
      { type: "renewal-due" },
      { type: "retry-due" },
      { type: "period-ended" },
      { type: "replace" },
      { type: "expire" },
    ] as const) {
      expect(decide(sub({ billing_task: "charge" }), me, event, afterEnd)).toEqual({ ok: false, refusal: "notYours" });
    }
  });

  it("applies a payment answer once: a repeat finds no charge waiting", () => {
    expect(decide(sub(), system, { type: "paid", plan: monthly, pendingPlan: null }, afterEnd)).toEqual({
      ok: false,
      refusal: "wrongState",
    });
    expect(decide(sub(), system, { type: "payment-failed", error: "x" }, afterEnd)).toEqual({
      ok: false,
      refusal: "wrongState",
    });
    expect(decide(sub({ billing_task: "charge" }), system, { type: "renewal-due" }, afterEnd)).toEqual({
      ok: false,
      refusal: "chargePending",
    });
  });

  it("replaces an incomplete or unpaid subscription, and expires an unpaid first attempt after a day", () => {
    const stale = sub({ status: "incomplete", billing_task: null });
    expect(decide(stale, system, { type: "replace" }, during)).toEqual({
      ok: true,
      change: { set: { ended_at: iso(during) }, notify: [] },
    });
    expect(decide(sub({ status: "unpaid" }), system, { type: "replace" }, during).ok).toBe(true);
    expect(decide(sub(), system, { type: "replace" }, during)).toEqual({ ok: false, refusal: "wrongState" });
    expect(decide(stale, system, { type: "expire" }, new Date(start.getTime() + 3600_000))).toEqual({
      ok: false,
      refusal: "tooEarly",
    });
    expect(decide(stale, system, { type: "expire" }, new Date(start.getTime() + 24 * 3600_000)).ok).toBe(true);
  });
});

describe("checkout, perks and labels", () => {
  it("decides between a new subscription, a switch and a refusal", () => {
    expect(checkoutKind(undefined, "monthly")).toEqual({ ok: true, kind: "new" });
    expect(checkoutKind(sub(), "monthly")).toEqual({ ok: false, refusal: "samePlan" });
    expect(checkoutKind(sub({ cancel_at_period_end: 1 }), "monthly")).toEqual({ ok: false, refusal: "samePlan" });
    expect(checkoutKind(sub(), "yearly")).toEqual({ ok: true, kind: "switch" });
    expect(checkoutKind(sub({ status: "past_due" }), "yearly")).toEqual({ ok: false, refusal: "pastDue" });
    expect(checkoutKind(sub({ status: "unpaid" }), "monthly")).toEqual({ ok: true, kind: "new" });
    expect(checkoutKind(sub({ status: "incomplete" }), "monthly")).toEqual({ ok: true, kind: "new" });
    expect(checkoutKind(sub({ billing_task: "charge" }), "yearly")).toEqual({ ok: false, refusal: "chargePending" });
    expect(checkoutKind(sub({ status: "canceled", ended_at: iso(start) }), "monthly")).toEqual({
      ok: true,
      kind: "new",
    });
  });

  it("gives the perks while active or retrying, never after the end", () => {
    expect(isPremium(sub(), during)).toBe(true);
    expect(isPremium(sub(), afterEnd)).toBe(false);
    expect(isPremium(sub({ status: "past_due" }), afterEnd)).toBe(true);
    expect(isPremium(sub({ status: "unpaid" }), during)).toBe(false);
    expect(isPremium(sub({ status: "incomplete" }), during)).toBe(false);
    expect(isPremium(sub({ status: "canceled", ended_at: iso(afterEnd) }), during)).toBe(false);
    expect(isPremium(null, during)).toBe(false);
  });

  it("shows 'inactive' without a subscription", () => {
    expect(displayStatus(null)).toBe("inactive");
    expect(displayStatus(sub({ status: "past_due" }))).toBe("past_due");
    expect(displayStatus(sub({ status: "incomplete", ended_at: iso(start) }))).toBe("inactive");
    expect(displayStatus(sub({ status: "canceled", ended_at: iso(start) }))).toBe("canceled");
  });
});

describe("a subscription the processor bills (synced)", () => {
  const facts = (overrides: Partial<ProcessorFacts> = {}): ProcessorFacts => ({
    status: "active",
    currentPeriodStart: iso(start),
    currentPeriodEnd: "2026-02-28T10:00:00.000Z",
    cancelAtPeriodEnd: false,
    endedAt: null,
    paymentError: null,
    ...overrides,
  });
  const synced = (subscription: SubscriptionFacts, overrides: Partial<ProcessorFacts> = {}, actor: Actor = system) =>
    decide(subscription, actor, { type: "synced", facts: facts(overrides) }, during);

  it("activates an incomplete one with the processor's period and tells the subscriber once", () => {
    const first = sub({
      status: "incomplete",
      billing_anchor: null,
      current_period_start: null,
      current_period_end: null,
    });
    expect(synced(first)).toEqual({
      ok: true,
      change: {
        set: {
          status: "active",
          billing_anchor: iso(start),
          current_period_start: iso(start),
          current_period_end: "2026-02-28T10:00:00.000Z",
        },
        notify: ["activated"],
      },
    });
    // The same facts again change nothing.
    expect(synced(sub())).toEqual({ ok: true, change: { set: {}, notify: [] } });
  });

  it("moves to the next period on a renewal, past due on a failed one, unpaid when the retries run out", () => {
    expect(
      synced(sub(), { currentPeriodStart: "2026-02-28T10:00:00.000Z", currentPeriodEnd: "2026-03-31T10:00:00.000Z" }),
    ).toEqual({
      ok: true,
      change: {
        set: {
          current_period_start: "2026-02-28T10:00:00.000Z",
          current_period_end: "2026-03-31T10:00:00.000Z",
          period_index: 1,
        },
        notify: ["renewed"],
      },
    });
    expect(synced(sub(), { status: "past_due", paymentError: "card_declined" })).toEqual({
      ok: true,
      change: {
        set: { status: "past_due", last_payment_error: "card_declined", failed_attempts: 1 },
        notify: ["renewalFailed"],
      },
    });
    expect(
      synced(sub({ status: "past_due", failed_attempts: 1, last_payment_error: "card_declined" }), {
        status: "unpaid",
      }),
    ).toEqual({ ok: true, change: { set: { status: "unpaid" }, notify: ["unpaid"] } });
  });

  it("follows cancel_at_period_end both ways, and ends when the processor cancels", () => {
    expect(synced(sub(), { cancelAtPeriodEnd: true })).toEqual({
      ok: true,
      change: { set: { cancel_at_period_end: 1, canceled_at: iso(during) }, notify: [] },
    });
    expect(synced(sub({ cancel_at_period_end: 1, canceled_at: iso(during) }))).toEqual({
      ok: true,
      change: { set: { cancel_at_period_end: 0, canceled_at: null }, notify: [] },
    });
    const ended = synced(sub({ cancel_at_period_end: 1, canceled_at: iso(during) }), {
      status: "canceled",
      cancelAtPeriodEnd: true,
      endedAt: "2026-02-28T10:00:00.000Z",
    });
    expect(ended).toEqual({
      ok: true,
      change: { set: { status: "canceled", ended_at: "2026-02-28T10:00:00.000Z" }, notify: ["ended"] },
    });
  });

  it("never brings an ended subscription back, never lets a person sync, and keeps an active one active when an old 'incomplete' arrives", () => {
    expect(synced(sub({ status: "canceled", ended_at: iso(start) }))).toEqual({ ok: false, refusal: "wrongState" });
    expect(synced(sub(), {}, { kind: "user", userId: owner })).toEqual({ ok: false, refusal: "notYours" });
    expect(synced(sub(), { status: "incomplete" })).toEqual({ ok: false, refusal: "wrongState" });
  });

  it("ends an expired first payment without a notice", () => {
    expect(
      synced(
        sub({ status: "incomplete", billing_anchor: null, current_period_start: null, current_period_end: null }),
        { status: "incomplete_expired", endedAt: iso(during) },
      ),
    ).toEqual({
      ok: true,
      change: { set: { ended_at: iso(during) }, notify: [] },
    });
  });
});

describe("linking the processor's subscription", () => {
  it("keeps the processor's id once, even on an ended attempt, and refuses another", () => {
    expect(decide(incomplete(), system, { type: "linked", ref: "sub_1" }, start)).toEqual({
      ok: true,
      change: { set: { provider_subscription_ref: "sub_1" }, notify: [] },
    });
    expect(
      decide(sub({ status: "incomplete", ended_at: iso(start) }), system, { type: "linked", ref: "sub_1" }, start),
    ).toMatchObject({ ok: true, change: { set: { provider_subscription_ref: "sub_1" } } });
    expect(
      decide(sub({ provider_subscription_ref: "sub_1" }), system, { type: "linked", ref: "sub_1" }, start),
    ).toEqual({ ok: true, change: { set: {}, notify: [] } });
    expect(
      decide(sub({ provider_subscription_ref: "sub_1" }), system, { type: "linked", ref: "sub_2" }, start),
    ).toEqual({ ok: false, refusal: "wrongState" });
    expect(decide(incomplete(), me, { type: "linked", ref: "sub_1" }, start)).toEqual({
      ok: false,
      refusal: "notYours",
    });
  });
});

describe("a checkout creates the subscription", () => {
  const created = {
    type: "created" as const,
    id: "sub-new",
    userId: owner,
    planId: "yearly",
    provider: "test",
    billingTask: "charge" as const,
  };
  const row = {
    id: "sub-new",
    user_id: owner,
    plan_id: "yearly",
    status: "incomplete",
    provider: "test",
    billing_task: "charge",
    created_at: iso(during),
    updated_at: iso(during),
  };

  it("makes a new incomplete subscription waiting for its first payment", () => {
    expect(decideStart(null, me, created, during)).toEqual({ ok: true, row, replaced: null });
    expect(decideStart(null, me, { ...created, provider: "stripe", billingTask: null }, during)).toMatchObject({
      ok: true,
      row: { provider: "stripe", billing_task: null },
    });
  });

  it("takes the place of an attempt that was never paid, or of an unpaid subscription", () => {
    expect(decideStart(sub({ status: "incomplete", billing_task: null }), me, created, during)).toEqual({
      ok: true,
      row,
      replaced: { set: { ended_at: iso(during) }, notify: [] },
    });
    expect(decideStart(sub({ status: "unpaid" }), me, created, during)).toEqual({
      ok: true,
      row,
      replaced: { set: { status: "canceled", canceled_at: iso(during), ended_at: iso(during) }, notify: [] },
    });
  });

  it("refuses someone else, a paid-up subscription and a charge under way", () => {
    expect(decideStart(null, stranger, created, during)).toEqual({ ok: false, refusal: "notYours" });
    expect(decideStart(null, system, created, during)).toEqual({ ok: false, refusal: "notYours" });
    expect(decideStart(sub(), me, created, during)).toEqual({ ok: false, refusal: "wrongState" });
    expect(decideStart(sub({ status: "past_due" }), me, created, during)).toEqual({ ok: false, refusal: "wrongState" });
    expect(decideStart(incomplete(), me, created, during)).toEqual({ ok: false, refusal: "chargePending" });
  });
});
