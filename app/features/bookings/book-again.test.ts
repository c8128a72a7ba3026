import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { advanceClock, DAY, resetClockAfterEach } from "~/testing/clock";
import { at, card, dayAhead, ownerWithPet, requestInput, sitterWithSlot, slot, type Owner } from "~/testing/bookings";
import { person, petOf } from "~/testing/people";
import { transition } from "./bookings.server";
import { payForBooking } from "./payment-entry.server";
import { requestBooking, requestPage } from "./requests.server";
import { walkPage } from "./walks.server";
import { requestStay, stayPage } from "./stays.server";
import { firstBookingPath, prefilledPets, repeatOf } from "./book-again.server";
import { bookAgainPath } from "./views.server";

resetClockAfterEach();

const asSitter = (who: { id: string }) => ({ kind: "sitter" as const, userId: who.id });

/** A booking paid for and accepted. */
async function completed(owner: Owner, bookingId: string, sitter: { id: string }) {
  // Held now, or (a stay ending over 3 days after the hold would lapse) the card saved to charge at the start.
  expect(["held", "card-saved"]).toContain((await payForBooking(owner, bookingId, card(), randomUUID())).status);
  expect((await transition(bookingId, asSitter(sitter), { type: "accept" })).ok).toBe(true);
}

async function finish(bookingId: string, sitter: { id: string }) {
  expect((await transition(bookingId, asSitter(sitter), { type: "finish" })).ok).toBe(true);
}

describe("book again", () => {
  it("repeats the owner's completed booking: its pets still there, its time and hours, on the next day offering that time", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 1 });
    await db.updateTable("users").set({ max_pets: 3 }).where("id", "=", sitter.id).execute();
    const owner = await ownerWithPet();
    const luna = await petOf(owner.id, { name: "Luna" });
    const gone = await petOf(owner.id, { name: "Gone" });
    const made = await requestBooking(
      owner,
      requestInput(sitter.id, [owner.petId, gone, luna], sitter.day, "14:00", 3),
    );
    if (made.status !== "created") throw new Error(made.reason);
    await completed(owner, made.booking.id, sitter);
    await db.deleteFrom("pets").where("id", "=", gone).execute();
    advanceClock(2 * DAY);
    await finish(made.booking.id, sitter);

    // Free again in 2 days only from 15:00, in 4 days from 09:00: the next day offering 14:00 is in 4 days.
    const soon = dayAhead(sitter.time_zone, 2);
    const later = dayAhead(sitter.time_zone, 4);
    await slot(sitter.id, at(sitter, soon, "15:00"), at(sitter, soon, "18:00"));
    await slot(sitter.id, at(sitter, later, "09:00"), at(sitter, later, "18:00"));

    expect(await repeatOf(owner.id, sitter, made.booking.id)).toMatchObject({
      service: "hourly",
      petIds: [owner.petId, luna],
      startTime: "14:00",
      units: 3,
    });
    const page = await requestPage(owner, sitter.id, "", "en", made.booking.id);
    expect(page).toMatchObject({
      day: later,
      again: { bookingId: made.booking.id, petIds: [owner.petId, luna], startTime: "14:00", hours: 3 },
    });
    // A day the owner picks that lacks the time keeps the pets and hours, not the time.
    expect((await requestPage(owner, sitter.id, soon, "en", made.booking.id))?.again).toMatchObject({
      startTime: null,
      hours: 3,
    });
    expect(bookAgainPath(made.booking)).toBe(`/booking/request?walkerId=${sitter.id}&again=${made.booking.id}`);
  });

  it("prefills nothing from someone else's booking, one not completed, another sitter's, or a forged id", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 1 });
    const owner = await ownerWithPet();
    const made = await requestBooking(owner, requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2));
    if (made.status !== "created") throw new Error(made.reason);
    // Not completed yet.
    expect(await repeatOf(owner.id, sitter, made.booking.id)).toBeNull();
    await completed(owner, made.booking.id, sitter);
    advanceClock(2 * DAY);
    await finish(made.booking.id, sitter);
    const stranger = await ownerWithPet();
    const otherSitter = await person("sitter");
    expect(await repeatOf(stranger.id, sitter, made.booking.id)).toBeNull();
    expect(await repeatOf(owner.id, otherSitter, made.booking.id)).toBeNull();
    expect(await repeatOf(owner.id, sitter, "' or 1=1 --")).toBeNull();
    expect(await repeatOf(owner.id, sitter, randomUUID())).toBeNull();
    expect((await requestPage(stranger, sitter.id, "", "en", made.booking.id))?.again).toBeNull();
  });

  it("a walk is booked again as the same service, even when the sitter lists visits first", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 1 });
    await db
      .insertInto("sitter_services")
      .values([
        { sitter_id: sitter.id, service: "walk", price_cents: 1500, duration_minutes: 60 },
        { sitter_id: sitter.id, service: "drop_in", price_cents: 1200, duration_minutes: 30 },
      ])
      .execute();
    const owner = await ownerWithPet();
    const made = await requestBooking(owner, {
      ...requestInput(sitter.id, owner.petId, sitter.day, "11:00", 1),
      service: "drop_in",
    });
    if (made.status !== "created") throw new Error(made.reason);
    await completed(owner, made.booking.id, sitter);
    advanceClock(2 * DAY);
    await finish(made.booking.id, sitter);
    const next = dayAhead(sitter.time_zone, 1);
    await slot(sitter.id, at(sitter, next, "09:00"), at(sitter, next, "17:00"));
    const page = await walkPage(owner, sitter.id, { again: made.booking.id }, "en");
    expect(page).toMatchObject({ service: "drop_in", day: next, again: { startTime: "11:00", petIds: [owner.petId] } });
    // The owner may still switch service on the page.
    expect((await walkPage(owner, sitter.id, { again: made.booking.id, service: "walk" }, "en"))?.service).toBe("walk");
    expect(bookAgainPath(made.booking)).toBe(
      `/booking/walk?walkerId=${sitter.id}&service=drop_in&again=${made.booking.id}`,
    );
  });

  it("a stay is booked again for as many nights, from the first day it fits the sitter's days off and room", async () => {
    const sitter = await person("sitter");
    await db.updateTable("users").set({ max_pets: 1 }).where("id", "=", sitter.id).execute();
    await db
      .insertInto("sitter_services")
      .values({ sitter_id: sitter.id, service: "boarding", price_cents: 4000, duration_minutes: null })
      .execute();
    const owner = await ownerWithPet();
    const first = dayAhead(sitter.time_zone, 2);
    const last = dayAhead(sitter.time_zone, 5);
    const stay = await requestStay(owner, {
      id: randomUUID(),
      sitterId: sitter.id,
      service: "boarding",
      petIds: [owner.petId],
      firstDay: first,
      dropOff: "09:00",
      lastDay: last,
      pickUp: "17:30",
      notes: "",
    });
    if (stay.status !== "created") throw new Error(stay.reason);
    await completed(owner, stay.booking.id, sitter);
    advanceClock(6 * DAY);
    await finish(stay.booking.id, sitter);

    // Tomorrow is a day off; another owner's boarding fills the only place the day after.
    const tomorrow = dayAhead(sitter.time_zone, 1);
    await db.insertInto("sitter_days_off").values({ sitter_id: sitter.id, day: tomorrow }).execute();
    const other = await ownerWithPet();
    const busy = await requestStay(other, {
      id: randomUUID(),
      sitterId: sitter.id,
      service: "boarding",
      petIds: [other.petId],
      firstDay: dayAhead(sitter.time_zone, 2),
      dropOff: "10:00",
      lastDay: dayAhead(sitter.time_zone, 3),
      pickUp: "10:00",
      notes: "",
    });
    if (busy.status !== "created") throw new Error(busy.reason);
    await completed(other, busy.booking.id, sitter);

    const page = await stayPage(owner, sitter.id, { again: stay.booking.id });
    // 3 nights from 09:00 to 17:30: the first start clear of both is in 4 days (day 3 is still taken until 10:00).
    expect(page).toMatchObject({
      service: "boarding",
      firstDay: dayAhead(sitter.time_zone, 4),
      lastDay: dayAhead(sitter.time_zone, 7),
      again: { petIds: [owner.petId], dropOff: "09:00", pickUp: "17:30" },
    });
    expect(bookAgainPath(stay.booking)).toBe(
      `/booking/stay?sitterId=${sitter.id}&service=boarding&again=${stay.booking.id}`,
    );
  });

  it("after a meet & greet: the sitter's first kind of care, with the owner's pets the sitter takes at once", async () => {
    const hourly = await person("sitter", { rateCents: 1500 });
    await db.updateTable("users").set({ max_pets: 2 }).where("id", "=", hourly.id).execute();
    const owner = await ownerWithPet();
    const luna = await petOf(owner.id, { name: "Luna" });
    await petOf(owner.id, { name: "Milo" });
    const path = await firstBookingPath(owner.id, hourly.id);
    const url = new URL(path!, "http://x");
    expect(url.pathname).toBe("/booking/request");
    expect(url.searchParams.get("walkerId")).toBe(hourly.id);
    expect(url.searchParams.getAll("pet")).toHaveLength(2);

    const boarder = await person("sitter");
    await db.updateTable("users").set({ hourly_rate_cents: null }).where("id", "=", boarder.id).execute();
    await db
      .insertInto("sitter_services")
      .values({ sitter_id: boarder.id, service: "boarding", price_cents: 4000, duration_minutes: null })
      .execute();
    expect(await firstBookingPath(owner.id, boarder.id)).toMatch(/^\/booking\/stay\?sitterId=/);

    // The page ticks only the asker's own pets among those the link names.
    const stranger = await ownerWithPet();
    const pets = [{ id: owner.petId }, { id: luna }];
    const link = new URL(`http://x/?pet=${luna}&pet=${stranger.petId}`);
    expect(prefilledPets(link, { pets, again: null })).toEqual([luna]);
    expect(prefilledPets(new URL("http://x/"), { pets, again: null })).toEqual([]);
    expect(prefilledPets(new URL("http://x/"), { pets: [{ id: luna }], again: null })).toEqual([luna]);
    expect(prefilledPets(link, { pets, again: { petIds: [owner.petId] } })).toEqual([owner.petId]);
  });
});
