import { sql, type Kysely, type RawBuilder, type Transaction } from "kysely";
import type { Database, Subscription, SubscriptionPlan, User } from "~db/schema";
import { db, flag, jsonList, lockedForDecision, lockPeople } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { notify } from "~/features/notifications/index.server";
import type { PaymentFailureCode } from "~/features/payments";
import {
  decide,
  decideStart,
  isPremium,
  type Actor,
  type Change,
  type NoticeKind,
  type Refusal,
  type StartEvent,
  type SubscriptionEvent,
} from "./machine";
import { subscriptionNoticeEmail } from "./emails.server";

/** The one place that writes machine.ts's answers; charges and processor calls come after the commit. */

export type Tx = Transaction<Database> | Kysely<Database>;

/** `unavailable`: the processor did not answer (or refused); nothing changed, the person may try again. */
export type TransitionResult =
  { ok: true; subscription: Subscription } | { ok: false; refusal: Refusal | "notFound" | "unavailable" };

export type CheckoutOutcome =
  | { status: "active"; subscription: Subscription }
  | { status: "switched"; subscription: Subscription }
  | { status: "confirm"; subscriptionId: string; clientSecret: string }
  | { status: "failed"; code: PaymentFailureCode | "no_payment_method" }
  | {
      status: "refused";
      reason: "notFound" | "samePlan" | "pastDue" | "chargePending" | "stale" | "switchAtPeriodEnd";
    };

export const SELF_BILLING_PROVIDERS = ["stripe"];

export interface PlanView {
  id: string;
  name: string;
  priceCents: number;
  currency: string;
  interval: SubscriptionPlan["interval"];
  features: string[];
  popular: boolean;
}

const toPlanView = (plan: SubscriptionPlan): PlanView => ({
  id: plan.id,
  name: plan.name,
  priceCents: plan.price_cents,
  currency: plan.currency,
  interval: plan.interval,
  features: jsonList.read(plan.features),
  popular: flag.read(plan.popular),
});

export async function listPlans(): Promise<PlanView[]> {
  const plans = await db
    .selectFrom("subscription_plans")
    .selectAll()
    .where("active", "=", 1)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return plans.map(toPlanView);
}

export async function findPlan(id: string, database: Tx = db): Promise<SubscriptionPlan | undefined> {
  return database
    .selectFrom("subscription_plans")
    .selectAll()
    .where("id", "=", id)
    .where("active", "=", 1)
    .executeTakeFirst();
}

export async function findSubscription(id: string, database: Tx = db): Promise<Subscription | undefined> {
  return database.selectFrom("subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function liveSubscriptionOf(userId: string, database: Tx = db): Promise<Subscription | undefined> {
  return database
    .selectFrom("subscriptions")
    .selectAll()
    .where("user_id", "=", userId)
    .where("ended_at", "is", null)
    .executeTakeFirst();
}

export async function isPremiumUser(userId: string, database: Tx = db): Promise<boolean> {
  return isPremium(await liveSubscriptionOf(userId, database), now());
}

/**
 * Premium from a person's row already at hand (the signed-in person's): their `premium_until`, which
 * triggers on subscriptions keep as isPremium answers (migration 0027), so no subscription is read.
 */
export function hasPremium(person: Pick<User, "premium_until">, at: Date = now()): boolean {
  return person.premium_until !== null && person.premium_until > at.toISOString();
}

/**
 * Premium as the people's own column `premium_until` (`usersAlias` is the users table's alias), which
 * triggers on subscriptions keep as isPremium answers (migration 0027): a deck tests it inside its
 * place index instead of looking up a subscription per candidate. A value, true or false, to select or
 * order by; premiumFilterSql is the same test as a condition. `at` is when, a Date or its ISO time.
 */
export function premiumSql(usersAlias: string, at: Date | string = now()): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${usersAlias}.premium_until`)} is not null and ${premiumFilterSql(usersAlias, at)})`;
}

/**
 * Only premium people, as a condition (null, so false, where premium_until is null). Without premiumSql's
 * `is not null`: PostgreSQL counts the people without a date once in each term, so it took premium people
 * for some 80 times rarer than they are and read a whole place index to find a page of them.
 */
export function premiumFilterSql(usersAlias: string, at: Date | string = now()): RawBuilder<boolean> {
  // A string is the moment as stored (an ISO time), or a prepared query's stand-in for one: bound as is.
  return sql<boolean>`${sql.ref(`${usersAlias}.premium_until`)} > ${at instanceof Date ? at.toISOString() : at}`;
}

export interface SubscriptionSummary {
  live: Subscription | null;
  plan: PlanView | null;
  pendingPlan: PlanView | null;
  lastEnded: (Subscription & { planName: string }) | null;
}

export async function subscriptionSummary(userId: string): Promise<SubscriptionSummary> {
  const live = (await liveSubscriptionOf(userId)) ?? null;
  if (live) {
    const plan = await db
      .selectFrom("subscription_plans")
      .selectAll()
      .where("id", "=", live.plan_id)
      .executeTakeFirstOrThrow();
    const pending = live.pending_plan_id
      ? await db.selectFrom("subscription_plans").selectAll().where("id", "=", live.pending_plan_id).executeTakeFirst()
      : undefined;
    return { live, plan: toPlanView(plan), pendingPlan: pending ? toPlanView(pending) : null, lastEnded: null };
  }
  const last = await db
    .selectFrom("subscriptions as s")
    .innerJoin("subscription_plans as p", "p.id", "s.plan_id")
    .selectAll("s")
    .select("p.name as planName")
    .where("s.user_id", "=", userId)
    .where("s.status", "=", "canceled")
    .orderBy("s.ended_at", "desc")
    .executeTakeFirst();
  return { live: null, plan: null, pendingPlan: null, lastEnded: last ?? null };
}

export async function transition(id: string, actor: Actor, event: SubscriptionEvent): Promise<TransitionResult> {
  const result = await db.transaction().execute((trx) => applyInTransaction(trx, id, actor, event));
  if (result.ok) deliverSoon();
  return result;
}

/** A subscription read for a decision: its member locked first (as a new subscription locks them), then its row. */
async function lockedSubscription(trx: Transaction<Database>, id: string): Promise<Subscription | undefined> {
  const seen = await findSubscription(id, trx);
  if (!seen) return undefined;
  if (!(await lockPeople(trx, seen.user_id))) return seen;
  return trx.selectFrom("subscriptions").selectAll().where("id", "=", id).$call(lockedForDecision).executeTakeFirst();
}

export async function applyInTransaction(
  trx: Transaction<Database>,
  id: string,
  actor: Actor,
  event: SubscriptionEvent,
): Promise<TransitionResult> {
  const subscription = await lockedSubscription(trx, id);
  // Someone else's subscription does not exist for this person.
  if (!subscription || (actor.kind === "user" && actor.userId !== subscription.user_id))
    return { ok: false, refusal: "notFound" };
  if (event.type === "switch" && !(await findPlan(event.planId, trx))) return { ok: false, refusal: "notFound" };
  const at = now();
  const decision = decide(subscription, actor, event, at);
  if (!decision.ok) return decision;
  return { ok: true, subscription: await write(trx, subscription, decision.change, at) };
}

export async function startSubscription(
  actor: Actor,
  event: StartEvent,
): Promise<{ ok: true; replaced: Subscription | null } | { ok: false; refusal: Refusal | "notFound" }> {
  const result = await db.transaction().execute(async (trx) => {
    await lockPeople(trx, event.userId);
    if (!(await findPlan(event.planId, trx))) return { ok: false as const, refusal: "notFound" as const };
    const live = (await liveSubscriptionOf(event.userId, trx)) ?? null;
    const at = now();
    const decision = decideStart(live, actor, event, at);
    if (!decision.ok) return decision;
    if (live && decision.replaced) await write(trx, live, decision.replaced, at);
    await trx.insertInto("subscriptions").values(decision.row).execute();
    return { ok: true as const, replaced: live };
  });
  if (result.ok) deliverSoon();
  return result;
}

async function write(
  trx: Transaction<Database>,
  subscription: Subscription,
  change: Change,
  at: Date,
): Promise<Subscription> {
  if (Object.keys(change.set).length > 0) {
    await trx
      .updateTable("subscriptions")
      .set({ ...change.set, updated_at: at.toISOString() })
      .where("id", "=", subscription.id)
      .execute();
  }
  const updated = (await findSubscription(subscription.id, trx))!;
  await tellSubscriber(trx, updated, change.notify);
  return updated;
}

const ATTENTION: NoticeKind[] = ["renewalFailed", "unpaid", "ended"];

async function tellSubscriber(trx: Transaction<Database>, subscription: Subscription, notices: NoticeKind[]) {
  if (notices.length === 0) return;
  const person = await trx
    .selectFrom("users")
    .select(["id", "name", "email", "language", "time_zone"])
    .where("id", "=", subscription.user_id)
    .executeTakeFirstOrThrow();
  const plan = await trx
    .selectFrom("subscription_plans")
    .select(["id", "name", "price_cents"])
    .where("id", "=", subscription.plan_id)
    .executeTakeFirstOrThrow();
  for (const kind of notices) {
    const date = kind === "ended" ? subscription.ended_at : subscription.current_period_end;
    // In-app notices are for what needs attention; receipts go by email only (the person who just paid sees a toast).
    if (ATTENTION.includes(kind))
      await notify(
        {
          userId: person.id,
          type: "subscription",
          data: { kind, plan: plan.id, date: date ?? "" },
          link: "/subscription?tab=mine",
        },
        trx,
      );
    await enqueueEmail(
      await subscriptionNoticeEmail(person, kind, {
        planId: plan.id,
        planName: plan.name,
        priceCents: plan.price_cents,
        date,
      }),
      trx,
    );
  }
}
