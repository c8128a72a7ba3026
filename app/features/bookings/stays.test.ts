import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { StayService } from "~/features/profiles";
import { db } from "~/platform/db.server";
import { clockTo, HOUR, MINUTE, resetClockAfterEach } from "~/testing/clock";
import { at, bookingRow, card, dayAhead, ownerWithPet, paymentRow, type Owner } from "~/testing/bookings";
import { person, petOf } from "~/testing/people";
import { transition } from "./bookings.server";
import { AUTO_RELEASE_AFTER_MS, HOLD_NOW_WITHIN_MS, paymentModeFor, priceOf } from "./machine";
import { bookingMoney } from "./money";
import { payForBooking } from "./payment-entry.server";
import { runDueBookingWork } from "./due-work.server";
import { requestStay, stayRefusalReply, type StayInput } from "./stays.server";
import { daysOf, stayUnits } from "./stay-capacity.server";

resetClockAfterEach();

const asSitter = (who: { id: string }) => ({ kind: "sitter" as const, userId: who.id });

/** A sitter offering `services` (euros per night or day), taking `maxPets` at once, €`extra` per extra pet. */
async function staySitter(services: Partial<Record<StayService, number>>, maxPets = 2, extra = 10) {
  const sitter = await person("sitter");
  await db
    .updateTable("users")
    .set({ max_pets: maxPets, extra_pet_cents: extra * 100 })
    .where("id", "=", sitter.id)
    .execute();
  for (const [service, euros] of Object.entries(services))
    await db
      .insertInto("sitter_services")
      .values({
        sitter_id: sitter.id,
        service: service as StayService,
        price_cents: euros * 100,
        duration_minutes: null,
      })
      .execute();
  return sitter;
}

async function ownerWithDogs(count: number) {
  const owner = await ownerWithPet();
  const petIds = [owner.petId];
  for (let i = 1; i < count; i++) petIds.push(await petOf(owner.id, { name: `Dog ${i}` }));
  return { owner, petIds };
}

function stay(
  sitter: { id: string; time_zone: string },
  service: StayService,
  petIds: string[],
  fromDaysAhead: number,
  units: number,
  overrides: Partial<StayInput> = {},
): StayInput {
  const firstDay = dayAhead(sitter.time_zone, fromDaysAhead);
  const lastDay = dayAhead(sitter.time_zone, fromDaysAhead + (service === "day_care" ? units - 1 : units));
  return {
    id: randomUUID(),
    sitterId: sitter.id,
    service,
    petIds,
    firstDay,
    dropOff: "10:00",
    lastDay,
    pickUp: "18:00",
    notes: "",
    ...overrides,
  };
}

async function requestedStay(owner: Owner, input: StayInput) {
  const result = await requestStay(owner, input);
  if (result.status !== "created") throw new Error(`refused: ${result.reason}`);
  return result.booking;
}

describe("a stay's units and price", () => {
  it("counts nights for house sitting and boarding, days for day care; extra pets per unit; the fee 20 %", () => {
    expect(stayUnits("boarding", "2026-12-10", "2026-12-15")).toBe(5);
    expect(stayUnits("house_sitting", "2026-12-10", "2026-12-11")).toBe(1);
    expect(stayUnits("house_sitting", "2026-12-10", "2026-12-10")).toBeNull();
    expect(stayUnits("day_care", "2026-12-10", "2026-12-10")).toBe(1);
    expect(stayUnits("day_care", "2026-12-10", "2026-12-12")).toBe(3);
    expect(stayUnits("boarding", "2026-12-15", "2026-12-10")).toBeNull();
    // Across the end of March, when Europe's clocks go forward: still whole days.
    expect(stayUnits("boarding", "2027-03-27", "2027-03-29")).toBe(2);
    expect(daysOf("2026-12-30", "2027-01-02")).toEqual(["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"]);
    for (const [units, pets] of [
      [1, 1],
      [5, 2],
      [30, 6],
    ] as const) {
      const subtotal = 4000 * units + (pets - 1) * units * 1000;
      expect(priceOf(4000, units, pets, 1000)).toEqual({
        subtotal,
        fee: Math.round(subtotal * 0.2),
        total: subtotal + Math.round(subtotal * 0.2),
      });
    }
  });

  it("holds the card when the end and the release window fall within 6 days, else charges at the start", () => {
    const at = new Date("2026-12-01T10:00:00Z");
    const edge = new Date(at.getTime() + HOLD_NOW_WITHIN_MS - AUTO_RELEASE_AFTER_MS);
    expect(paymentModeFor(edge.toISOString(), at)).toBe("hold");
    expect(paymentModeFor(new Date(edge.getTime() + MINUTE).toISOString(), at)).toBe("charge");
  });
});

describe("booking a stay", () => {
  it("a 5-night boarding for two dogs 10 days ahead: card kept, charged at the start, the sitter paid 72 h after the end", async () => {
    const sitter = await staySitter({ boarding: 40 });
    const { owner, petIds } = await ownerWithDogs(2);
    const booking = await requestedStay(owner, stay(sitter, "boarding", petIds, 10, 5));
    // 5 nights × €40 + the second dog 5 × €10 = €250; the fee €50.
    expect(booking).toMatchObject({
      service_type: "boarding",
      hours: 5,
      subtotal_cents: 25_000,
      fee_cents: 5_000,
      total_cents: 30_000,
      payment_mode: "charge",
    });

    expect((await payForBooking(owner, booking.id, card(), randomUUID())).status).not.toBe("failed");
    const saved = await bookingRow(booking.id);
    expect(saved).toMatchObject({ payment_status: "unpaid", hold_due_at: booking.start_at, hold_ref: null });
    expect((await transition(booking.id, asSitter(sitter), { type: "accept" })).ok).toBe(true);

    // Nothing is taken before the stay starts.
    clockTo(booking.start_at, -HOUR);
    await runDueBookingWork();
    expect((await bookingRow(booking.id)).payment_status).toBe("unpaid");
    clockTo(booking.start_at);
    await runDueBookingWork();
    const started = await bookingRow(booking.id);
    expect(started).toMatchObject({ status: "in-progress", payment_status: "held", payment_task: null });
    expect(await paymentRow(started.hold_ref)).toMatchObject({ kind: "charge", amount_cents: 30_000 });

    clockTo(booking.end_at);
    await runDueBookingWork();
    const completed = await bookingRow(booking.id);
    expect(completed.status).toBe("completed");
    clockTo(completed.completed_at!, AUTO_RELEASE_AFTER_MS + MINUTE);
    await runDueBookingWork();
    const released = await bookingRow(booking.id);
    expect(released).toMatchObject({ payment_status: "released", payout_ref: expect.any(String) });
    const payout = await db
      .selectFrom("test_transfers")
      .selectAll()
      .where("ref", "=", released.payout_ref!)
      .executeTakeFirstOrThrow();
    // The sitter gets their €250; the platform keeps the €50 fee.
    expect(payout).toMatchObject({ charge_ref: started.hold_ref, amount_cents: 25_000, reversed_cents: 0 });
    expect(bookingMoney(released)).toMatchObject({ sitterKeepsCents: 25_000, platformFeeCents: 5_000 });

    // A refund after release: €60 back to the owner, €50 of it taken back from the sitter's payout.
    const operator = await person("owner");
    const refunded = await transition(
      booking.id,
      { kind: "operator", userId: operator.id },
      { type: "operator-refund", amountCents: 6_000 },
    );
    expect(refunded.ok).toBe(true);
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({ refunded_cents: 6_000, refund_due_cents: null });
    expect(
      await db
        .selectFrom("test_transfers")
        .select("reversed_cents")
        .where("ref", "=", released.payout_ref!)
        .executeTakeFirst(),
    ).toEqual({ reversed_cents: 5_000 });
  });

  it("an owner cancels a charged stay 2 days before, on a moderate policy: half is charged and paid out, nothing more", async () => {
    const sitter = await staySitter({ boarding: 40 }, 2);
    await db.updateTable("users").set({ cancellation_policy: "moderate" }).where("id", "=", sitter.id).execute();
    const { owner, petIds } = await ownerWithDogs(1);
    const booking = await requestedStay(owner, stay(sitter, "boarding", petIds, 10, 5));
    expect(booking).toMatchObject({ payment_mode: "charge", total_cents: 24_000, cancellation_policy: "moderate" });
    await payForBooking(owner, booking.id, card(), randomUUID());
    expect((await transition(booking.id, asSitter(sitter), { type: "accept" })).ok).toBe(true);
    clockTo(booking.start_at, -2 * 24 * HOUR);
    const cancelled = await transition(
      booking.id,
      { kind: "owner", userId: owner.id },
      {
        type: "cancel",
        reason: "Trip called off",
      },
    );
    expect(cancelled.ok).toBe(true);
    await runDueBookingWork();
    const row = await bookingRow(booking.id);
    expect(row).toMatchObject({ status: "cancelled", payment_status: "released", refunded_cents: 12_000 });
    // Only the half the sitter keeps was charged, and the sitter gets it less the fee: €100 of €120.
    expect(await paymentRow(row.hold_ref)).toMatchObject({ kind: "charge", amount_cents: 12_000 });
    expect(
      await db
        .selectFrom("test_transfers")
        .select("amount_cents")
        .where("ref", "=", row.payout_ref!)
        .executeTakeFirst(),
    ).toEqual({ amount_cents: 10_000 });
    expect(bookingMoney(row)).toMatchObject({ paidCents: 12_000, refundedCents: 12_000, sitterKeepsCents: 10_000 });
  });

  it("a problem reported after a charged stay: the operator's partial refund comes from the charge, the sitter is paid the rest", async () => {
    const sitter = await staySitter({ boarding: 40 }, 2);
    const { owner, petIds } = await ownerWithDogs(1);
    const booking = await requestedStay(owner, stay(sitter, "boarding", petIds, 8, 5));
    await payForBooking(owner, booking.id, card(), randomUUID());
    expect((await transition(booking.id, asSitter(sitter), { type: "accept" })).ok).toBe(true);
    clockTo(booking.start_at);
    await runDueBookingWork();
    clockTo(booking.end_at);
    await runDueBookingWork();
    const asTheOwner = { kind: "owner" as const, userId: owner.id };
    expect((await transition(booking.id, asTheOwner, { type: "report-problem" })).ok).toBe(true);
    const operator = await person("owner");
    const settled = await transition(
      booking.id,
      { kind: "operator", userId: operator.id },
      { type: "resolve-dispute", settlement: { kind: "partial", refundCents: 6_000 } },
    );
    expect(settled.ok).toBe(true);
    await runDueBookingWork();
    const row = await bookingRow(booking.id);
    expect(row).toMatchObject({ payment_status: "released", refunded_cents: 6_000, payment_task: null });
    // €240 charged; €60 back to the owner; of the €180 kept the sitter gets €150.
    const charge = await paymentRow(row.hold_ref);
    expect(charge).toMatchObject({ kind: "charge" });
    expect(
      await db
        .selectFrom("test_transfers")
        .select("amount_cents")
        .where("ref", "=", row.payout_ref!)
        .executeTakeFirst(),
    ).toEqual({ amount_cents: 15_000 });
  });

  it("a 2-night house sitting within the hold window is held at once and captured at release", async () => {
    const sitter = await staySitter({ house_sitting: 50 });
    const { owner, petIds } = await ownerWithDogs(1);
    // At 20:00, a stay from tomorrow's 10:00 to 18:00 two nights later ends, with its 72 hours, within 6 days.
    clockTo(at(sitter, dayAhead(sitter.time_zone, 1), "20:00"));
    const booking = await requestedStay(owner, stay(sitter, "house_sitting", petIds, 1, 2));
    expect(booking).toMatchObject({ payment_mode: "hold", hours: 2, total_cents: 12_000 });
    expect((await payForBooking(owner, booking.id, card(), randomUUID())).status).toBe("held");
    const held = await bookingRow(booking.id);
    expect(await paymentRow(held.hold_ref)).toMatchObject({ kind: "hold", amount_cents: 12_000 });
  });

  it("a stay not answered by its start lapses without a charge", async () => {
    const sitter = await staySitter({ boarding: 30 });
    const { owner, petIds } = await ownerWithDogs(1);
    const booking = await requestedStay(owner, stay(sitter, "boarding", petIds, 9, 3));
    await payForBooking(owner, booking.id, card(), randomUUID());
    clockTo(booking.start_at);
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "cancelled",
      cancel_reason: "unanswered",
      payment_status: "unpaid",
      hold_ref: null,
    });
  });
});

describe("bad stays change nothing", () => {
  it("refuses, each under its field, and writes no booking", async () => {
    const sitter = await staySitter({ boarding: 30 }, 2);
    const { owner, petIds } = await ownerWithDogs(3);
    const stranger = await ownerWithPet();
    const cases: [StayInput, string][] = [
      [stay(sitter, "house_sitting", petIds.slice(0, 1), 3, 2), "serviceNotOffered"],
      [stay(sitter, "boarding", petIds, 3, 2), "tooManyPets"],
      [stay(sitter, "boarding", [stranger.petId], 3, 2), "petNotFound"],
      [stay(sitter, "boarding", [], 3, 2), "noPets"],
      [stay(sitter, "boarding", petIds.slice(0, 1), 3, 31), "tooLong"],
      [stay(sitter, "boarding", petIds.slice(0, 1), -2, 1), "past"],
      [
        { ...stay(sitter, "boarding", petIds.slice(0, 1), 5, 2), lastDay: dayAhead(sitter.time_zone, 4) },
        "endBeforeStart",
      ],
      [{ ...stay(sitter, "boarding", petIds.slice(0, 1), 5, 2), firstDay: "2026-02-31" }, "past"],
      [{ ...stay(sitter, "boarding", petIds.slice(0, 1), 5, 2), sitterId: owner.id }, "self"],
      [{ ...stay(sitter, "boarding", petIds.slice(0, 1), 5, 2), sitterId: "' or 1=1 --" }, "sitterNotFound"],
    ];
    for (const [input, reason] of cases)
      expect(await requestStay(owner, input), reason).toEqual({ status: "refused", reason });
    await db
      .insertInto("sitter_days_off")
      .values({ sitter_id: sitter.id, day: dayAhead(sitter.time_zone, 4) })
      .execute();
    expect(await requestStay(owner, stay(sitter, "boarding", petIds.slice(0, 1), 3, 2))).toEqual({
      status: "refused",
      reason: "dayNotFree",
    });
    expect(await db.selectFrom("bookings").select("id").where("owner_id", "=", owner.id).execute()).toEqual([]);
    expect(stayRefusalReply("endBeforeStart")).toEqual({
      fieldErrors: { lastDay: ["bookings:stay.errors.endBeforeStart"] },
    });
  });

  it("30 nights is the longest stay, on both engines' checks", async () => {
    const sitter = await staySitter({ house_sitting: 50 });
    const { owner, petIds } = await ownerWithDogs(1);
    expect(await requestStay(owner, stay(sitter, "house_sitting", petIds, 3, 30))).toMatchObject({
      status: "created",
      booking: { hours: 30, total_cents: 30 * 5000 * 1.2 },
    });
  });

  it("the same form sent twice makes one booking", async () => {
    const sitter = await staySitter({ day_care: 35 });
    const { owner, petIds } = await ownerWithDogs(1);
    const input = stay(sitter, "day_care", petIds, 2, 1);
    const [first, second] = await Promise.all([requestStay(owner, input), requestStay(owner, input)]);
    expect(first).toMatchObject({ status: "created" });
    expect(second).toMatchObject({ status: "created" });
    expect(await db.selectFrom("bookings").select("id").where("owner_id", "=", owner.id).execute()).toHaveLength(1);
  });
});

describe("a sitter's room", () => {
  async function paidStay(sitter: { id: string; time_zone: string }, service: StayService, pets: number, from: number) {
    const { owner, petIds } = await ownerWithDogs(pets);
    const booking = await requestedStay(owner, stay(sitter, service, petIds, from, 3));
    expect((await payForBooking(owner, booking.id, card(), randomUUID())).status).not.toBe("failed");
    return booking;
  }

  it("boarding takes pets up to the sitter's limit on each day; accepting more is refused", async () => {
    const sitter = await staySitter({ boarding: 30, house_sitting: 60 }, 3);
    const two = await paidStay(sitter, "boarding", 2, 1);
    const one = await paidStay(sitter, "boarding", 1, 2);
    const another = await paidStay(sitter, "boarding", 1, 3);
    expect((await transition(two.id, asSitter(sitter), { type: "accept" })).ok).toBe(true);
    // Accepting one boarding leaves the others open: they may still fit.
    expect((await bookingRow(one.id)).status).toBe("requested");
    expect((await transition(one.id, asSitter(sitter), { type: "accept" })).ok).toBe(true);
    // Its first day already holds three pets.
    expect(await transition(another.id, asSitter(sitter), { type: "accept" })).toEqual({
      ok: false,
      refusal: "slotTaken",
    });
    // And a new request over those days is refused at once.
    const { owner, petIds } = await ownerWithDogs(1);
    expect(await requestStay(owner, stay(sitter, "boarding", petIds, 2, 1))).toEqual({
      status: "refused",
      reason: "full",
    });
    // A house sitting takes the sitter away: it cannot overlap a boarding.
    expect(await requestStay(owner, stay(sitter, "house_sitting", petIds, 1, 2))).toEqual({
      status: "refused",
      reason: "full",
    });
    // Later days are free again.
    expect(await requestStay(owner, stay(sitter, "boarding", petIds, 8, 1))).toMatchObject({ status: "created" });
  });

  it("two accepts at once that would overbook: one is confirmed, the other refused", async () => {
    const sitter = await staySitter({ boarding: 30 }, 2);
    const first = await paidStay(sitter, "boarding", 2, 1);
    const second = await paidStay(sitter, "boarding", 1, 1);
    const results = await Promise.all([
      transition(first.id, asSitter(sitter), { type: "accept" }),
      transition(second.id, asSitter(sitter), { type: "accept" }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const confirmed = await db
      .selectFrom("bookings")
      .select("id")
      .where("sitter_id", "=", sitter.id)
      .where("status", "=", "confirmed")
      .execute();
    expect(confirmed).toHaveLength(1);
  });
});
