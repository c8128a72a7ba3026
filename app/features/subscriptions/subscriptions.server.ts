import { randomUUID } from "node:crypto";
import { sql, type Kysely, type RawBuilder, type Transaction } from "kysely";
import type { Database, PaymentMethod, Subscription, SubscriptionPlan } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { serialized } from "~/platform/lock.server";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { notify } from "~/features/notifications/notifications.server";
import { paymentProvider } from "~/features/payments/payments.server";
import type { CardDetails, CardInput, PaymentFailureCode } from "~/features/payments/provider";
import { checkoutKind, decide, isPremium, PREMIUM_STATUSES, type Actor, type NoticeKind, type PlanFacts, type Refusal, type SubscriptionEvent } from "./machine";
import { subscriptionNoticeEmail } from "./emails.server";

/**
 * Premium subscriptions: plans, checkout, the card list and the billing of each period. Like
 * bookings, each transition of machine.ts is written in one transaction; the provider is called
 * after it commits, with an idempotency key made of the subscription, the period, the plan, the
 * attempt and the card, and its answer is applied as a transition of its own. A crash between the
 * two leaves `billing_task` set, and the scheduler finishes it (runCharge is safe to repeat).
 */

type Tx = Transaction<Database> | Kysely<Database>;

export type TransitionResult = { ok: true; subscription: Subscription } | { ok: false; refusal: Refusal | "notFound" };

/* ------------------------------------------------------------------ plans */

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
  features: JSON.parse(plan.features) as string[],
  popular: plan.popular === 1,
});

export async function listPlans(): Promise<PlanView[]> {
  const plans = await db.selectFrom("subscription_plans").selectAll().where("active", "=", 1).orderBy("position").orderBy("id").execute();
  return plans.map(toPlanView);
}

export async function findPlan(id: string, database: Tx = db): Promise<SubscriptionPlan | undefined> {
  return database.selectFrom("subscription_plans").selectAll().where("id", "=", id).where("active", "=", 1).executeTakeFirst();
}

/* ------------------------------------------------------------------ reading */

export async function findSubscription(id: string, database: Tx = db): Promise<Subscription | undefined> {
  return database.selectFrom("subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The person's subscription that is not over (at most one). */
export async function liveSubscriptionOf(userId: string, database: Tx = db): Promise<Subscription | undefined> {
  return database.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).where("ended_at", "is", null).executeTakeFirst();
}

/** Whether the person has the premium perks now. */
export async function isPremiumUser(userId: string, database: Tx = db): Promise<boolean> {
  return isPremium(await liveSubscriptionOf(userId, database), now());
}

/**
 * SQL for "this user has the perks now" (the deck's boost), as `<column> in (premium members)`:
 * the few members are found first and their rows looked up by key, so it never scans everyone.
 */
export function premiumSql(userIdColumn: string, at: Date = now()): RawBuilder<boolean> {
  const statuses = sql.join(PREMIUM_STATUSES.map((status) => sql.lit(status)));
  return sql<boolean>`${sql.ref(userIdColumn)} in (select prem.user_id from subscriptions prem
    where prem.ended_at is null and prem.status in (${statuses})
    and (prem.status = 'past_due' or prem.current_period_end > ${at.toISOString()}))`;
}

export interface SubscriptionSummary {
  live: Subscription | null;
  plan: PlanView | null;
  pendingPlan: PlanView | null;
  /** The last subscription that ended, when there is no live one (to show when it ended). */
  lastEnded: (Subscription & { planName: string }) | null;
}

export async function subscriptionSummary(userId: string): Promise<SubscriptionSummary> {
  const live = (await liveSubscriptionOf(userId)) ?? null;
  if (live) {
    const plan = await db.selectFrom("subscription_plans").selectAll().where("id", "=", live.plan_id).executeTakeFirstOrThrow();
    const pending = live.pending_plan_id ? await db.selectFrom("subscription_plans").selectAll().where("id", "=", live.pending_plan_id).executeTakeFirst() : undefined;
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

/* ------------------------------------------------------------------ transitions */

export async function transition(id: string, actor: Actor, event: SubscriptionEvent): Promise<TransitionResult> {
  const result = await db.transaction().execute((trx) => applyInTransaction(trx, id, actor, event));
  if (!result.ok) return result;
  deliverSoon();
  if (result.subscription.billing_task) await runCharge(id);
  return { ok: true, subscription: (await findSubscription(id))! };
}

async function applyInTransaction(trx: Transaction<Database>, id: string, actor: Actor, event: SubscriptionEvent): Promise<TransitionResult> {
  const subscription = await findSubscription(id, trx);
  // Someone else's subscription does not exist for this person.
  if (!subscription || (actor.kind === "user" && actor.userId !== subscription.user_id)) return { ok: false, refusal: "notFound" };
  if (event.type === "switch" && !(await findPlan(event.planId, trx))) return { ok: false, refusal: "notFound" };
  const at = now();
  const decision = decide(subscription, actor, event, at);
  if (!decision.ok) return decision;
  if (Object.keys(decision.change.set).length > 0) {
    await trx
      .updateTable("subscriptions")
      .set({ ...decision.change.set, updated_at: at.toISOString() })
      .where("id", "=", id)
      .execute();
  }
  const updated = (await findSubscription(id, trx))!;
  await tellSubscriber(trx, updated, decision.change.notify);
  return { ok: true, subscription: updated };
}

const ATTENTION: NoticeKind[] = ["renewalFailed", "unpaid", "ended"];

async function tellSubscriber(trx: Transaction<Database>, subscription: Subscription, notices: NoticeKind[]) {
  if (notices.length === 0) return;
  const person = await trx.selectFrom("users").select(["id", "name", "email", "language", "time_zone"]).where("id", "=", subscription.user_id).executeTakeFirstOrThrow();
  const plan = await trx.selectFrom("subscription_plans").select(["id", "name", "price_cents"]).where("id", "=", subscription.plan_id).executeTakeFirstOrThrow();
  for (const kind of notices) {
    const date = kind === "ended" ? subscription.ended_at : subscription.current_period_end;
    // In-app notices are for what needs attention; receipts go by email only (the person who just paid sees a toast).
    if (ATTENTION.includes(kind)) await notify({ userId: person.id, type: "subscription", data: { kind, plan: plan.id, date: date ?? "" }, link: "/subscription?tab=mine" }, trx);
    await enqueueEmail(await subscriptionNoticeEmail(person, kind, { planId: plan.id, planName: plan.name, priceCents: plan.price_cents, date }), trx);
  }
}

/* ------------------------------------------------------------------ charging */

/** The person's default card, if any. */
export async function defaultCardOf(userId: string, database: Tx = db): Promise<PaymentMethod | undefined> {
  return database.selectFrom("payment_methods").selectAll().where("user_id", "=", userId).where("is_default", "=", 1).executeTakeFirst();
}

/**
 * Charges the period a subscription waits for (its billing task) on the default card and applies
 * the answer. Safe to call any number of times: the key names the period, plan, attempt and card,
 * so a repeat gets the provider's first answer and the transition is refused once applied.
 */
export function runCharge(id: string): Promise<void> {
  return serialized(`subscription-charge:${id}`, async () => {
    const subscription = await findSubscription(id);
    if (!subscription?.billing_task) return;
    const planId = subscription.status === "incomplete" ? subscription.plan_id : (subscription.pending_plan_id ?? subscription.plan_id);
    const plan = await db.selectFrom("subscription_plans").selectAll().where("id", "=", planId).executeTakeFirstOrThrow();
    const current = await db.selectFrom("subscription_plans").select(["id", "interval"]).where("id", "=", subscription.plan_id).executeTakeFirstOrThrow();
    const card = await defaultCardOf(subscription.user_id);
    const system: Actor = { kind: "system" };
    const key = `${subscription.id}:${subscription.current_period_end ?? "first"}:${plan.id}:${subscription.failed_attempts}:${card?.provider_ref ?? "none"}`;

    let answer: { ok: true; chargeRef: string } | { ok: false; code: PaymentFailureCode | "no_payment_method" };
    if (!card) answer = { ok: false, code: "no_payment_method" };
    else {
      answer = await paymentProvider(card.provider).charge({ cardRef: card.provider_ref, amountCents: plan.price_cents, description: `Trusted Sitters premium: ${plan.name}`, idempotencyKey: key });
    }
    const planFacts: PlanFacts = { id: current.id, interval: current.interval };
    const pendingPlan: PlanFacts | null = subscription.status !== "incomplete" && subscription.pending_plan_id ? { id: plan.id, interval: plan.interval } : null;
    const event: SubscriptionEvent = answer.ok
      ? { type: "paid", plan: subscription.status === "incomplete" ? { id: plan.id, interval: plan.interval } : planFacts, pendingPlan }
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

/* ------------------------------------------------------------------ checkout */

export type CheckoutOutcome =
  | { status: "active"; subscription: Subscription }
  | { status: "switched"; subscription: Subscription }
  | { status: "failed"; code: PaymentFailureCode | "no_payment_method" }
  | { status: "refused"; reason: "notFound" | "samePlan" | "pastDue" | "chargePending" | "stale" };

/**
 * The payment form of a plan. For a person without a live subscription the card is saved (as the
 * default) and the first period charged at once. For one who already has another plan, the card
 * is saved and the plan change waits for the end of the current period (see machine.ts).
 * `attempt` comes from the form and becomes the subscription's id, so a double submit is one checkout.
 */
export async function checkout(user: { id: string; email: string }, planId: string, card: CardInput, attempt: string): Promise<CheckoutOutcome> {
  return serialized(`subscription:${user.id}`, async (): Promise<CheckoutOutcome> => {
    const earlier = await findSubscription(attempt);
    if (earlier) {
      if (earlier.user_id !== user.id) return { status: "refused", reason: "stale" };
      if (earlier.status === "active") return { status: "active", subscription: earlier };
      return { status: "failed", code: (earlier.last_payment_error as PaymentFailureCode | null) ?? "processing_error" };
    }
    const plan = await findPlan(planId);
    if (!plan) return { status: "refused", reason: "notFound" };
    const current = await liveSubscriptionOf(user.id);
    const kind = checkoutKind(current, plan.id);
    if (!kind.ok) return { status: "refused", reason: kind.refusal };

    const provider = paymentProvider();
    const saved = await provider.saveCard({ card, email: user.email, idempotencyKey: `subscription:${user.id}:card:${attempt}` });
    if (!saved.ok) return { status: "failed", code: saved.code };
    await storeCard(user.id, provider.name, saved.cardRef, saved.details, { makeDefault: true });

    if (current && kind.kind === "switch") {
      // A double submit of a plan change finds the change already waiting, and changes nothing.
      const switched = await transition(current.id, { kind: "user", userId: user.id }, { type: "switch", planId: plan.id });
      if (!switched.ok) return { status: "refused", reason: switched.refusal === "samePlan" ? "samePlan" : "notFound" };
      return { status: "switched", subscription: switched.subscription };
    }

    const at = now().toISOString();
    const created = await db.transaction().execute(async (trx) => {
      const stillLive = await liveSubscriptionOf(user.id, trx);
      if (stillLive) {
        const replaced = await applyInTransaction(trx, stillLive.id, { kind: "system" }, { type: "replace" });
        if (!replaced.ok) return false;
      }
      await trx
        .insertInto("subscriptions")
        .values({ id: attempt, user_id: user.id, plan_id: plan.id, status: "incomplete", provider: provider.name, billing_task: "charge", created_at: at, updated_at: at })
        .execute();
      return true;
    });
    if (!created) return { status: "refused", reason: "chargePending" };
    await runCharge(attempt);
    const after = (await findSubscription(attempt))!;
    if (after.status === "active") return { status: "active", subscription: after };
    return { status: "failed", code: (after.last_payment_error as PaymentFailureCode | null) ?? "processing_error" };
  });
}

/* ------------------------------------------------------------------ the person's own actions */

export type OwnAction = "cancel" | "reactivate" | "keep-plan" | "retry";

/** Cancel, reactivate, withdraw a plan change or pay now, on the person's own subscription only. */
export async function actOnSubscription(userId: string, subscriptionId: string, action: OwnAction): Promise<TransitionResult> {
  return serialized(`subscription:${userId}`, async () => {
    const subscription = await findSubscription(subscriptionId);
    if (!subscription || subscription.user_id !== userId) return { ok: false, refusal: "notFound" };
    return transition(subscriptionId, { kind: "user", userId }, { type: action });
  });
}

/* ------------------------------------------------------------------ payment methods */

export interface CardView {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
}

export async function cardsOf(userId: string): Promise<CardView[]> {
  const rows = await db.selectFrom("payment_methods").selectAll().where("user_id", "=", userId).orderBy("is_default", "desc").orderBy("created_at", "desc").orderBy("id").execute();
  return rows.map((row) => ({ id: row.id, brand: row.brand, last4: row.last4, expMonth: row.exp_month, expYear: row.exp_year, isDefault: row.is_default === 1 }));
}

async function storeCard(userId: string, provider: string, cardRef: string, details: CardDetails, { makeDefault }: { makeDefault: boolean }): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const known = await trx.selectFrom("payment_methods").select(["id", "user_id"]).where("provider", "=", provider).where("provider_ref", "=", cardRef).executeTakeFirst();
    if (known) return known.id;
    const hasDefault = Boolean(await defaultCardOf(userId, trx));
    const id = randomUUID();
    if (makeDefault && hasDefault) await trx.updateTable("payment_methods").set({ is_default: 0 }).where("user_id", "=", userId).execute();
    await trx
      .insertInto("payment_methods")
      .values({
        id,
        user_id: userId,
        provider,
        provider_ref: cardRef,
        brand: details.brand.slice(0, 40),
        last4: details.last4.slice(-4),
        exp_month: details.expMonth,
        exp_year: details.expYear,
        is_default: makeDefault || !hasDefault ? 1 : 0,
        created_at: now().toISOString(),
      })
      .execute();
    return id;
  });
}

export type AddCardOutcome = { status: "saved"; id: string } | { status: "failed"; code: PaymentFailureCode };

/** Saves a card for later charges; the first card becomes the default. */
export async function addCard(user: { id: string; email: string }, card: CardInput, attempt: string, { makeDefault = false } = {}): Promise<AddCardOutcome> {
  return serialized(`subscription:${user.id}`, async () => {
    const provider = paymentProvider();
    const saved = await provider.saveCard({ card, email: user.email, idempotencyKey: `cards:${user.id}:${attempt}` });
    if (!saved.ok) return { status: "failed", code: saved.code };
    return { status: "saved", id: await storeCard(user.id, provider.name, saved.cardRef, saved.details, { makeDefault }) };
  });
}

export type CardActionResult = { ok: true } | { ok: false; reason: "notFound" | "inUse" };

export async function setDefaultCard(userId: string, methodId: string): Promise<CardActionResult> {
  return db.transaction().execute(async (trx): Promise<CardActionResult> => {
    const method = await trx.selectFrom("payment_methods").select("id").where("id", "=", methodId).where("user_id", "=", userId).executeTakeFirst();
    if (!method) return { ok: false, reason: "notFound" };
    await trx.updateTable("payment_methods").set({ is_default: 0 }).where("user_id", "=", userId).where("id", "!=", methodId).execute();
    await trx.updateTable("payment_methods").set({ is_default: 1 }).where("id", "=", methodId).execute();
    return { ok: true };
  });
}

/**
 * Forgets a card. The last card cannot go while a subscription still needs it for a charge
 * (renewing, or waiting for a retry); when the default goes, the newest other card takes its place.
 */
export async function removeCard(userId: string, methodId: string): Promise<CardActionResult> {
  const result = await db.transaction().execute(async (trx) => {
    const method = await trx.selectFrom("payment_methods").selectAll().where("id", "=", methodId).where("user_id", "=", userId).executeTakeFirst();
    if (!method) return { ok: false as const, reason: "notFound" as const };
    const others = await trx.selectFrom("payment_methods").select("id").where("user_id", "=", userId).where("id", "!=", methodId).orderBy("created_at", "desc").orderBy("id").execute();
    const live = await liveSubscriptionOf(userId, trx);
    const needsCard = live && ((live.status === "active" && !live.cancel_at_period_end) || live.status === "past_due" || live.billing_task !== null);
    if (others.length === 0 && needsCard) return { ok: false as const, reason: "inUse" as const };
    await trx.deleteFrom("payment_methods").where("id", "=", methodId).execute();
    if (method.is_default && others[0]) await trx.updateTable("payment_methods").set({ is_default: 1 }).where("id", "=", others[0].id).execute();
    return { ok: true as const, method };
  });
  if (!result.ok) return result;
  // The provider forgets it after our row is gone: we never charge a card we do not list.
  const removed = await paymentProvider(result.method.provider).removeCard({ cardRef: result.method.provider_ref, idempotencyKey: `remove:${result.method.id}` });
  if (!removed.ok) console.warn(`The provider could not forget card ${result.method.id}: ${removed.code}`);
  return { ok: true };
}

/* ------------------------------------------------------------------ the scheduler */

/**
 * Everything that happens because time passed: periods that end (cancelled ones end for good,
 * the others renew), retries of failed renewals, first payments that never came, and charges
 * left unfinished. Each step is a transition that re-checks the subscription, so running this
 * twice at once changes nothing twice.
 */
export async function runDueSubscriptionWork(): Promise<number> {
  const at = now();
  const iso = at.toISOString();
  const system: Actor = { kind: "system" };
  let changed = 0;
  const run = async (ids: { id: string }[], event: SubscriptionEvent) => {
    for (const { id } of ids) if ((await transition(id, system, event)).ok) changed += 1;
  };
  const live = () => db.selectFrom("subscriptions").select("id").where("ended_at", "is", null);
  await run(await live().where("status", "=", "active").where("cancel_at_period_end", "=", 1).where("current_period_end", "<=", iso).execute(), { type: "period-ended" });
  await run(
    await live().where("status", "=", "active").where("cancel_at_period_end", "=", 0).where("billing_task", "is", null).where("current_period_end", "<=", iso).execute(),
    { type: "renewal-due" },
  );
  await run(await live().where("status", "=", "past_due").where("billing_task", "is", null).where("next_retry_at", "<=", iso).execute(), { type: "retry-due" });
  await run(await live().where("status", "=", "incomplete").where("billing_task", "is", null).execute(), { type: "expire" });
  for (const { id } of await live().where("billing_task", "is not", null).execute()) await runCharge(id);
  return changed;
}

/* ------------------------------------------------------------------ perks */

export interface Admirer {
  userId: string;
  name: string;
  city: string;
  photoKey: string | null;
  likedAt: string;
  /** The pet of mine they liked (sitters like pets), if any. */
  petName: string | null;
}

/** People who liked me (or one of my pets) and whom I have neither liked nor passed yet, newest first. */
export async function admirersOf(userId: string, limit = 50): Promise<Admirer[]> {
  const rows = await db
    .selectFrom("swipes as s")
    .innerJoin("users as u", "u.id", "s.swiper_id")
    .leftJoin("pets as p", "p.id", "s.target_pet_id")
    .select(["u.id", "u.name", "u.city", "s.created_at", "p.name as pet_name"])
    .select((eb) =>
      eb.selectFrom("photos").select("card_key").whereRef("photos.user_id", "=", "u.id").where("photos.pet_id", "is", null).orderBy("position").limit(1).as("photo_key"),
    )
    .where("s.target_user_id", "=", userId)
    .where("s.decision", "=", "like")
    .where("u.email_verified_at", "is not", null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("swipes as mine").select("mine.id").where("mine.swiper_id", "=", userId).whereRef("mine.target_user_id", "=", "s.swiper_id"))),
    )
    .orderBy("s.created_at", "desc")
    .orderBy("s.id", "desc")
    .limit(limit * 2)
    .execute();
  const seen = new Set<string>();
  const admirers: Admirer[] = [];
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    admirers.push({ userId: row.id, name: row.name, city: row.city, photoKey: row.photo_key, likedAt: row.created_at, petName: row.pet_name });
  }
  return admirers.slice(0, limit);
}

/** How many people wait in 'See who liked you' (shown to free accounts as a teaser, without names). */
export async function admirerCount(userId: string): Promise<number> {
  return (await admirersOf(userId, 100)).length;
}
