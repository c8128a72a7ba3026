import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import {
  addSavedCard,
  paymentProvider,
  startSavedCardEntry,
  usableCardOf,
  usableCardsOf,
} from "~/features/payments/index.server";
import { resetClockAfterEach } from "~/testing/clock";
import { CARDS, bookingRow, card, ownerWithPet, requested, sitterWithSlot, type Owner } from "~/testing/bookings";
import { notificationsOf } from "~/testing/people";
import type { FakeStripe } from "~/testing/fake-stripe";
import { payableSitter, stripeRequest, withFakeStripe } from "~/testing/stripe";
import { payWithSavedCard } from "./payment-entry.server";

resetClockAfterEach();

let fake: FakeStripe;
withFakeStripe((started) => (fake = started));

const noSubscription = async () => null;

async function savedTestCard(owner: { id: string; email: string }, number: string = CARDS.ok): Promise<string> {
  const saved = await addSavedCard(owner, card(number), randomUUID(), {}, paymentProvider("test"), noSubscription);
  if (saved.status !== "saved") throw new Error(`card refused: ${saved.code}`);
  return saved.id;
}

/** What /subscription/cards/new does on Stripe: a SetupIntent for "a card", confirmed in the browser. */
async function savedStripeCard(owner: Owner): Promise<string> {
  const provider = paymentProvider("stripe");
  const entry = await startSavedCardEntry(owner, { kind: "card", userId: owner.id }, `entry:${randomUUID()}`, provider);
  if (entry.status !== "ready") throw new Error("card entry refused");
  const setupIntent = fake.confirmSetupInBrowser(entry.clientSecret, { brand: "visa", last4: "4242" });
  const saved = await addSavedCard(
    owner,
    { kind: "token", token: setupIntent, name: owner.name },
    randomUUID(),
    {},
    provider,
    noSubscription,
  );
  if (saved.status !== "saved") throw new Error(`card refused: ${saved.code}`);
  return saved.id;
}

describe("paying a booking with a saved card", () => {
  it("the test provider holds the amount on the saved card, the sitter is told, and a second click changes nothing", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const cardId = await savedTestCard(owner);
    const booking = await requested(owner, sitter);

    expect(await payWithSavedCard(owner, booking.id, cardId)).toEqual({ status: "held" });
    const paid = await bookingRow(booking.id);
    expect(paid).toMatchObject({
      status: "requested",
      payment_status: "held",
      card_label: "Visa •••• 4242",
      payment_task: null,
    });
    expect(paid.hold_ref).toMatch(/^test_hold_/);
    expect((await notificationsOf(sitter.id)).map((notice) => notice.type)).toContain("booking_request");

    expect(await payWithSavedCard(owner, booking.id, cardId)).toEqual({ status: "held" });
    expect(await bookingRow(booking.id)).toEqual(paid);
    expect(
      await db
        .selectFrom("test_payments")
        .select("ref")
        .where("kind", "=", "hold")
        .where("ref", "=", paid.hold_ref!)
        .execute(),
    ).toHaveLength(1);
  });

  it("someone else's card, an unknown id or an expired card are refused and change nothing", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const stranger = await ownerWithPet();
    const strangersCard = await savedTestCard(stranger);
    const booking = await requested(owner, sitter);
    const before = await bookingRow(booking.id);

    expect(await payWithSavedCard(owner, booking.id, strangersCard)).toEqual({
      status: "refused",
      refusal: "cardNotFound",
    });
    expect(await payWithSavedCard(owner, booking.id, "not-a-card")).toEqual({
      status: "refused",
      refusal: "cardNotFound",
    });
    expect(await payWithSavedCard(owner, booking.id, "' or 1=1 --")).toEqual({
      status: "refused",
      refusal: "cardNotFound",
    });
    const expired = await savedTestCard(owner);
    await db.updateTable("payment_methods").set({ exp_year: 2020 }).where("id", "=", expired).execute();
    expect(await payWithSavedCard(owner, booking.id, expired)).toEqual({ status: "refused", refusal: "cardNotFound" });
    // The stranger cannot pay someone else's booking, even with their own card.
    expect(await payWithSavedCard(stranger, booking.id, strangersCard)).toEqual({
      status: "refused",
      refusal: "notFound",
    });
    expect(await bookingRow(booking.id)).toEqual(before);
  });

  it("a saved card without funds fails the hold with its reason, and another saved card then pays", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const poor = await savedTestCard(owner, CARDS.noFunds);
    const good = await savedTestCard(owner);
    const booking = await requested(owner, sitter);

    expect(await payWithSavedCard(owner, booking.id, poor)).toEqual({ status: "failed", code: "insufficient_funds" });
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "failed", hold_ref: null });
    expect(await payWithSavedCard(owner, booking.id, good)).toEqual({ status: "held" });
  });

  it("a card kept by the test provider cannot pay a Stripe booking, and a Stripe card pays it through a PaymentIntent on the payer's customer", async () => {
    const owner = await ownerWithPet();
    const testCard = await savedTestCard(owner);
    const stripeCard = await savedStripeCard(owner);
    const booking = await stripeRequest(owner, await payableSitter());

    expect((await usableCardsOf(owner.id, "stripe")).map((shown) => shown.id)).toEqual([stripeCard]);
    expect(await payWithSavedCard(owner, booking.id, testCard)).toEqual({ status: "refused", refusal: "cardNotFound" });
    expect(await payWithSavedCard(owner, booking.id, stripeCard)).toEqual({ status: "held" });

    const paid = await bookingRow(booking.id);
    const intent = fake.paymentIntents.get(paid.hold_ref!)!;
    const method = await db
      .selectFrom("payment_methods")
      .select("provider_ref")
      .where("id", "=", stripeCard)
      .executeTakeFirstOrThrow();
    expect(`${String(intent.customer)}:${String(intent.payment_method)}`).toBe(method.provider_ref);
    expect(intent).toMatchObject({ capture_method: "manual", amount: paid.total_cents, status: "requires_capture" });
  });
});

describe("the cards a payment may use", () => {
  it("lists only the payer's own unexpired cards of the provider, default first, and finds one only for its owner", async () => {
    const owner = await ownerWithPet();
    const other = await ownerWithPet();
    const first = await savedTestCard(owner);
    const second = await savedTestCard(owner, "5555555555554444");
    const expired = await savedTestCard(owner);
    await db.updateTable("payment_methods").set({ exp_year: 2021, exp_month: 1 }).where("id", "=", expired).execute();
    await savedTestCard(other);

    const cards = await usableCardsOf(owner.id, "test");
    expect(cards.map((shown) => shown.id)).toEqual([first, second]);
    expect(cards[0]).toMatchObject({ brand: "Visa", last4: "4242", isDefault: true });
    expect(cards[1]).toMatchObject({ brand: "Mastercard", last4: "4444", isDefault: false });
    expect(await usableCardsOf(owner.id, "stripe")).toEqual([]);
    expect(await usableCardOf(owner.id, second, "test")).toMatchObject({ label: "Mastercard •••• 4444" });
    expect(await usableCardOf(other.id, second, "test")).toBeNull();
    expect(await usableCardOf(owner.id, second, "stripe")).toBeNull();
    expect(await usableCardOf(owner.id, expired, "test")).toBeNull();
  });
});
