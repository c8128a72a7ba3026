import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import type { FakeStripe } from "~/testing/fake-stripe";
import { withFakeStripe } from "~/testing/stripe";
import type { PaymentProvider } from "./provider";
import { createStripeProvider } from "./stripe-provider.server";
import { testProvider } from "./test-provider.server";

/**
 * A stay too long for a card hold is charged on the platform when it starts and paid out to the sitter
 * when released; a refund before the payout comes from the charge, after it also reverses the payout.
 */

const savedTestCard = async (key: string) => {
  const saved = await testProvider.saveCard({
    card: { kind: "digits", number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", name: "Olga" },
    email: "olga@example.com",
    purpose: { kind: "card", userId: "owner-1" },
    idempotencyKey: key,
  });
  if (!saved.ok) throw new Error(saved.code);
  return saved.cardRef;
};

const charged = async (provider: PaymentProvider, cardRef: string, amountCents: number, key: string) => {
  const result = await provider.charge({
    cardRef,
    amountCents,
    description: "Boarding, 5 nights",
    reference: "booking-1",
    idempotencyKey: key,
  });
  if (!result.ok) throw new Error(result.code);
  return result.chargeRef;
};

describe("payouts on the offline provider", () => {
  it("pays the sitter's share of a charge once, never more than the charge holds, and reverses it in parts", async () => {
    const chargeRef = await charged(testProvider, await savedTestCard("card-1"), 30_000, "charge-1");
    const payOut = (amountCents: number, key: string) =>
      testProvider.payOut({
        chargeRef,
        payeeRef: "sitter-1",
        amountCents,
        reference: "booking-1",
        idempotencyKey: key,
      });

    const paid = await payOut(24_000, "payout-1");
    expect(paid).toMatchObject({ ok: true });
    // A retry with the same key gets the same payout, not a second one.
    expect(await payOut(24_000, "payout-1")).toEqual(paid);
    // The charge has 6,000 left: a second payout of more is refused.
    expect(await payOut(6_001, "payout-2")).toEqual({ ok: false, code: "processing_error" });
    expect(await payOut(0, "payout-3")).toEqual({ ok: false, code: "processing_error" });

    const payoutRef = (paid as { payoutRef: string }).payoutRef;
    expect(await testProvider.reversePayout({ payoutRef, amountCents: 12_000, idempotencyKey: "reverse-1" })).toEqual({
      ok: true,
    });
    expect(await testProvider.reversePayout({ payoutRef, amountCents: 12_001, idempotencyKey: "reverse-2" })).toEqual({
      ok: false,
      code: "processing_error",
    });
    expect(
      await db
        .selectFrom("test_transfers")
        .select(["amount_cents", "reversed_cents"])
        .where("ref", "=", payoutRef)
        .execute(),
    ).toEqual([{ amount_cents: 24_000, reversed_cents: 12_000 }]);
    // What was reversed can be paid out again (a dispute settled in the sitter's favour).
    expect(await payOut(12_000, "payout-4")).toMatchObject({ ok: true });
  });

  it("refunds a charge on the platform and pays out only what is left", async () => {
    const chargeRef = await charged(testProvider, await savedTestCard("card-2"), 10_000, "charge-2");
    expect(
      await testProvider.refund({
        holdRef: chargeRef,
        amountCents: 4_000,
        platformCharge: true,
        idempotencyKey: "r-1",
      }),
    ).toEqual({ ok: true });
    expect(
      await testProvider.payOut({
        chargeRef,
        payeeRef: "sitter-1",
        amountCents: 6_001,
        reference: "booking-1",
        idempotencyKey: "p-1",
      }),
    ).toEqual({ ok: false, code: "processing_error" });
    expect(
      await testProvider.payOut({
        chargeRef,
        payeeRef: "sitter-1",
        amountCents: 4_800,
        reference: "booking-1",
        idempotencyKey: "p-2",
      }),
    ).toMatchObject({ ok: true });
  });

  it("pays out nothing from a hold or an unknown charge", async () => {
    const cardRef = await savedTestCard("card-3");
    const hold = await testProvider.hold({
      cardRef,
      amountCents: 5_000,
      feeCents: 1_000,
      payeeRef: null,
      offSession: false,
      description: "Sitting",
      reference: "booking-2",
      idempotencyKey: "hold-1",
    });
    expect(hold.ok).toBe(true);
    for (const chargeRef of [(hold as { holdRef: string }).holdRef, "test_charge_forged"])
      expect(
        await testProvider.payOut({
          chargeRef,
          payeeRef: "sitter-1",
          amountCents: 100,
          reference: "b",
          idempotencyKey: chargeRef,
        }),
      ).toEqual({ ok: false, code: "processing_error" });
  });
});

describe("payouts on Stripe: separate charges and transfers", () => {
  let fake: FakeStripe;
  withFakeStripe((started) => (fake = started));

  const connectedAccount = async () => (await fake.client().accounts.create({ type: "express" })).id;

  it("charges the saved card on the platform, transfers from that charge, refunds without touching a transfer, and reverses the transfer", async () => {
    const stripe = createStripeProvider(fake.client());
    const account = await connectedAccount();
    const chargeRef = await charged(stripe, "cus_owner:pm_card", 30_000, "booking-1:charge");
    const intent = fake.paymentIntents.get(chargeRef)!;
    expect(intent).toMatchObject({
      status: "succeeded",
      amount: 30_000,
      transfer_group: "booking-1",
      transfer_data: null,
      application_fee_amount: null,
    });

    const paid = await stripe.payOut({
      chargeRef,
      payeeRef: account,
      amountCents: 24_000,
      reference: "booking-1",
      idempotencyKey: "booking-1:payout",
    });
    expect(paid).toMatchObject({ ok: true });
    const payoutRef = (paid as { payoutRef: string }).payoutRef;
    expect(fake.requests.find((request) => request.path === "/v1/transfers")).toMatchObject({
      params: {
        amount: "24000",
        currency: "eur",
        destination: account,
        source_transaction: intent.latest_charge,
        transfer_group: "booking-1",
      },
      idempotencyKey: "booking-1:payout",
    });

    expect(
      await stripe.refund({
        holdRef: chargeRef,
        amountCents: 15_000,
        platformCharge: true,
        idempotencyKey: "booking-1:refund",
      }),
    ).toEqual({ ok: true });
    const refund = fake.requests.find((request) => request.path === "/v1/refunds")!;
    expect(refund.params).toEqual({ payment_intent: chargeRef, amount: "15000" });

    expect(await stripe.reversePayout({ payoutRef, amountCents: 12_000, idempotencyKey: "booking-1:reverse" })).toEqual(
      {
        ok: true,
      },
    );
    expect(fake.transfers.get(payoutRef)).toMatchObject({ amount_reversed: 12_000, reversed: false });
    // Stripe refuses to reverse more than is left; the provider says so without throwing.
    expect(
      await stripe.reversePayout({ payoutRef, amountCents: 12_001, idempotencyKey: "booking-1:reverse-2" }),
    ).toEqual({
      ok: false,
      code: "processing_error",
    });
  });

  it("refuses a payout to an account Stripe does not know, and from a hold not yet captured", async () => {
    const stripe = createStripeProvider(fake.client());
    const chargeRef = await charged(stripe, "cus_owner:pm_card", 10_000, "booking-2:charge");
    expect(
      await stripe.payOut({
        chargeRef,
        payeeRef: "acct_forged",
        amountCents: 100,
        reference: "booking-2",
        idempotencyKey: "p-1",
      }),
    ).toEqual({ ok: false, code: "processing_error" });

    const hold = await stripe.hold({
      cardRef: "cus_owner:pm_card",
      amountCents: 5_000,
      feeCents: 1_000,
      payeeRef: null,
      offSession: true,
      description: "Sitting",
      reference: "booking-3",
      idempotencyKey: "booking-3:hold",
    });
    expect(hold.ok).toBe(true);
    expect(
      await stripe.payOut({
        chargeRef: (hold as { holdRef: string }).holdRef,
        payeeRef: await connectedAccount(),
        amountCents: 100,
        reference: "booking-3",
        idempotencyKey: "p-2",
      }),
    ).toEqual({ ok: false, code: "processing_error" });
  });
});
