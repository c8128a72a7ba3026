import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { parseWithZod } from "@conform-to/zod/v4";
import { clockTo, HOUR, MINUTE, resetClockAfterEach } from "~/testing/clock";
import { card, ownerWithPet, requested, sitterWithSlot } from "~/testing/bookings";
import { person } from "~/testing/people";
import { payForBooking, transition } from "~/features/bookings/index.server";
import { careWindowOpen } from "./window";
import { carePlansThroughBooking, checklistOf, mayReadCarePlan, ownCarePlan, saveCarePlan } from "./plans.server";
import { carePlanSchema, type CarePlanInput } from "./schema";

resetClockAfterEach();

/** The one booked pet's plan as the viewer sees it through the booking. */
const planThrough = async (viewerId: string, booking: Parameters<typeof carePlansThroughBooking>[1]) =>
  (await carePlansThroughBooking(viewerId, booking))?.[0]?.plan ?? null;

const plan: CarePlanInput = {
  feeding: "08:00 – 80 g dry food\n\n18:00 – 80 g dry food",
  medication: "09:00 – Apoquel 16 mg",
  walks: "30 min around the park, on lead",
  houseNotes: "Keys with the concierge; alarm code 1234",
  vetName: "Dr. Vega",
  vetPhone: "+34 910 000 000",
  vetAddress: "Calle Mayor 1",
  emergencyName: "Ana",
  emergencyPhone: "+34 600 000 001",
};

async function confirmedBooking() {
  const sitter = await sitterWithSlot({ daysAhead: 3 });
  const owner = await ownerWithPet();
  const booking = await requested(owner, sitter);
  expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
  expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
  return {
    sitter,
    owner,
    booking: await db.selectFrom("bookings").selectAll().where("id", "=", booking.id).executeTakeFirstOrThrow(),
  };
}

describe("the care plan's visibility window", () => {
  const booking = { status: "confirmed", start_at: "2026-12-10T10:00:00.000Z", end_at: "2026-12-10T12:00:00.000Z" };
  const at = (iso: string, plusMs = 0) => new Date(new Date(iso).getTime() + plusMs);

  it("opens 24 hours before the start and closes 72 hours after the end, both ends included", () => {
    expect(careWindowOpen(booking, at("2026-12-09T10:00:00.000Z", -1))).toBe(false);
    expect(careWindowOpen(booking, at("2026-12-09T10:00:00.000Z"))).toBe(true);
    expect(careWindowOpen(booking, at("2026-12-10T11:00:00.000Z"))).toBe(true);
    expect(careWindowOpen(booking, at("2026-12-13T12:00:00.000Z"))).toBe(true);
    expect(careWindowOpen(booking, at("2026-12-13T12:00:00.000Z", 1))).toBe(false);
  });

  it("is open only for confirmed, in-progress and completed bookings", () => {
    const inside = at("2026-12-10T11:00:00.000Z");
    expect(careWindowOpen({ ...booking, status: "in-progress" }, inside)).toBe(true);
    expect(careWindowOpen({ ...booking, status: "completed" }, inside)).toBe(true);
    expect(careWindowOpen({ ...booking, status: "requested" }, inside)).toBe(false);
    expect(careWindowOpen({ ...booking, status: "cancelled" }, inside)).toBe(false);
  });

  it("shows the plan to the owner always, to the booking's sitter only inside the window, and to nobody else", async () => {
    const { sitter, owner, booking } = await confirmedBooking();
    const stranger = await person("both");
    expect(await saveCarePlan(owner.id, owner.petId, plan)).toBe(true);

    expect(await planThrough(owner.id, booking)).toMatchObject({ medication: "09:00 – Apoquel 16 mg" });
    expect(await planThrough(sitter.id, booking)).toBeNull();
    expect(await mayReadCarePlan(sitter.id, owner.petId)).toBe(false);
    expect(await planThrough(stranger.id, booking)).toBeNull();

    clockTo(new Date(new Date(booking.start_at).getTime() - 24 * HOUR), 0);
    expect(await planThrough(sitter.id, booking)).toMatchObject({ vetName: "Dr. Vega" });
    expect(await mayReadCarePlan(sitter.id, owner.petId)).toBe(true);
    expect(await mayReadCarePlan(stranger.id, owner.petId)).toBe(false);
    expect(await planThrough(stranger.id, booking)).toBeNull();

    clockTo(new Date(new Date(booking.end_at).getTime() + 72 * HOUR), MINUTE);
    expect(await planThrough(sitter.id, booking)).toBeNull();
    expect(await mayReadCarePlan(sitter.id, owner.petId)).toBe(false);
    expect(await planThrough(owner.id, booking)).not.toBeNull();
  });

  it("is closed to the sitter of a cancelled booking even inside the hours", async () => {
    const { sitter, owner, booking } = await confirmedBooking();
    await saveCarePlan(owner.id, owner.petId, plan);
    expect(
      (await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "cancel", reason: "plans changed" }))
        .ok,
    ).toBe(true);
    clockTo(booking.start_at, -HOUR);
    const cancelled = await db
      .selectFrom("bookings")
      .selectAll()
      .where("id", "=", booking.id)
      .executeTakeFirstOrThrow();
    expect(await planThrough(sitter.id, cancelled)).toBeNull();
    expect(await mayReadCarePlan(sitter.id, owner.petId)).toBe(false);
  });
});

describe("writing a care plan", () => {
  it("is for the pet's owner only: another person's pet id changes nothing", async () => {
    const owner = await ownerWithPet();
    const other = await ownerWithPet();
    await saveCarePlan(owner.id, owner.petId, plan);
    expect(await saveCarePlan(other.id, owner.petId, { ...plan, feeding: "poison" })).toBe(false);
    expect(await ownCarePlan(other.id, owner.petId)).toBeNull();
    expect((await ownCarePlan(owner.id, owner.petId))?.feeding).toBe("08:00 – 80 g dry food\n18:00 – 80 g dry food");
  });

  it("makes one checklist item per feeding, dose and walk line", async () => {
    const owner = await ownerWithPet();
    await saveCarePlan(owner.id, owner.petId, plan);
    expect(checklistOf((await ownCarePlan(owner.id, owner.petId))!)).toEqual([
      { kind: "feeding", label: "08:00 – 80 g dry food" },
      { kind: "feeding", label: "18:00 – 80 g dry food" },
      { kind: "medication", label: "09:00 – Apoquel 16 mg" },
      { kind: "walk", label: "30 min around the park, on lead" },
    ]);
  });

  it("refuses too many lines, long lines, long text and letters in a phone number, each with its translated message", () => {
    const form = (fields: Partial<Record<keyof CarePlanInput, string>>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.set(name, value);
      return parseWithZod(data, { schema: carePlanSchema });
    };
    const errorsOf = (fields: Partial<Record<keyof CarePlanInput, string>>) => {
      const submission = form(fields);
      return submission.status === "success" ? {} : submission.error;
    };
    expect(errorsOf({ feeding: Array.from({ length: 13 }, (_, i) => `meal ${i}`).join("\n") })).toEqual({
      feeding: ["care:errors.tooManyLines"],
    });
    expect(errorsOf({ medication: "x".repeat(201) })).toEqual({ medication: ["care:errors.lineTooLong"] });
    expect(errorsOf({ houseNotes: "x".repeat(2001) })).toEqual({ houseNotes: ["care:errors.tooLong"] });
    expect(errorsOf({ vetPhone: "call me maybe" })).toEqual({ vetPhone: ["care:errors.phone"] });
    expect(form({ feeding: "<script>alert(1)</script>", vetName: "'; drop table pets; --" }).status).toBe("success");
  });
});
