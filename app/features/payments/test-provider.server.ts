import { randomUUID } from "node:crypto";
import { db, json } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { serialized } from "~/platform/lock.server";
import type { PaymentFailureCode, PaymentProvider, PaymentResult } from "./provider";

/**
 * Follows Stripe's test cards: 4242… succeeds, …0002 is declined, …9995 has insufficient funds
 * on a hold. Answers are kept per idempotency key, so it is deterministic.
 */

const DECLINED = "4000000000000002";
const INSUFFICIENT_FUNDS = "4000000000009995";

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return "Visa";
  if (/^(5[1-5]|2[2-7])/.test(digits)) return "Mastercard";
  if (/^3[47]/.test(digits)) return "American Express";
  return "Card";
}

function once<T extends PaymentResult>(key: string, work: () => Promise<T>): Promise<T> {
  return serialized(`payment:${key}`, () => answerOnce(key, work));
}

async function answerOnce<T extends PaymentResult>(key: string, work: () => Promise<T>): Promise<T> {
  const known = await db.selectFrom("payment_idempotency").select("result").where("key", "=", key).executeTakeFirst();
  if (known) return json<T>().read(known.result);
  const result = await work();
  await db
    .insertInto("payment_idempotency")
    .values({ key, result: json<T>().write(result), created_at: nowIso() })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const stored = await db
    .selectFrom("payment_idempotency")
    .select("result")
    .where("key", "=", key)
    .executeTakeFirstOrThrow();
  return json<T>().read(stored.result);
}

const fail = (code: PaymentFailureCode) => ({ ok: false as const, code });

export const testProvider: PaymentProvider = {
  name: "test",

  saveCard({ card, idempotencyKey }) {
    return once(`save:${idempotencyKey}`, async () => {
      if (card.kind !== "digits") return fail("processing_error");
      const digits = card.number.replace(/[\s-]/g, "");
      if (!luhnValid(digits)) return fail("incorrect_number");
      const today = new Date(nowIso());
      const expired =
        card.expYear < today.getUTCFullYear() ||
        (card.expYear === today.getUTCFullYear() && card.expMonth < today.getUTCMonth() + 1);
      if (card.expMonth < 1 || card.expMonth > 12 || expired) return fail("expired_card");
      if (!/^\d{3,4}$/.test(card.cvc)) return fail("incorrect_cvc");
      if (digits === DECLINED) return fail("card_declined");
      const cardRef = `test_card_${randomUUID()}`;
      const last4 = digits.slice(-4);
      await db
        .insertInto("test_payments")
        .values({
          ref: cardRef,
          kind: "card",
          amount_cents: null,
          card_last4: last4,
          status: digits === INSUFFICIENT_FUNDS ? "no-funds" : "saved",
          created_at: nowIso(),
        })
        .execute();
      const brand = cardBrand(digits);
      return {
        ok: true as const,
        cardRef,
        label: `${brand} •••• ${last4}`,
        details: { brand, last4, expMonth: card.expMonth, expYear: card.expYear },
      };
    });
  },

  hold({ cardRef, amountCents, idempotencyKey }) {
    return once(`hold:${idempotencyKey}`, async () => {
      const card = await db
        .selectFrom("test_payments")
        .selectAll()
        .where("ref", "=", cardRef)
        .where("kind", "=", "card")
        .executeTakeFirst();
      if (!card) return fail("processing_error");
      if (card.status === "no-funds") return fail("insufficient_funds");
      const holdRef = `test_hold_${randomUUID()}`;
      await db
        .insertInto("test_payments")
        .values({
          ref: holdRef,
          kind: "hold",
          amount_cents: amountCents,
          card_last4: card.card_last4,
          status: "held",
          created_at: nowIso(),
        })
        .execute();
      return { ok: true as const, holdRef };
    });
  },

  capture({ holdRef, amountCents, idempotencyKey }) {
    return once(`capture:${idempotencyKey}`, async () => {
      const updated = await db
        .updateTable("test_payments")
        .set({ status: "captured", amount_cents: amountCents })
        .where("ref", "=", holdRef)
        .where("status", "=", "held")
        // Less than the hold releases the rest; never more.
        .where("amount_cents", ">=", amountCents)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1 ? { ok: true as const } : fail("processing_error");
    });
  },

  refund({ holdRef, amountCents, idempotencyKey }) {
    return once(`refund:${idempotencyKey}`, async () => {
      // amount_cents is what the payment still keeps, so refunds in parts never add up to more than was taken.
      const payment = await db
        .selectFrom("test_payments")
        .selectAll()
        .where("ref", "=", holdRef)
        .where("status", "in", ["captured", "partly-refunded"])
        .executeTakeFirst();
      if (!payment || !Number.isInteger(amountCents) || amountCents <= 0 || amountCents > (payment.amount_cents ?? 0))
        return fail("processing_error");
      const kept = (payment.amount_cents ?? 0) - amountCents;
      await db
        .updateTable("test_payments")
        .set({ status: kept === 0 ? "refunded" : "partly-refunded", amount_cents: kept })
        .where("ref", "=", holdRef)
        .execute();
      return { ok: true as const };
    });
  },

  charge({ cardRef, amountCents, idempotencyKey }) {
    return once(`charge:${idempotencyKey}`, async () => {
      const card = await db
        .selectFrom("test_payments")
        .selectAll()
        .where("ref", "=", cardRef)
        .where("kind", "=", "card")
        .executeTakeFirst();
      if (!card || card.status === "removed") return fail("card_declined");
      if (card.status === "no-funds") return fail("insufficient_funds");
      if (!Number.isInteger(amountCents) || amountCents <= 0) return fail("processing_error");
      const chargeRef = `test_charge_${randomUUID()}`;
      await db
        .insertInto("test_payments")
        .values({
          ref: chargeRef,
          kind: "charge",
          amount_cents: amountCents,
          card_last4: card.card_last4,
          status: "captured",
          created_at: nowIso(),
        })
        .execute();
      return { ok: true as const, chargeRef };
    });
  },

  payOut({ chargeRef, payeeRef, amountCents, idempotencyKey }) {
    return once(`payout:${idempotencyKey}`, async () => {
      const charged = await db
        .selectFrom("test_payments")
        .select("amount_cents")
        .where("ref", "=", chargeRef)
        .where("kind", "=", "charge")
        .where("status", "in", ["captured", "partly-refunded"])
        .executeTakeFirst();
      const paidOut = await db
        .selectFrom("test_transfers")
        .select((eb) =>
          eb.fn.coalesce(eb.fn.sum<number>(eb("amount_cents", "-", eb.ref("reversed_cents"))), eb.lit(0)).as("cents"),
        )
        .where("charge_ref", "=", chargeRef)
        .executeTakeFirstOrThrow();
      // Never more than what the charge still holds after its refunds and the payouts made from it.
      if (
        !charged ||
        !payeeRef ||
        !Number.isInteger(amountCents) ||
        amountCents <= 0 ||
        amountCents > (charged.amount_cents ?? 0) - Number(paidOut.cents)
      )
        return fail("processing_error");
      const payoutRef = `test_transfer_${randomUUID()}`;
      await db
        .insertInto("test_transfers")
        .values({
          ref: payoutRef,
          charge_ref: chargeRef,
          payee_ref: payeeRef,
          amount_cents: amountCents,
          created_at: nowIso(),
        })
        .execute();
      return { ok: true as const, payoutRef };
    });
  },

  reversePayout({ payoutRef, amountCents, idempotencyKey }) {
    return once(`reverse-payout:${idempotencyKey}`, async () => {
      if (!Number.isInteger(amountCents) || amountCents <= 0) return fail("processing_error");
      const updated = await db
        .updateTable("test_transfers")
        .set((eb) => ({ reversed_cents: eb("reversed_cents", "+", amountCents) }))
        .where("ref", "=", payoutRef)
        .where((eb) => eb(eb("amount_cents", "-", eb.ref("reversed_cents")), ">=", amountCents))
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1 ? { ok: true as const } : fail("processing_error");
    });
  },

  removeCard({ cardRef, idempotencyKey }) {
    return once(`remove:${idempotencyKey}`, async () => {
      const updated = await db
        .updateTable("test_payments")
        .set({ status: "removed" })
        .where("ref", "=", cardRef)
        .where("kind", "=", "card")
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1 ? { ok: true as const } : fail("processing_error");
    });
  },

  voidHold({ holdRef, idempotencyKey }) {
    return once(`void:${idempotencyKey}`, async () => {
      const updated = await db
        .updateTable("test_payments")
        .set({ status: "voided" })
        .where("ref", "=", holdRef)
        .where("status", "=", "held")
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1 ? { ok: true as const } : fail("processing_error");
    });
  },
};
