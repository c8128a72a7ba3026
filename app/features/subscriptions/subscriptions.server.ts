import { randomUUID } from "node:crypto";
import { sql, type Kysely, type RawBuilder, type Transaction } from "kysely";
import type { Database, PaymentMethod, Subscription, SubscriptionPlan } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { serialized } from "~/platform/lock.server";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { notify } from "~/features/notifications/notifications.server";
import { payerCustomer, storedCustomer } from "~/features/payments/customers.server";
import { paymentProvider } from "~/features/payments/payments.server";
import type { CardDetails, CardInput, PaymentFailureCode, PaymentProvider, PaymentResult, ProviderSubscription, SubscriptionBilling } from "~/features/payments/provider";
import { checkoutKind, decide, INTERVAL_MONTHS, isPremium, PREMIUM_STATUSES, type Actor, type CheckoutKind, type NoticeKind, type PlanFacts, type Refusal, type SubscriptionEvent } from "./machine";
import { subscriptionNoticeEmail } from "./emails.server";

/**
 * Premium subscriptions: plans, checkout, the card list and the billing of each period. Like
 * bookings, each transition of machine.ts is written in one transaction; the provider is called
 * after it commits, with an idempotency key made of the subscription, the period, the plan, the
 * attempt and the card, and its answer is applied as a transition of its own. A crash between the
 * two leaves `billing_task` set, and the scheduler finishes it (runCharge is safe to repeat).
 *
 * With a processor that bills the periods itself (Stripe), nothing is charged here: checkout makes
 * the processor's subscription, cancel and reactivate change it (the processor first, then ours),
 * and its state comes back through `applyProcessorState`, from our own calls' answers and from
 * its webhooks alike.
 */

type Tx = Transaction<Database> | Kysely<Database>;

/** `unavailable`: the processor did not answer (or refused); nothing changed, the person may try again. */
export type TransitionResult = { ok: true; subscription: Subscription } | { ok: false; refusal: Refusal | "notFound" | "unavailable" };

/** Providers that bill subscription periods themselves: the scheduler never charges their subscriptions. */
const SELF_BILLING_PROVIDERS = ["stripe"];

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
  /** The processor needs the payer to confirm the first payment (3-D Secure) on the page, with this secret. */
  | { status: "confirm"; subscriptionId: string; clientSecret: string }
  | { status: "failed"; code: PaymentFailureCode | "no_payment_method" }
  | { status: "refused"; reason: "notFound" | "samePlan" | "pastDue" | "chargePending" | "stale" | "switchAtPeriodEnd" };

/**
 * The payment form of a plan. For a person without a live subscription the card is saved (as the
 * default) and the first period charged at once. For one who already has another plan, the card
 * is saved and the plan change waits for the end of the current period (see machine.ts).
 * `attempt` comes from the form and becomes the subscription's id, so a double submit is one checkout.
 */
export async function checkout(user: { id: string; email: string }, planId: string, card: CardInput, attempt: string, provider: PaymentProvider = paymentProvider()): Promise<CheckoutOutcome> {
  return serialized(`subscription:${user.id}`, async (): Promise<CheckoutOutcome> => {
    const earlier = await findSubscription(attempt);
    if (earlier) {
      if (earlier.user_id !== user.id) return { status: "refused", reason: "stale" };
      if (earlier.status === "active") return { status: "active", subscription: earlier };
      // The same form again (a double submit, or Pay after a timeout): the processor's subscription is looked up or made with the same key.
      if (earlier.status === "incomplete" && earlier.ended_at === null && provider.billing) return subscribeAtProcessor(earlier.id, provider.billing);
      return { status: "failed", code: (earlier.last_payment_error as PaymentFailureCode | null) ?? "processing_error" };
    }
    const plan = await findPlan(planId);
    if (!plan) return { status: "refused", reason: "notFound" };
    const current = await liveSubscriptionOf(user.id);
    const kind = checkoutKind(current, plan.id);
    if (!kind.ok) return { status: "refused", reason: kind.refusal };
    if (provider.billing) return checkoutAtProcessor(user, plan, card, attempt, provider, provider.billing, current, kind);

    const saved = await provider.saveCard({ card, email: user.email, purpose: { kind: "subscription", userId: user.id, planId: plan.id }, idempotencyKey: `subscription:${user.id}:card:${attempt}` });
    if (!saved.ok) return { status: "failed", code: saved.code };
    await storeCard(user.id, provider.name, saved.cardRef, saved.details, { makeDefault: true });

    if (current && kind.kind === "switch") {
      // A double submit of a plan change finds the change already waiting, and changes nothing.
      const switched = await transition(current.id, { kind: "user", userId: user.id }, { type: "switch", planId: plan.id });
      if (!switched.ok) return { status: "refused", reason: switched.refusal === "samePlan" ? "samePlan" : "notFound" };
      return { status: "switched", subscription: switched.subscription };
    }

    const created = await insertCheckout(user.id, plan.id, provider.name, attempt, "charge");
    if (!created.ok) return { status: "refused", reason: "chargePending" };
    await runCharge(attempt);
    const after = (await findSubscription(attempt))!;
    if (after.status === "active") return { status: "active", subscription: after };
    return { status: "failed", code: (after.last_payment_error as PaymentFailureCode | null) ?? "processing_error" };
  });
}

/** The new checkout's subscription, in place of a live one that never got (or no longer has) a paid period. */
async function insertCheckout(userId: string, planId: string, provider: string, id: string, billingTask: "charge" | null): Promise<{ ok: true; replaced: Subscription | null } | { ok: false }> {
  const at = now().toISOString();
  return db.transaction().execute(async (trx) => {
    const stillLive = await liveSubscriptionOf(userId, trx);
    if (stillLive) {
      const replaced = await applyInTransaction(trx, stillLive.id, { kind: "system" }, { type: "replace" });
      if (!replaced.ok) return { ok: false as const };
    }
    await trx.insertInto("subscriptions").values({ id, user_id: userId, plan_id: planId, status: "incomplete", provider, billing_task: billingTask, created_at: at, updated_at: at }).execute();
    return { ok: true as const, replaced: stillLive ?? null };
  });
}

/* ------------------------------------------------------------------ subscriptions the processor bills (Stripe) */

/**
 * Checkout with a processor that bills: save the card (made in the browser) as the default, at the
 * processor too, then make the processor's subscription for the plan's price. A plan change is not
 * offered there: the person cancels and chooses the new plan when the current period ends.
 */
async function checkoutAtProcessor(
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
  const saved = await provider.saveCard({ card, email: user.email, customerRef, purpose: { kind: "subscription", userId: user.id, planId: plan.id }, idempotencyKey: `subscription:${user.id}:card:${attempt}` });
  if (!saved.ok) return { status: "failed", code: saved.code };
  const methodId = await storeCard(user.id, provider.name, saved.cardRef, saved.details, { makeDefault: false });
  const defaulted = await makeDefaultCard(user.id, methodId);
  if (!defaulted.ok) return { status: "failed", code: "processing_error" };

  const price = await billing.priceFor({ planId: plan.id, name: plan.name, amountCents: plan.price_cents, currency: plan.currency, intervalMonths: INTERVAL_MONTHS[plan.interval], priceRef: plan.stripe_price_id });
  if (!price.ok) return { status: "failed", code: price.code };
  if (price.priceRef !== plan.stripe_price_id) await db.updateTable("subscription_plans").set({ stripe_price_id: price.priceRef }).where("id", "=", plan.id).execute();

  // A checkout whose subscription the processor never confirmed making (a timeout) is finished, not made twice.
  if (current && current.provider === provider.name && current.status === "incomplete" && current.provider_subscription_ref === null && current.plan_id === plan.id) {
    return subscribeAtProcessor(current.id, billing);
  }
  const created = await insertCheckout(user.id, plan.id, provider.name, attempt, null);
  if (!created.ok) return { status: "refused", reason: "chargePending" };
  const replacedRef = created.replaced?.provider === provider.name ? created.replaced.provider_subscription_ref : null;
  if (replacedRef) {
    // The abandoned attempt's subscription must never be charged later.
    const cancelled = await billing.cancelNow({ subscriptionRef: replacedRef, idempotencyKey: `${created.replaced!.id}:cancel-now` });
    if (!cancelled.ok) console.warn(`The processor could not cancel the replaced subscription ${replacedRef}: ${cancelled.code}`);
  }
  return subscribeAtProcessor(attempt, billing);
}

/**
 * Makes (or, with the same key, looks up) the processor's subscription of one checkout and
 * applies its state. Safe to repeat: the scheduler calls it for a checkout left without an answer.
 */
async function subscribeAtProcessor(id: string, billing: SubscriptionBilling): Promise<CheckoutOutcome> {
  const subscription = (await findSubscription(id))!;
  const plan = await db.selectFrom("subscription_plans").select(["stripe_price_id"]).where("id", "=", subscription.plan_id).executeTakeFirstOrThrow();
  const customerRef = await storedCustomer(subscription.user_id);
  if (!customerRef || !plan.stripe_price_id) return { status: "failed", code: "no_payment_method" };
  const answer = subscription.provider_subscription_ref
    ? await fetchAtProcessor(billing, subscription.provider_subscription_ref)
    : await billing.subscribe({ customerRef, priceRef: plan.stripe_price_id, reference: id, userId: subscription.user_id, idempotencyKey: `${id}:subscribe` });
  if (!answer.ok) return { status: "failed", code: answer.code };
  const applied = await applyProcessorState(answer.subscription, id);
  const after = applied.ok ? applied.subscription : (await findSubscription(id))!;
  if (after.status === "active") return { status: "active", subscription: after };
  if (answer.subscription.actionSecret && after.ended_at === null) return { status: "confirm", subscriptionId: id, clientSecret: answer.subscription.actionSecret };
  return { status: "failed", code: answer.subscription.paymentError ?? "processing_error" };
}

async function fetchAtProcessor(billing: SubscriptionBilling, ref: string): Promise<{ ok: true; subscription: ProviderSubscription } | { ok: false; code: PaymentFailureCode }> {
  try {
    const subscription = await billing.fetch(ref);
    return subscription ? { ok: true, subscription } : { ok: false, code: "processing_error" };
  } catch (error) {
    console.warn(`Could not read subscription ${ref} from the processor`, error);
    return { ok: false, code: "processing_error" };
  }
}

/** After the page confirmed the first payment (3-D Secure): the processor's subscription is read again and applied. */
export async function finishCheckout(userId: string, subscriptionId: string): Promise<CheckoutOutcome> {
  return serialized(`subscription:${userId}`, async (): Promise<CheckoutOutcome> => {
    const subscription = await findSubscription(subscriptionId);
    if (!subscription || subscription.user_id !== userId) return { status: "refused", reason: "notFound" };
    if (subscription.status === "active") return { status: "active", subscription };
    const billing = paymentProvider(subscription.provider).billing;
    if (!billing || subscription.ended_at !== null) return { status: "failed", code: (subscription.last_payment_error as PaymentFailureCode | null) ?? "processing_error" };
    return subscribeAtProcessor(subscriptionId, billing);
  });
}

/**
 * Moves our subscription to the processor's state (a webhook, or the answer to our own call),
 * through the rules' "synced" event. The subscription is found by the processor's id, or by ours
 * that it carries; one we no longer keep (a replaced attempt) that the processor still bills is
 * cancelled there.
 */
export async function applyProcessorState(remote: ProviderSubscription, localId?: string): Promise<TransitionResult & { changed?: boolean }> {
  const local =
    (localId ? await findSubscription(localId) : undefined) ??
    (await db.selectFrom("subscriptions").selectAll().where("provider_subscription_ref", "=", remote.ref).executeTakeFirst()) ??
    (remote.reference ? await findSubscription(remote.reference) : undefined);
  if (!local || (local.provider_subscription_ref !== null && local.provider_subscription_ref !== remote.ref)) return { ok: false, refusal: "notFound" };
  if (local.provider_subscription_ref === null) {
    await db.updateTable("subscriptions").set({ provider_subscription_ref: remote.ref }).where("id", "=", local.id).where("provider_subscription_ref", "is", null).execute();
  }
  const result = await transition(local.id, { kind: "system" }, { type: "synced", facts: remote });
  if (!result.ok && local.ended_at !== null && (remote.status === "active" || remote.status === "past_due")) {
    const billing = paymentProvider(local.provider).billing;
    const cancelled = await billing?.cancelNow({ subscriptionRef: remote.ref, idempotencyKey: `${local.id}:cancel-now` });
    if (cancelled && !cancelled.ok) throw new Error(`Could not cancel subscription ${remote.ref}, which we no longer keep: ${cancelled.code}`);
  }
  return result.ok ? { ...result, changed: result.subscription.updated_at !== local.updated_at || local.provider_subscription_ref === null } : result;
}

/** A webhook named this processor subscription: read it as it is now (so events may come in any order) and apply it. */
export async function reconcileProcessorSubscription(providerName: string, ref: string): Promise<"applied" | `ignored: ${string}`> {
  const billing = paymentProvider(providerName).billing;
  if (!billing) return "ignored: provider does not bill";
  // Network failures throw: the webhook answers 500 and the processor delivers it again.
  const remote = await billing.fetch(ref);
  if (!remote) return "ignored: unknown subscription";
  const result = await applyProcessorState(remote);
  if (!result.ok) return `ignored: ${result.refusal}`;
  return result.changed ? "applied" : "ignored: unchanged";
}

/** Cancel, reactivate or pay now at the processor first; ours changes only once it has. */
async function actAtProcessor(subscription: Subscription, billing: SubscriptionBilling, action: OwnAction): Promise<TransitionResult> {
  const actor: Actor = { kind: "user", userId: subscription.user_id };
  const precheck = decide(subscription, actor, { type: action }, now());
  if (!precheck.ok) return precheck;
  const ref = subscription.provider_subscription_ref;
  if (Object.keys(precheck.change.set).length === 0 || action === "keep-plan" || !ref) return transition(subscription.id, actor, { type: action });
  // The key names the state being changed (updated_at): a retry repeats the request, a later change is a new one.
  const version = subscription.updated_at;
  const answer =
    action === "retry"
      ? await billing.payNow({ subscriptionRef: ref, idempotencyKey: `${subscription.id}:pay-now:${version}` })
      : action === "cancel" && precheck.change.set.ended_at
        ? await billing.cancelNow({ subscriptionRef: ref, idempotencyKey: `${subscription.id}:cancel-now` })
        : await billing.setCancelAtPeriodEnd({ subscriptionRef: ref, cancel: action === "cancel", idempotencyKey: `${subscription.id}:${action}:${version}` });
  if (!answer.ok) return { ok: false, refusal: "unavailable" };
  if (action === "retry") return applyProcessorState(answer.subscription, subscription.id).then(async (result) => (result.ok ? result : { ok: true, subscription: (await findSubscription(subscription.id))! }));
  return transition(subscription.id, actor, { type: action });
}

/* ------------------------------------------------------------------ the person's own actions */

export type OwnAction = "cancel" | "reactivate" | "keep-plan" | "retry";

/** Cancel, reactivate, withdraw a plan change or pay now, on the person's own subscription only. */
export async function actOnSubscription(userId: string, subscriptionId: string, action: OwnAction): Promise<TransitionResult> {
  return serialized(`subscription:${userId}`, async () => {
    const subscription = await findSubscription(subscriptionId);
    if (!subscription || subscription.user_id !== userId) return { ok: false, refusal: "notFound" };
    const billing = paymentProvider(subscription.provider).billing;
    if (billing) return actAtProcessor(subscription, billing, action);
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
    const at = now().toISOString();
    if (makeDefault && hasDefault) await trx.updateTable("payment_methods").set({ is_default: 0, default_since: null }).where("user_id", "=", userId).execute();
    const isDefault = makeDefault || !hasDefault;
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
        is_default: isDefault ? 1 : 0,
        default_since: isDefault ? at : null,
        created_at: at,
      })
      .execute();
    return id;
  });
}

export type AddCardOutcome = { status: "saved"; id: string } | { status: "failed"; code: PaymentFailureCode };

/** Saves a card for later charges; the first card becomes the default. */
export async function addCard(user: { id: string; email: string }, card: CardInput, attempt: string, { makeDefault = false } = {}, provider: PaymentProvider = paymentProvider()): Promise<AddCardOutcome> {
  return serialized(`subscription:${user.id}`, async () => {
    const saved = await provider.saveCard({ card, email: user.email, customerRef: await storedCustomer(user.id), purpose: { kind: "card", userId: user.id }, idempotencyKey: `cards:${user.id}:${attempt}` });
    if (!saved.ok) return { status: "failed", code: saved.code };
    const id = await storeCard(user.id, provider.name, saved.cardRef, saved.details, { makeDefault: false });
    const method = (await db.selectFrom("payment_methods").select("is_default").where("id", "=", id).executeTakeFirstOrThrow());
    if (makeDefault || (provider.billing && method.is_default)) {
      const defaulted = await makeDefaultCard(user.id, id);
      if (!defaulted.ok) return { status: "failed", code: "processing_error" };
    }
    return { status: "saved", id };
  });
}

export type CardEntryOutcome = { status: "ready"; clientSecret: string } | { status: "failed"; code: PaymentFailureCode } | { status: "unavailable" } | { status: "notFound" };

/**
 * For a processor whose card field runs in the browser (Stripe): prepares the entry of a card on
 * the person's own customer record (made once and kept first), for the checkout of a plan
 * (`planId`) or for 'Add a card' (null). The card it makes is taken for that use only.
 */
export async function startSubscriptionCardEntry(user: { id: string; email: string; name: string }, attempt: string, planId: string | null, provider: PaymentProvider = paymentProvider()): Promise<CardEntryOutcome> {
  const startEntry = provider.startCardEntry?.bind(provider);
  if (!startEntry) return { status: "unavailable" };
  if (planId !== null && !(await findPlan(planId))) return { status: "notFound" };
  const customer = await payerCustomer(provider, user);
  if (!customer.ok) return { status: "failed", code: customer.code };
  const started = await startEntry({
    customerRef: customer.customerRef,
    purpose: planId === null ? { kind: "card", userId: user.id } : { kind: "subscription", userId: user.id, planId },
    idempotencyKey: planId === null ? `${user.id}:card-entry:${attempt}` : `${user.id}:subscription-entry:${planId}:${attempt}`,
  });
  if (!started.ok) return { status: "failed", code: started.code };
  return { status: "ready", clientSecret: started.clientSecret };
}

export type CardActionResult = { ok: true } | { ok: false; reason: "notFound" | "inUse" | "unavailable" };

/**
 * Makes a card the default. A processor that bills is told first (the customer's default and the
 * live subscription's), keyed by the card and by when the current default became it, so a retry
 * repeats the request and a later change back to an earlier card is a new one.
 */
async function makeDefaultCard(userId: string, methodId: string): Promise<CardActionResult> {
  const method = await db.selectFrom("payment_methods").selectAll().where("id", "=", methodId).where("user_id", "=", userId).executeTakeFirst();
  if (!method) return { ok: false, reason: "notFound" };
  const current = await defaultCardOf(userId);
  const pushed = await pushDefaultCard(userId, method, `${userId}:default-card:${methodId}:after:${current?.id ?? "none"}:${current?.default_since ?? ""}`);
  if (!pushed.ok) return { ok: false, reason: "unavailable" };
  return db.transaction().execute(async (trx): Promise<CardActionResult> => {
    const still = await trx.selectFrom("payment_methods").select(["id", "is_default"]).where("id", "=", methodId).where("user_id", "=", userId).executeTakeFirst();
    if (!still) return { ok: false, reason: "notFound" };
    if (still.is_default) return { ok: true };
    await trx.updateTable("payment_methods").set({ is_default: 0, default_since: null }).where("user_id", "=", userId).where("id", "!=", methodId).execute();
    await trx.updateTable("payment_methods").set({ is_default: 1, default_since: now().toISOString() }).where("id", "=", methodId).execute();
    return { ok: true };
  });
}

/** Tells a processor that bills which card to charge: the customer's default, and the live subscription's. Others need nothing. */
async function pushDefaultCard(userId: string, method: Pick<PaymentMethod, "provider" | "provider_ref">, idempotencyKey: string): Promise<PaymentResult> {
  const billing = paymentProvider(method.provider).billing;
  if (!billing) return { ok: true };
  const live = await liveSubscriptionOf(userId);
  return billing.setDefaultCard({ cardRef: method.provider_ref, subscriptionRef: live?.provider === method.provider ? live.provider_subscription_ref : null, idempotencyKey });
}

export async function setDefaultCard(userId: string, methodId: string): Promise<CardActionResult> {
  return serialized(`subscription:${userId}`, () => makeDefaultCard(userId, methodId));
}

/**
 * Forgets a card. The last card cannot go while a subscription still needs it for a charge
 * (renewing, or waiting for a retry); when the default goes, the newest other card takes its place.
 */
export async function removeCard(userId: string, methodId: string): Promise<CardActionResult> {
  return serialized(`subscription:${userId}`, async (): Promise<CardActionResult> => {
    const result = await db.transaction().execute(async (trx) => {
      const method = await trx.selectFrom("payment_methods").selectAll().where("id", "=", methodId).where("user_id", "=", userId).executeTakeFirst();
      if (!method) return { ok: false as const, reason: "notFound" as const };
      const others = await trx.selectFrom("payment_methods").select("id").where("user_id", "=", userId).where("id", "!=", methodId).orderBy("created_at", "desc").orderBy("id").execute();
      const live = await liveSubscriptionOf(userId, trx);
      const needsCard = live && ((live.status === "active" && !live.cancel_at_period_end) || live.status === "past_due" || live.billing_task !== null);
      if (others.length === 0 && needsCard) return { ok: false as const, reason: "inUse" as const };
      await trx.deleteFrom("payment_methods").where("id", "=", methodId).execute();
      const successor = method.is_default ? (others[0]?.id ?? null) : null;
      if (successor) await trx.updateTable("payment_methods").set({ is_default: 1, default_since: now().toISOString() }).where("id", "=", successor).execute();
      return { ok: true as const, method, successor };
    });
    if (!result.ok) return result;
    // The provider forgets it after our row is gone: we never charge a card we do not list.
    const removed = await paymentProvider(result.method.provider).removeCard({ cardRef: result.method.provider_ref, idempotencyKey: `remove:${result.method.id}` });
    if (!removed.ok) console.warn(`The provider could not forget card ${result.method.id}: ${removed.code}`);
    const successor = result.successor ? await db.selectFrom("payment_methods").select(["provider", "provider_ref"]).where("id", "=", result.successor).executeTakeFirst() : undefined;
    if (successor) {
      // The newest other card took the default's place: at the processor too (a card is removed once, so its id keys the change).
      const pushed = await pushDefaultCard(userId, successor, `${userId}:default-card:${result.successor}:after-removing:${result.method.id}`);
      if (!pushed.ok) console.warn(`Card ${result.successor} could not become the default at the processor: ${pushed.code}`);
    }
    return { ok: true };
  });
}

/* ------------------------------------------------------------------ the scheduler */

/**
 * Everything that happens because time passed: periods that end (cancelled ones end for good,
 * the others renew), retries of failed renewals, first payments that never came, and charges
 * left unfinished. Each step is a transition that re-checks the subscription, so running this
 * twice at once changes nothing twice. Subscriptions a processor bills are its business (its
 * webhooks move them), except checkouts it never answered, which are asked again.
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
  const billedHere = () => live().where("provider", "not in", SELF_BILLING_PROVIDERS);
  await run(await billedHere().where("status", "=", "active").where("cancel_at_period_end", "=", 1).where("current_period_end", "<=", iso).execute(), { type: "period-ended" });
  await run(
    await billedHere().where("status", "=", "active").where("cancel_at_period_end", "=", 0).where("billing_task", "is", null).where("current_period_end", "<=", iso).execute(),
    { type: "renewal-due" },
  );
  await run(await billedHere().where("status", "=", "past_due").where("billing_task", "is", null).where("next_retry_at", "<=", iso).execute(), { type: "retry-due" });
  // An incomplete checkout the processor knows ends there (incomplete_expired, through its webhook), not here.
  await run(
    await live()
      .where("status", "=", "incomplete")
      .where("billing_task", "is", null)
      .where((eb) => eb.or([eb("provider", "not in", SELF_BILLING_PROVIDERS), eb("provider_subscription_ref", "is", null)]))
      .execute(),
    { type: "expire" },
  );
  for (const { id } of await billedHere().where("billing_task", "is not", null).execute()) await runCharge(id);
  const unanswered = await live().select(["provider", "user_id"]).where("provider", "in", SELF_BILLING_PROVIDERS).where("status", "=", "incomplete").where("provider_subscription_ref", "is", null).execute();
  for (const { id, provider, user_id } of unanswered) {
    // A processor that cannot be reached (or is no longer configured) fails this one, not the round.
    try {
      const billing = paymentProvider(provider).billing;
      if (!billing) continue;
      const outcome = await serialized(`subscription:${user_id}`, () => subscribeAtProcessor(id, billing));
      if (outcome.status === "active") changed += 1;
    } catch (error) {
      console.warn(`Could not ask the processor about checkout ${id}`, error);
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
      console.warn(`Could not read subscription ${ref} from the processor`, error);
    }
  }
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
