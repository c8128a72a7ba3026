import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { priceOf } from "~/features/bookings";
import { DEMO_PASSWORD, seedDemoData, type DemoLogin } from "./seed.server";

let logins: DemoLogin[] | null;

beforeAll(async () => {
  logins = await seedDemoData({ onlyIfEmpty: true });
}, 120_000);

const users = () => db.selectFrom("users").selectAll().execute();

describe("the demo seed", () => {
  it("creates the demo people with the shared password, once, and puts the clock back", async () => {
    expect(logins).toHaveLength(18);
    expect(
      logins!.every((login) => login.password === DEMO_PASSWORD && login.email.endsWith("@demo.trustedsitters.app")),
    ).toBe(true);
    expect(await seedDemoData({ onlyIfEmpty: true })).toBeNull();
    expect(await seedDemoData()).toBeNull();
    expect(await users()).toHaveLength(18);
    expect(Math.abs(now().getTime() - Date.now())).toBeLessThan(1000);
  });

  it("has bookings in every state, each completed one reviewed both ways", async () => {
    const bookings = await db.selectFrom("bookings").selectAll().execute();
    const states = new Set(bookings.map((booking) => booking.status));
    expect([...states].sort()).toEqual(["cancelled", "completed", "confirmed", "in-progress", "requested"]);
    const completed = bookings.filter((booking) => booking.status === "completed");
    expect(completed.filter((booking) => booking.payment_status === "released").length).toBeGreaterThanOrEqual(8);
    for (const booking of completed) {
      const reviews = await db
        .selectFrom("reviews")
        .select(["reviewer_id", "reviewed_id"])
        .where("booking_id", "=", booking.id)
        .execute();
      expect(reviews.map((review) => [review.reviewer_id, review.reviewed_id]).sort()).toEqual(
        [
          [booking.owner_id, booking.sitter_id],
          [booking.sitter_id, booking.owner_id],
        ].sort(),
      );
    }
    const cancelled = bookings.filter((booking) => booking.status === "cancelled");
    expect(cancelled.map((booking) => booking.cancelled_by).sort()).toEqual(["owner", "sitter"]);
  });

  it("wrote every booking through the payment and booking rules: consistent prices, cards, holds and slots", async () => {
    const bookings = await db.selectFrom("bookings").selectAll().execute();
    for (const booking of bookings) {
      const price = priceOf(booking.hourly_rate_cents, booking.hours);
      expect([booking.subtotal_cents, booking.fee_cents, booking.total_cents]).toEqual([
        price.subtotal,
        price.fee,
        price.total,
      ]);
      const sitter = await db
        .selectFrom("users")
        .select("hourly_rate_cents")
        .where("id", "=", booking.sitter_id)
        .executeTakeFirstOrThrow();
      expect(booking.hourly_rate_cents).toBe(sitter.hourly_rate_cents);
      expect(booking.card_label).toBe("Visa •••• 4242");
      expect(booking.payment_task).toBeNull();
      expect(booking.created_at < booking.start_at).toBe(true);
      const hold = booking.hold_ref
        ? await db.selectFrom("test_payments").selectAll().where("ref", "=", booking.hold_ref).executeTakeFirst()
        : undefined;
      if (booking.payment_status === "released")
        expect(hold).toMatchObject({ status: "captured", amount_cents: booking.total_cents });
      if (booking.payment_status === "held")
        expect(hold).toMatchObject({ status: "held", amount_cents: booking.total_cents });
      if (booking.payment_status === "refunded") expect(hold?.status).toBe("voided");
      const slot = await db
        .selectFrom("availability_slots")
        .selectAll()
        .where("booking_id", "=", booking.id)
        .executeTakeFirst();
      if (["confirmed", "in-progress", "completed"].includes(booking.status))
        expect(slot).toMatchObject({ status: "booked", start_at: booking.start_at, end_at: booking.end_at });
      else expect(slot).toBeUndefined();
      const notices = await db
        .selectFrom("notifications")
        .select("id")
        .where("user_id", "=", booking.sitter_id)
        .where("type", "=", "booking_request")
        .where("data", "like", `%${booking.start_at}%`)
        .execute();
      expect(notices).toHaveLength(1);
    }
    const inProgress = bookings.find((booking) => booking.status === "in-progress")!;
    expect(inProgress.start_at <= now().toISOString() && now().toISOString() < inProgress.end_at).toBe(true);
  });

  it("gives every person a picture, a match, a conversation with messages, and notifications read and unread", async () => {
    for (const user of await users()) {
      expect(user.email_verified_at).not.toBeNull();
      const photos = await db
        .selectFrom("photos")
        .select("id")
        .where("user_id", "=", user.id)
        .where("pet_id", "is", null)
        .execute();
      expect(photos.length, user.name).toBeGreaterThan(0);
      const matches = await db
        .selectFrom("matches")
        .select("id")
        .where((eb) => eb.or([eb("user_a_id", "=", user.id), eb("user_b_id", "=", user.id)]))
        .execute();
      expect(matches.length, user.name).toBeGreaterThan(0);
      const messages = await db
        .selectFrom("messages as m")
        .innerJoin("conversations as c", "c.id", "m.conversation_id")
        .select(["m.sender_id"])
        .where((eb) => eb.or([eb("c.user_a_id", "=", user.id), eb("c.user_b_id", "=", user.id)]))
        .execute();
      expect(
        messages.some((message) => message.sender_id === user.id),
        user.name,
      ).toBe(true);
      expect(
        messages.some((message) => message.sender_id !== user.id),
        user.name,
      ).toBe(true);
      const notifications = await db
        .selectFrom("notifications")
        .select("is_read")
        .where("user_id", "=", user.id)
        .execute();
      expect(
        notifications.some((notification) => notification.is_read === 1),
        user.name,
      ).toBe(true);
      expect(
        notifications.some((notification) => notification.is_read === 0),
        user.name,
      ).toBe(true);
    }
    const pictures = await db.selectFrom("messages").select("id").where("media_type", "=", "image").execute();
    expect(pictures.length).toBeGreaterThanOrEqual(2);
    const pets = await db.selectFrom("pets").select("id").execute();
    for (const pet of pets)
      expect(await db.selectFrom("photos").select("id").where("pet_id", "=", pet.id).executeTakeFirst()).toBeDefined();
  });

  it("has one premium member, paid through checkout, with a saved default card", async () => {
    const subscriptions = await db.selectFrom("subscriptions").selectAll().where("status", "=", "active").execute();
    expect(subscriptions).toHaveLength(1);
    const [subscription] = subscriptions;
    expect(subscription!.current_period_end! > now().toISOString()).toBe(true);
    const payments = await db
      .selectFrom("subscription_payments")
      .selectAll()
      .where("subscription_id", "=", subscription!.id)
      .execute();
    const plan = await db
      .selectFrom("subscription_plans")
      .select("price_cents")
      .where("id", "=", subscription!.plan_id)
      .executeTakeFirstOrThrow();
    expect(payments).toMatchObject([{ status: "paid", amount_cents: plan.price_cents }]);
    const cards = await db
      .selectFrom("payment_methods")
      .selectAll()
      .where("user_id", "=", subscription!.user_id)
      .execute();
    expect(cards).toMatchObject([{ last4: "4242", is_default: 1 }]);
  });
});
