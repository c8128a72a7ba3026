import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { cardBrand, luhnValid, testProvider } from "./test-provider.server";
import type { CardInput, CardPurpose } from "./provider";

const card = (number: string, expYear = 2030): CardInput => ({
  kind: "digits",
  number,
  expMonth: 12,
  expYear,
  cvc: "123",
  name: "Olga",
});
const purpose: CardPurpose = { kind: "card", userId: "u1" };

describe("the offline test provider", () => {
  it("knows real card numbers from typos", () => {
    expect(luhnValid("4242424242424242")).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("4242")).toBe(false);
    expect(cardBrand("4242424242424242")).toBe("Visa");
    expect(cardBrand("5555555555554444")).toBe("Mastercard");
  });

  it("follows Stripe's test cards", async () => {
    expect(
      await testProvider.saveCard({
        card: card("4000000000000002"),
        email: "a@b.c",
        purpose,
        idempotencyKey: "declined",
      }),
    ).toEqual({ ok: false, code: "card_declined" });
    expect(
      await testProvider.saveCard({ card: card("4242424242424241"), email: "a@b.c", purpose, idempotencyKey: "typo" }),
    ).toEqual({ ok: false, code: "incorrect_number" });
    expect(
      await testProvider.saveCard({
        card: card("4242424242424242", 2020),
        email: "a@b.c",
        purpose,
        idempotencyKey: "expired",
      }),
    ).toEqual({ ok: false, code: "expired_card" });
    const poor = await testProvider.saveCard({
      card: card("4000000000009995"),
      email: "a@b.c",
      purpose,
      idempotencyKey: "poor",
    });
    expect(poor.ok).toBe(true);
    if (!poor.ok) return;
    expect(
      await testProvider.hold({
        cardRef: poor.cardRef,
        amountCents: 1000,
        feeCents: 0,
        payeeRef: null,
        offSession: false,
        description: "x",
        reference: "b",
        idempotencyKey: "poor-hold",
      }),
    ).toEqual({ ok: false, code: "insufficient_funds" });
  });

  it("holds, captures once, refunds no more than was captured, and answers each key once", async () => {
    const saved = await testProvider.saveCard({
      card: card("4242 4242 4242 4242"),
      email: "a@b.c",
      purpose,
      idempotencyKey: "good",
    });
    expect(saved).toMatchObject({ ok: true, label: "Visa •••• 4242" });
    if (!saved.ok) return;
    const again = await testProvider.saveCard({
      card: card("4242424242424242"),
      email: "a@b.c",
      purpose,
      idempotencyKey: "good",
    });
    expect(again).toEqual(saved);
    const hold = await testProvider.hold({
      cardRef: saved.cardRef,
      amountCents: 4800,
      feeCents: 800,
      payeeRef: null,
      offSession: false,
      description: "x",
      reference: "b",
      idempotencyKey: "h1",
    });
    if (!hold.ok) throw new Error("hold failed");
    const [first, second] = await Promise.all([
      testProvider.capture({ holdRef: hold.holdRef, amountCents: 4800, idempotencyKey: "c1" }),
      testProvider.capture({ holdRef: hold.holdRef, amountCents: 4800, idempotencyKey: "c1" }),
    ]);
    expect(first).toEqual({ ok: true });
    expect(second).toEqual({ ok: true });
    expect(await testProvider.voidHold({ holdRef: hold.holdRef, idempotencyKey: "v1" })).toEqual({
      ok: false,
      code: "processing_error",
    });
    expect(await testProvider.refund({ holdRef: hold.holdRef, amountCents: 9999, idempotencyKey: "r0" })).toEqual({
      ok: false,
      code: "processing_error",
    });
    expect(await testProvider.refund({ holdRef: hold.holdRef, amountCents: 4800, idempotencyKey: "r1" })).toEqual({
      ok: true,
    });
    const row = await db
      .selectFrom("test_payments")
      .select("status")
      .where("ref", "=", hold.holdRef)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("refunded");
  });

  it("captures part of a hold, and refunds a payment in parts never beyond what was taken", async () => {
    const saved = await testProvider.saveCard({
      card: card("4242424242424242"),
      email: "a@b.c",
      purpose,
      idempotencyKey: "part-card",
    });
    if (!saved.ok) throw new Error("card refused");
    const hold = await testProvider.hold({
      cardRef: saved.cardRef,
      amountCents: 3600,
      feeCents: 600,
      payeeRef: null,
      offSession: false,
      description: "x",
      reference: "b",
      idempotencyKey: "part-hold",
    });
    if (!hold.ok) throw new Error("hold failed");
    expect(await testProvider.capture({ holdRef: hold.holdRef, amountCents: 3601, idempotencyKey: "part-c0" })).toEqual(
      { ok: false, code: "processing_error" },
    );
    expect(await testProvider.capture({ holdRef: hold.holdRef, amountCents: 2160, idempotencyKey: "part-c1" })).toEqual(
      { ok: true },
    );
    const kept = () =>
      db
        .selectFrom("test_payments")
        .select(["status", "amount_cents"])
        .where("ref", "=", hold.holdRef)
        .executeTakeFirstOrThrow();
    expect(await kept()).toEqual({ status: "captured", amount_cents: 2160 });
    expect(await testProvider.refund({ holdRef: hold.holdRef, amountCents: 1000, idempotencyKey: "part-r1" })).toEqual({
      ok: true,
    });
    expect(await kept()).toEqual({ status: "partly-refunded", amount_cents: 1160 });
    expect(await testProvider.refund({ holdRef: hold.holdRef, amountCents: 1161, idempotencyKey: "part-r2" })).toEqual({
      ok: false,
      code: "processing_error",
    });
    expect(await testProvider.refund({ holdRef: hold.holdRef, amountCents: 1160, idempotencyKey: "part-r3" })).toEqual({
      ok: true,
    });
    expect(await kept()).toEqual({ status: "refunded", amount_cents: 0 });
  });
});
