import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database, PaymentMethod } from "~db/schema";
import { db, flag, lockPeople } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { payerCustomer, storedCustomer } from "./customers.server";
import { paymentProvider } from "./payments.server";
import type {
  CardDetails,
  CardInput,
  CardPurpose,
  PaymentFailureCode,
  PaymentProvider,
  PaymentResult,
} from "./provider";
import { logger } from "~/platform/log.server";

type Tx = Transaction<Database> | Kysely<Database>;

export type SubscriptionRefOf = (provider: string) => Promise<string | null>;

export interface CardView {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
}

const cardView = (row: PaymentMethod): CardView => ({
  id: row.id,
  brand: row.brand,
  last4: row.last4,
  expMonth: row.exp_month,
  expYear: row.exp_year,
  isDefault: flag.read(row.is_default),
});

export async function cardsOf(userId: string): Promise<CardView[]> {
  const rows = await db
    .selectFrom("payment_methods")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("is_default", "desc")
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(cardView);
}

export async function defaultCardOf(userId: string, database: Tx = db): Promise<PaymentMethod | undefined> {
  return database
    .selectFrom("payment_methods")
    .selectAll()
    .where("user_id", "=", userId)
    .where("is_default", "=", 1)
    .executeTakeFirst();
}

export async function storeCard(
  userId: string,
  provider: string,
  cardRef: string,
  details: CardDetails,
  { makeDefault }: { makeDefault: boolean },
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await lockPeople(trx, userId);
    const known = await trx
      .selectFrom("payment_methods")
      .select(["id", "user_id"])
      .where("provider", "=", provider)
      .where("provider_ref", "=", cardRef)
      .executeTakeFirst();
    if (known) return known.id;
    const hasDefault = Boolean(await defaultCardOf(userId, trx));
    const id = randomUUID();
    const at = now().toISOString();
    if (makeDefault && hasDefault)
      await trx
        .updateTable("payment_methods")
        .set({ is_default: 0, default_since: null })
        .where("user_id", "=", userId)
        .execute();
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
        is_default: flag.write(isDefault),
        default_since: isDefault ? at : null,
        created_at: at,
      })
      .execute();
    return id;
  });
}

export type AddCardOutcome = { status: "saved"; id: string } | { status: "failed"; code: PaymentFailureCode };

export async function addSavedCard(
  user: { id: string; email: string },
  card: CardInput,
  attempt: string,
  { makeDefault = false } = {},
  provider: PaymentProvider,
  subscriptionRefOf: SubscriptionRefOf,
): Promise<AddCardOutcome> {
  const saved = await provider.saveCard({
    card,
    email: user.email,
    customerRef: await storedCustomer(user.id),
    purpose: { kind: "card", userId: user.id },
    idempotencyKey: `cards:${user.id}:${attempt}`,
  });
  if (!saved.ok) return { status: "failed", code: saved.code };
  const id = await storeCard(user.id, provider.name, saved.cardRef, saved.details, { makeDefault: false });
  const method = await db
    .selectFrom("payment_methods")
    .select("is_default")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  if (makeDefault || (provider.billing && method.is_default)) {
    const defaulted = await makeDefaultCard(user.id, id, subscriptionRefOf);
    if (!defaulted.ok) return { status: "failed", code: "processing_error" };
  }
  return { status: "saved", id };
}

export type CardEntryOutcome =
  | { status: "ready"; clientSecret: string }
  | { status: "failed"; code: PaymentFailureCode }
  | { status: "unavailable" };

export async function startSavedCardEntry(
  user: { id: string; email: string; name: string },
  purpose: CardPurpose,
  idempotencyKey: string,
  provider: PaymentProvider,
): Promise<CardEntryOutcome> {
  const startEntry = provider.startCardEntry?.bind(provider);
  if (!startEntry) return { status: "unavailable" };
  const customer = await payerCustomer(provider, user);
  if (!customer.ok) return { status: "failed", code: customer.code };
  const started = await startEntry({ customerRef: customer.customerRef, purpose, idempotencyKey });
  if (!started.ok) return { status: "failed", code: started.code };
  return { status: "ready", clientSecret: started.clientSecret };
}

export type CardActionResult = { ok: true } | { ok: false; reason: "notFound" | "inUse" | "unavailable" };

/** Keyed by when the current default became it, so a later change back to an earlier card is a new request. */
export async function makeDefaultCard(
  userId: string,
  methodId: string,
  subscriptionRefOf: SubscriptionRefOf,
): Promise<CardActionResult> {
  const method = await db
    .selectFrom("payment_methods")
    .selectAll()
    .where("id", "=", methodId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!method) return { ok: false, reason: "notFound" };
  const current = await defaultCardOf(userId);
  const pushed = await pushDefaultCard(
    method,
    `${userId}:default-card:${methodId}:after:${current?.id ?? "none"}:${current?.default_since ?? ""}`,
    subscriptionRefOf,
  );
  if (!pushed.ok) return { ok: false, reason: "unavailable" };
  return db.transaction().execute(async (trx): Promise<CardActionResult> => {
    await lockPeople(trx, userId);
    const still = await trx
      .selectFrom("payment_methods")
      .select(["id", "is_default"])
      .where("id", "=", methodId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!still) return { ok: false, reason: "notFound" };
    if (still.is_default) return { ok: true };
    await trx
      .updateTable("payment_methods")
      .set({ is_default: 0, default_since: null })
      .where("user_id", "=", userId)
      .where("id", "!=", methodId)
      .execute();
    await trx
      .updateTable("payment_methods")
      .set({ is_default: 1, default_since: now().toISOString() })
      .where("id", "=", methodId)
      .execute();
    return { ok: true };
  });
}

async function pushDefaultCard(
  method: Pick<PaymentMethod, "provider" | "provider_ref">,
  idempotencyKey: string,
  subscriptionRefOf: SubscriptionRefOf,
): Promise<PaymentResult> {
  const billing = paymentProvider(method.provider).billing;
  if (!billing) return { ok: true };
  return billing.setDefaultCard({
    cardRef: method.provider_ref,
    subscriptionRef: await subscriptionRefOf(method.provider),
    idempotencyKey,
  });
}

/** The last card stays while `lastCardNeeded` (read in the same transaction); the newest other becomes the default. */
export async function removeSavedCard(
  userId: string,
  methodId: string,
  {
    lastCardNeeded,
    subscriptionRefOf,
  }: { lastCardNeeded: (database: Tx) => Promise<boolean>; subscriptionRefOf: SubscriptionRefOf },
): Promise<CardActionResult> {
  const result = await db.transaction().execute(async (trx) => {
    await lockPeople(trx, userId);
    const method = await trx
      .selectFrom("payment_methods")
      .selectAll()
      .where("id", "=", methodId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!method) return { ok: false as const, reason: "notFound" as const };
    const others = await trx
      .selectFrom("payment_methods")
      .select("id")
      .where("user_id", "=", userId)
      .where("id", "!=", methodId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .execute();
    if (others.length === 0 && (await lastCardNeeded(trx))) return { ok: false as const, reason: "inUse" as const };
    await trx.deleteFrom("payment_methods").where("id", "=", methodId).execute();
    const successor = method.is_default ? (others[0]?.id ?? null) : null;
    if (successor)
      await trx
        .updateTable("payment_methods")
        .set({ is_default: 1, default_since: now().toISOString() })
        .where("id", "=", successor)
        .execute();
    return { ok: true as const, method, successor };
  });
  if (!result.ok) return result;
  // The provider forgets it after our row is gone: we never charge a card we do not list.
  const removed = await paymentProvider(result.method.provider).removeCard({
    cardRef: result.method.provider_ref,
    idempotencyKey: `remove:${result.method.id}`,
  });
  if (!removed.ok)
    logger.warn(
      { event: "card.forget-failed", cardId: result.method.id, code: removed.code },
      "The provider could not forget a card",
    );
  const successor = result.successor
    ? await db
        .selectFrom("payment_methods")
        .select(["provider", "provider_ref"])
        .where("id", "=", result.successor)
        .executeTakeFirst()
    : undefined;
  if (successor) {
    const pushed = await pushDefaultCard(
      successor,
      `${userId}:default-card:${result.successor}:after-removing:${result.method.id}`,
      subscriptionRefOf,
    );
    if (!pushed.ok)
      logger.warn(
        { event: "card.default-failed", cardId: result.successor, code: pushed.code },
        "A card could not become the default at the processor",
      );
  }
  return { ok: true };
}

const monthNumber = (year: number, month: number) => year * 12 + month;
const currentMonth = () => monthNumber(now().getUTCFullYear(), now().getUTCMonth() + 1);

/** The payer's cards kept by this provider (another provider cannot charge them) that have not expired. */
export async function usableCardsOf(userId: string, provider: string): Promise<CardView[]> {
  const rows = await db
    .selectFrom("payment_methods")
    .selectAll()
    .where("user_id", "=", userId)
    .where("provider", "=", provider)
    .orderBy("is_default", "desc")
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.filter((row) => monthNumber(row.exp_year, row.exp_month) >= currentMonth()).map(cardView);
}

/** The provider's reference of one of the payer's usable cards; anyone else's card, or an unknown id, is null. */
export async function usableCardOf(
  userId: string,
  methodId: string,
  provider: string,
): Promise<{ cardRef: string; label: string } | null> {
  const row = await db
    .selectFrom("payment_methods")
    .selectAll()
    .where("id", "=", methodId)
    .where("user_id", "=", userId)
    .where("provider", "=", provider)
    .executeTakeFirst();
  if (!row || monthNumber(row.exp_year, row.exp_month) < currentMonth()) return null;
  return { cardRef: row.provider_ref, label: `${row.brand} •••• ${row.last4}` };
}
