import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { advanceClock, clockTo, DAY, resetClockAfterEach } from "~/testing/clock";
import { wallClockIn } from "~/platform/time";
import { FREE_DAILY_LIKES, handleDeckAction, deckFor } from "~/features/discovery/index.server";
import { CARDS, card } from "~/testing/bookings";
import { emailsTo, notificationsOf, person } from "~/testing/people";
import { cardsOf } from "~/features/payments/index.server";
import { addCard, removeCard, setDefaultCard } from "./cards.server";
import { actOnSubscription, checkout } from "./checkout.server";
import { runDueSubscriptionWork } from "./renewals.server";
import {
  isPremiumUser,
  listPlans,
  liveSubscriptionOf,
  premiumFilterSql,
  premiumSql,
  subscriptionSummary,
} from "./subscriptions.server";

resetClockAfterEach();

/** Premium by the live subscription, checked against the people's own column that the deck reads (kept by triggers). */
async function premium(userId: string): Promise<boolean> {
  const bySubscription = await isPremiumUser(userId);
  const row = await db
    .selectFrom("users as u")
    .select(premiumSql("u").as("premium"))
    .where("u.id", "=", userId)
    .executeTakeFirstOrThrow();
  expect(Boolean(row.premium), "users.premium_until agrees with the subscription").toBe(bySubscription);
  const filtered = await db
    .selectFrom("users as u")
    .select("u.id")
    .where("u.id", "=", userId)
    .where(premiumFilterSql("u"))
    .execute();
  expect(filtered.length === 1, "the condition form agrees with the value").toBe(bySubscription);
  return bySubscription;
}

const paymentsOf = (subscriptionId: string) =>
  db
    .selectFrom("subscription_payments")
    .selectAll()
    .where("subscription_id", "=", subscriptionId)
    .orderBy("created_at")
    .execute();
const charges = (amountCents: number) =>
  db
    .selectFrom("test_payments")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("kind", "=", "charge")
    .where("amount_cents", "=", amountCents)
    .executeTakeFirstOrThrow();

describe("plans", () => {
  it("are seeded as data: three plans in EUR cents, the six-month one most popular", async () => {
    const plans = await listPlans();
    expect(plans.map((plan) => [plan.id, plan.priceCents, plan.interval, plan.popular, plan.currency])).toEqual([
      ["monthly", 999, "month", false, "EUR"],
      ["semiannual", 4999, "6months", true, "EUR"],
      ["yearly", 8999, "year", false, "EUR"],
    ]);
  });
});

describe("checkout", () => {
  it("charges the first period, saves the card as default, and gives the perks", async () => {
    const user = await person("owner");
    expect(await premium(user.id)).toBe(false);
    const outcome = await checkout(user, "semiannual", card(), randomUUID());
    expect(outcome.status).toBe("active");
    const live = (await liveSubscriptionOf(user.id))!;
    expect(live).toMatchObject({
      status: "active",
      plan_id: "semiannual",
      cancel_at_period_end: 0,
      billing_task: null,
    });
    expect(
      new Date(live.current_period_end!).getTime() - new Date(live.current_period_start!).getTime(),
    ).toBeGreaterThan(180 * DAY);
    expect(await premium(user.id)).toBe(true);
    expect(await cardsOf(user.id)).toEqual([
      expect.objectContaining({ brand: "Visa", last4: "4242", expMonth: 12, expYear: 2030, isDefault: true }),
    ]);
    expect(await paymentsOf(live.id)).toEqual([expect.objectContaining({ status: "paid", amount_cents: 4999 })]);
    expect(await notificationsOf(user.id)).toEqual([]);
    expect((await emailsTo(user.email)).map((email) => email.subject)).toEqual([expect.stringContaining("premium")]);
  });

  it("makes one subscription and one charge of a double submit", async () => {
    const user = await person("owner");
    const attempt = randomUUID();
    const before = Number((await charges(999)).count);
    const [first, second] = await Promise.all([
      checkout(user, "monthly", card(), attempt),
      checkout(user, "monthly", card(), attempt),
    ]);
    expect(first.status).toBe("active");
    expect(second.status).toBe("active");
    expect(Number((await charges(999)).count)).toBe(before + 1);
    expect(await db.selectFrom("subscriptions").select("id").where("user_id", "=", user.id).execute()).toHaveLength(1);
    expect(await cardsOf(user.id)).toHaveLength(1);
  });

  it("refuses the same plan twice, and a forged attempt id of someone else", async () => {
    const user = await person("owner");
    const attempt = randomUUID();
    await checkout(user, "monthly", card(), attempt);
    expect(await checkout(user, "monthly", card(), randomUUID())).toEqual({ status: "refused", reason: "samePlan" });
    const other = await person("owner");
    expect(await checkout(other, "monthly", card(), attempt)).toEqual({ status: "refused", reason: "stale" });
    expect(await checkout(other, "no-such-plan", card(), randomUUID())).toEqual({
      status: "refused",
      reason: "notFound",
    });
    expect(await liveSubscriptionOf(other.id)).toBeUndefined();
  });

  it("declined cards save nothing; a card without funds is saved but the subscription stays incomplete", async () => {
    const user = await person("owner");
    expect(await checkout(user, "monthly", card(CARDS.declined), randomUUID())).toEqual({
      status: "failed",
      code: "card_declined",
    });
    expect(await liveSubscriptionOf(user.id)).toBeUndefined();
    expect(await cardsOf(user.id)).toEqual([]);
    expect(await checkout(user, "monthly", card(CARDS.noFunds), randomUUID())).toEqual({
      status: "failed",
      code: "insufficient_funds",
    });
    expect(await liveSubscriptionOf(user.id)).toMatchObject({
      status: "incomplete",
      last_payment_error: "insufficient_funds",
    });
    expect(await premium(user.id)).toBe(false);
    // Another card replaces the incomplete attempt.
    expect((await checkout(user, "monthly", card(), randomUUID())).status).toBe("active");
    expect(
      await db
        .selectFrom("subscriptions")
        .select("status")
        .where("user_id", "=", user.id)
        .where("ended_at", "is", null)
        .execute(),
    ).toEqual([{ status: "active" }]);
  });

  it("switches plans at the end of the current period, charging the new price then", async () => {
    const user = await person("owner");
    await checkout(user, "monthly", card(), randomUUID());
    const before = (await liveSubscriptionOf(user.id))!;
    const switched = await checkout(user, "yearly", card(), randomUUID());
    expect(switched.status).toBe("switched");
    expect(await liveSubscriptionOf(user.id)).toMatchObject({
      plan_id: "monthly",
      pending_plan_id: "yearly",
      current_period_end: before.current_period_end,
    });
    expect((await subscriptionSummary(user.id)).pendingPlan?.id).toBe("yearly");
    clockTo(before.current_period_end!);
    await runDueSubscriptionWork();
    const after = (await liveSubscriptionOf(user.id))!;
    expect(after).toMatchObject({
      status: "active",
      plan_id: "yearly",
      pending_plan_id: null,
      current_period_start: before.current_period_end,
    });
    expect(await paymentsOf(after.id)).toEqual([
      expect.objectContaining({ amount_cents: 999 }),
      expect.objectContaining({ amount_cents: 8999, status: "paid" }),
    ]);
  });
});

describe("renewals", () => {
  it("renews at the period end on the default card, once however often the scheduler runs", async () => {
    const user = await person("owner");
    await checkout(user, "monthly", card(), randomUUID());
    const first = (await liveSubscriptionOf(user.id))!;
    clockTo(first.current_period_end!);
    await Promise.all([runDueSubscriptionWork(), runDueSubscriptionWork()]);
    await runDueSubscriptionWork();
    const renewed = (await liveSubscriptionOf(user.id))!;
    expect(renewed).toMatchObject({
      status: "active",
      period_index: 1,
      current_period_start: first.current_period_end,
    });
    expect((await paymentsOf(first.id)).filter((payment) => payment.status === "paid")).toHaveLength(2);
  });

  it("a failed renewal is past_due with a notice and an email, is retried, then unpaid; paying later restores it", async () => {
    const user = await person("owner");
    await checkout(user, "monthly", card(), randomUUID());
    await addCard(user, card(CARDS.noFunds), randomUUID(), { makeDefault: true });
    const first = (await liveSubscriptionOf(user.id))!;
    clockTo(first.current_period_end!);
    await runDueSubscriptionWork();
    expect(await liveSubscriptionOf(user.id)).toMatchObject({
      status: "past_due",
      failed_attempts: 1,
      last_payment_error: "insufficient_funds",
    });
    expect(await premium(user.id)).toBe(true);
    const notices = (await notificationsOf(user.id)).map((row) => JSON.parse(row.data) as { kind: string });
    expect(notices.map((notice) => notice.kind)).toEqual(["renewalFailed"]);
    expect((await emailsTo(user.email)).some((email) => /payment/i.test(email.subject))).toBe(true);

    for (let round = 0; round < 3; round += 1) {
      advanceClock(6 * DAY);
      await runDueSubscriptionWork();
    }
    expect(await liveSubscriptionOf(user.id)).toMatchObject({ status: "unpaid", failed_attempts: 4 });
    expect(await premium(user.id)).toBe(false);
    expect((await notificationsOf(user.id)).map((row) => (JSON.parse(row.data) as { kind: string }).kind)).toEqual([
      "renewalFailed",
      "unpaid",
    ]);

    const good = (await cardsOf(user.id)).find((method) => method.last4 === "4242")!;
    expect(await setDefaultCard(user.id, good.id)).toEqual({ ok: true });
    const paid = await actOnSubscription(user.id, first.id, "retry");
    expect(paid.ok && paid.subscription.status).toBe("active");
    expect(await premium(user.id)).toBe(true);
  });

  it("a cancelled subscription ends at its period end, and can be reactivated before", async () => {
    const user = await person("owner");
    await checkout(user, "monthly", card(), randomUUID());
    const live = (await liveSubscriptionOf(user.id))!;
    const cancelled = await actOnSubscription(user.id, live.id, "cancel");
    expect(cancelled.ok && cancelled.subscription.cancel_at_period_end).toBe(1);
    expect((await actOnSubscription(user.id, live.id, "cancel")).ok).toBe(true);
    const reactivated = await actOnSubscription(user.id, live.id, "reactivate");
    expect(reactivated.ok && reactivated.subscription.cancel_at_period_end).toBe(0);
    await actOnSubscription(user.id, live.id, "cancel");
    clockTo(live.current_period_end!);
    expect(await premium(user.id)).toBe(false);
    await runDueSubscriptionWork();
    expect(await liveSubscriptionOf(user.id)).toBeUndefined();
    const summary = await subscriptionSummary(user.id);
    expect(summary.lastEnded).toMatchObject({ status: "canceled", ended_at: live.current_period_end });
    expect((await paymentsOf(live.id)).length).toBe(1);
    expect(await actOnSubscription(user.id, live.id, "reactivate")).toEqual({ ok: false, refusal: "wrongState" });
  });
});

describe("other people's records", () => {
  it("another user's subscription and cards are not found and stay as they were", async () => {
    const owner = await person("owner");
    const intruder = await person("owner");
    await checkout(owner, "monthly", card(), randomUUID());
    await addCard(owner, card(), randomUUID());
    const live = (await liveSubscriptionOf(owner.id))!;
    const [firstCard, secondCard] = await cardsOf(owner.id);
    for (const action of ["cancel", "reactivate", "keep-plan", "retry"] as const) {
      expect(await actOnSubscription(intruder.id, live.id, action)).toEqual({ ok: false, refusal: "notFound" });
    }
    expect(await setDefaultCard(intruder.id, secondCard!.id)).toEqual({ ok: false, reason: "notFound" });
    expect(await removeCard(intruder.id, firstCard!.id)).toEqual({ ok: false, reason: "notFound" });
    expect(await liveSubscriptionOf(owner.id)).toEqual(live);
    expect(await cardsOf(owner.id)).toEqual([firstCard, secondCard]);
  });
});

describe("payment methods", () => {
  it("lists, sets the default, removes (the default moves on), and keeps the last card a renewal needs", async () => {
    const user = await person("owner");
    expect(await cardsOf(user.id)).toEqual([]);
    const first = await addCard(user, card(), randomUUID());
    expect(first.status).toBe("saved");
    const second = await addCard(
      user,
      { kind: "digits", number: "5555555555554444", expMonth: 3, expYear: 2031, cvc: "123", name: "Olga" },
      randomUUID(),
    );
    expect((await cardsOf(user.id)).map((method) => [method.brand, method.last4, method.isDefault])).toEqual([
      ["Visa", "4242", true],
      ["Mastercard", "4444", false],
    ]);
    if (second.status !== "saved") throw new Error("not saved");
    await setDefaultCard(user.id, second.id);
    expect((await cardsOf(user.id))[0]).toMatchObject({ last4: "4444", isDefault: true, expMonth: 3, expYear: 2031 });
    expect(await removeCard(user.id, second.id)).toEqual({ ok: true });
    expect(await cardsOf(user.id)).toEqual([expect.objectContaining({ last4: "4242", isDefault: true })]);

    await checkout(user, "monthly", card(), randomUUID());
    const [paying, older] = await cardsOf(user.id);
    expect(paying!.isDefault).toBe(true);
    expect(await removeCard(user.id, older!.id)).toEqual({ ok: true });
    const only = (await cardsOf(user.id))[0]!;
    expect(await removeCard(user.id, only.id)).toEqual({ ok: false, reason: "inUse" });
    const live = (await liveSubscriptionOf(user.id))!;
    await actOnSubscription(user.id, live.id, "cancel");
    expect(await removeCard(user.id, only.id)).toEqual({ ok: true });
    expect(await removeCard(user.id, only.id)).toEqual({ ok: false, reason: "notFound" });
  });

  it("refuses a declined card", async () => {
    const user = await person("owner");
    expect(await addCard(user, card(CARDS.declined), randomUUID())).toEqual({
      status: "failed",
      code: "card_declined",
    });
    expect(await cardsOf(user.id)).toEqual([]);
  });
});

describe("perks", () => {
  async function likes(owner: { id: string }, count: number) {
    const targets = await Promise.all(Array.from({ length: count }, () => person("sitter")));
    const at = now().toISOString();
    await db
      .insertInto("swipes")
      .values(
        targets.map((target) => ({
          swiper_id: owner.id,
          target_user_id: target.id,
          target_pet_id: null,
          decision: "like" as const,
          created_at: at,
        })),
      )
      .execute();
    // The day's count is kept on the person's record.
    const { time_zone } = await db
      .selectFrom("users")
      .select("time_zone")
      .where("id", "=", owner.id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable("users")
      .set({ likes_day: wallClockIn(time_zone, now()).day, likes_on_day: count })
      .where("id", "=", owner.id)
      .execute();
  }
  const userRow = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const like = async (ownerId: string, sitterId: string) => {
    const form = new FormData();
    form.set("intent", "like");
    form.set("userId", sitterId);
    return handleDeckAction(await userRow(ownerId), form);
  };

  it("premium lifts the free daily limit on likes", async () => {
    const owner = await person("owner");
    await likes(owner, FREE_DAILY_LIKES);
    const next = await person("sitter");
    const refused = await like(owner.id, next.id);
    expect(refused.headers.get("Set-Cookie")).toContain("toast=");
    expect(
      await db
        .selectFrom("swipes")
        .select("id")
        .where("swiper_id", "=", owner.id)
        .where("target_user_id", "=", next.id)
        .executeTakeFirst(),
    ).toBeUndefined();
    await checkout(owner, "monthly", card(), randomUUID());
    await like(owner.id, next.id);
    expect(
      await db
        .selectFrom("swipes")
        .select("decision")
        .where("swiper_id", "=", owner.id)
        .where("target_user_id", "=", next.id)
        .executeTakeFirst(),
    ).toEqual({ decision: "like" });
  });

  it("boosts premium sitters to the top of the deck", async () => {
    const viewer = await person("owner");
    const plain = await person("sitter");
    const boosted = await person("sitter");
    await checkout({ id: boosted.id, email: boosted.email }, "monthly", card(), randomUUID());
    const row = await userRow(viewer.id);
    const deck = await deckFor({ ...row, filter_sort: "newest", browse_mode: "global" }, "sitters", 500);
    const ids = deck.status === "cards" ? deck.cards.map((card) => card.userId) : [];
    expect(ids.indexOf(boosted.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(boosted.id)).toBeLessThan(ids.indexOf(plain.id));
  });
});
