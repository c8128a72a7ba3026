import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { resetClockAfterEach } from "~/testing/clock";
import { card, ownerWithPet, requestInput, sitterWithSlot, slotsOf } from "~/testing/bookings";
import { person, petOf } from "~/testing/people";
import { transition } from "./bookings.server";
import { payForBooking } from "./payment-entry.server";
import { requestBooking } from "./requests.server";
import { walkPage } from "./walks.server";

resetClockAfterEach();

async function walker(options: { daysAhead?: number; hourly?: boolean } = {}) {
  const sitter = await sitterWithSlot({ daysAhead: options.daysAhead ?? 1 });
  await db
    .updateTable("users")
    .set({ max_pets: 2, extra_pet_cents: 500, ...(options.hourly === false ? { hourly_rate_cents: null } : {}) })
    .where("id", "=", sitter.id)
    .execute();
  await db
    .insertInto("sitter_services")
    .values([
      { sitter_id: sitter.id, service: "walk", price_cents: 1500, duration_minutes: 60 },
      { sitter_id: sitter.id, service: "drop_in", price_cents: 1200, duration_minutes: 30 },
    ])
    .execute();
  return sitter;
}

describe("walks and drop-in visits", () => {
  it("a 60-minute walk for two dogs is one walk at the walk's price, extra dog included, and takes an hour of the slot", async () => {
    const sitter = await walker();
    const owner = await ownerWithPet();
    const luna = await petOf(owner.id, { name: "Luna" });
    const result = await requestBooking(owner, {
      ...requestInput(sitter.id, [owner.petId, luna], sitter.day, "10:00", 4),
      service: "walk",
      hours: 1,
    });
    expect(result).toMatchObject({
      status: "created",
      booking: {
        service_type: "walk",
        hours: 1,
        hourly_rate_cents: 1500,
        subtotal_cents: 2000,
        fee_cents: 400,
        total_cents: 2400,
        payment_mode: "hold",
      },
    });
    if (result.status !== "created") throw new Error("refused");
    const { start_at, end_at } = result.booking;
    expect(new Date(end_at).getTime() - new Date(start_at).getTime()).toBe(60 * 60_000);
    expect((await payForBooking(owner, result.booking.id, card(), randomUUID())).status).toBe("held");
    expect((await transition(result.booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(
      true,
    );
    expect((await slotsOf(sitter.id)).filter((slot) => slot.status === "booked")).toEqual([
      expect.objectContaining({ start_at, end_at, booking_id: result.booking.id }),
    ]);
  });

  it("a drop-in visit far ahead is held two days before, like an hour of pet sitting, never charged as a stay", async () => {
    const sitter = await walker({ daysAhead: 12 });
    const owner = await ownerWithPet();
    const result = await requestBooking(owner, {
      ...requestInput(sitter.id, owner.petId, sitter.day, "09:00", 1),
      service: "drop_in",
    });
    expect(result).toMatchObject({ status: "created", booking: { service_type: "drop_in", payment_mode: "hold" } });
    if (result.status !== "created") throw new Error("refused");
    expect(new Date(result.booking.end_at).getTime() - new Date(result.booking.start_at).getTime()).toBe(30 * 60_000);
    expect((await payForBooking(owner, result.booking.id, card(), randomUUID())).status).toBe("card-saved");
  });

  it("a sitter who walks but does not sit by the hour: walks are booked, hours are not; a service not offered is refused", async () => {
    const sitter = await walker({ hourly: false });
    const owner = await ownerWithPet();
    expect(await requestBooking(owner, requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2))).toEqual({
      status: "refused",
      reason: "sitterNotFound",
    });
    expect(
      await requestBooking(owner, { ...requestInput(sitter.id, owner.petId, sitter.day, "10:00", 1), service: "walk" }),
    ).toMatchObject({ status: "created" });
    const other = await sitterWithSlot();
    expect(
      await requestBooking(owner, { ...requestInput(other.id, owner.petId, other.day, "10:00", 1), service: "walk" }),
    ).toEqual({ status: "refused", reason: "serviceNotOffered" });
    expect(await db.selectFrom("bookings").select("id").where("sitter_id", "=", other.id).execute()).toEqual([]);
  });

  it("the request page lists the sitter's walks and visits for owners, and nothing for sitters without them or for the sitter", async () => {
    const sitter = await walker();
    const owner = await ownerWithPet();
    const page = await walkPage(owner, sitter.id, { service: "drop_in", day: sitter.day }, "en");
    expect(page).toMatchObject({
      service: "drop_in",
      day: sitter.day,
      offers: [
        { service: "walk", priceCents: 1500, minutes: 60 },
        { service: "drop_in", priceCents: 1200, minutes: 30 },
      ],
    });
    expect(page!.times.map((time) => time.time)).toContain("10:00");
    expect(await walkPage(owner, (await sitterWithSlot()).id, {}, "en")).toBeNull();
    expect(await walkPage(sitter, sitter.id, {}, "en")).toBeNull();
    expect(await walkPage(await person("owner"), "' or 1=1 --", {}, "en")).toBeNull();
  });
});
