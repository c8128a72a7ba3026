import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { payForBooking, transition } from "~/features/bookings/index.server";
import { deleteAccount } from "~/features/account/index.server";
import { card, ownerWithPet, requested, sitterWithSlot } from "~/testing/bookings";
import { person, PASSWORD } from "~/testing/people";
import { actOnMeetGreet, proposeMeetGreet } from "~/features/meet-greets/index.server";
import { wallClockIn } from "~/platform/time";
import { now } from "~/platform/clock.server";
import { calendarFeedOf, calendarFile, renewCalendarFeed, stopCalendarFeed } from "./feed.server";

const fileOf = (address: string) => address.split("/calendar/")[1]!;

async function confirmed() {
  const sitter = await sitterWithSlot();
  const owner = await ownerWithPet();
  const booking = await requested(owner, sitter);
  expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
  expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
  return { sitter, owner, booking };
}

/** The VEVENT blocks of a calendar, with folded lines joined (RFC 5545 §3.1). */
const eventsOf = (text: string) =>
  text
    .replace(/\r\n[ \t]/g, "")
    .split("BEGIN:VEVENT")
    .slice(1)
    .map((block) => block.split("END:VEVENT")[0]!);

describe("calendar addresses", () => {
  it("are made on request, replaced by a new one that kills the old at once, and turned off", async () => {
    const someone = await person("owner");
    expect(await calendarFeedOf(someone.id)).toBeNull();
    await renewCalendarFeed(someone.id);
    const first = (await calendarFeedOf(someone.id))!;
    expect(first).toMatch(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(await calendarFile(fileOf(first))).toContain("BEGIN:VCALENDAR");

    await renewCalendarFeed(someone.id);
    const second = (await calendarFeedOf(someone.id))!;
    expect(second).not.toBe(first);
    expect(await calendarFile(fileOf(first))).toBeNull();
    expect(await calendarFile(fileOf(second))).toContain("BEGIN:VCALENDAR");

    await stopCalendarFeed(someone.id);
    expect(await calendarFeedOf(someone.id)).toBeNull();
    expect(await calendarFile(fileOf(second))).toBeNull();
  });

  it("answer nothing for a malformed, guessed or hostile name", async () => {
    for (const name of [
      "",
      ".ics",
      "x.ics",
      `${"A".repeat(43)}.ics`,
      `${"A".repeat(43)}`,
      "' or 1=1 --.ics",
      "../etc/passwd",
    ])
      expect(await calendarFile(name)).toBeNull();
  });

  it("answer nothing once the person is suspended or has deleted their account", async () => {
    const suspended = await person("owner");
    await renewCalendarFeed(suspended.id);
    const address = (await calendarFeedOf(suspended.id))!;
    await db
      .updateTable("users")
      .set({ suspended_at: new Date().toISOString() })
      .where("id", "=", suspended.id)
      .execute();
    expect(await calendarFile(fileOf(address))).toBeNull();

    const leaving = await person("owner", { password: PASSWORD });
    await renewCalendarFeed(leaving.id);
    const gone = (await calendarFeedOf(leaving.id))!;
    expect((await deleteAccount(leaving.id, PASSWORD)).status).toBe("deleted");
    expect(await calendarFile(fileOf(gone))).toBeNull();
    expect(await db.selectFrom("calendar_feeds").where("user_id", "=", leaving.id).selectAll().execute()).toEqual([]);
  });
});

describe("a calendar's events", () => {
  it("list a confirmed booking on both sides with its time, who and which pet, and nothing of anyone else", async () => {
    const { sitter, owner, booking } = await confirmed();
    const stranger = await person("owner");
    for (const who of [owner, sitter, stranger]) await renewCalendarFeed(who.id);
    const row = await db.selectFrom("bookings").selectAll().where("id", "=", booking.id).executeTakeFirstOrThrow();
    const stamp = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "");

    const ownerEvents = eventsOf((await calendarFile(fileOf((await calendarFeedOf(owner.id))!)))!);
    expect(ownerEvents).toHaveLength(1);
    expect(ownerEvents[0]).toContain(`UID:booking-${booking.id}@`);
    expect(ownerEvents[0]).toContain(`DTSTART:${stamp(row.start_at)}`);
    expect(ownerEvents[0]).toContain(`DTEND:${stamp(row.end_at)}`);
    expect(ownerEvents[0]).toContain(`SUMMARY:Pet care: ${row.pet_name} with ${sitter.name}`);
    expect(ownerEvents[0]).toContain("STATUS:CONFIRMED");
    expect(ownerEvents[0]).not.toContain(row.notes || "never-in-a-calendar");

    const sitterEvents = eventsOf((await calendarFile(fileOf((await calendarFeedOf(sitter.id))!)))!);
    expect(sitterEvents).toHaveLength(1);
    expect(sitterEvents[0]).toContain(`SUMMARY:Pet care: ${row.pet_name} for ${owner.name}`);

    expect(eventsOf((await calendarFile(fileOf((await calendarFeedOf(stranger.id))!)))!)).toEqual([]);
  });

  it("leave out requests not yet accepted, and a booking once it is cancelled", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
    await renewCalendarFeed(owner.id);
    const file = fileOf((await calendarFeedOf(owner.id))!);
    expect(eventsOf((await calendarFile(file))!)).toEqual([]);

    expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
    const [accepted] = eventsOf((await calendarFile(file))!);
    const sequence = Number(/SEQUENCE:(\d+)/.exec(accepted!)![1]);
    expect(sequence).toBeGreaterThan(0);

    expect(
      (await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "cancel", reason: "Plans changed" }))
        .ok,
    ).toBe(true);
    expect(eventsOf((await calendarFile(file))!)).toEqual([]);
  });

  it("list an accepted meet & greet on both sides, updated in place when moved, gone once cancelled", async () => {
    const owner = await person("owner");
    const sitter = await person("sitter", { name: "Ana Sitter" });
    const day = (days: number) => wallClockIn(sitter.time_zone, new Date(now().getTime() + days * 86_400_000)).day;
    const proposed = await proposeMeetGreet(owner, {
      id: randomUUID(),
      sitterId: sitter.id,
      day: day(2),
      time: "18:00",
      place: "elsewhere",
      placeNote: "Park gate",
    });
    if (!proposed.ok) throw new Error(proposed.refusal);
    const id = proposed.meetGreet.id;
    await renewCalendarFeed(owner.id);
    const file = fileOf((await calendarFeedOf(owner.id))!);
    expect(eventsOf((await calendarFile(file))!)).toEqual([]);

    expect((await actOnMeetGreet(sitter, id, { type: "accept" })).ok).toBe(true);
    const [accepted] = eventsOf((await calendarFile(file))!);
    expect(accepted).toContain(`UID:meet-greet-${id}@`);
    expect(accepted).toContain("SUMMARY:Meet & greet with Ana Sitter");
    expect(accepted).toContain("LOCATION:Somewhere else (Park gate)");
    const sequence = Number(/SEQUENCE:(\d+)/.exec(accepted!)![1]);

    const later = {
      startAt: new Date(now().getTime() + 3 * 86_400_000).toISOString(),
      place: "video" as const,
      placeNote: "",
    };
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await actOnMeetGreet(owner, id, { type: "move", proposal: later })).ok).toBe(true);
    expect((await actOnMeetGreet(sitter, id, { type: "accept" })).ok).toBe(true);
    const [moved] = eventsOf((await calendarFile(file))!);
    expect(moved).toContain(`UID:meet-greet-${id}@`);
    expect(Number(/SEQUENCE:(\d+)/.exec(moved!)![1])).toBeGreaterThan(sequence);

    expect((await actOnMeetGreet(sitter, id, { type: "cancel" })).ok).toBe(true);
    expect(eventsOf((await calendarFile(file))!)).toEqual([]);
  });

  it("name every pet of the booking, joined as the person's language does", async () => {
    const { owner, booking } = await confirmed();
    const first = await db
      .selectFrom("booking_pets")
      .select("pet_name")
      .where("booking_id", "=", booking.id)
      .executeTakeFirstOrThrow();
    await db
      .insertInto("booking_pets")
      .values({ booking_id: booking.id, position: 1, pet_id: null, pet_name: "Luna" })
      .execute();
    await renewCalendarFeed(owner.id);
    const text = (await calendarFile(fileOf((await calendarFeedOf(owner.id))!)))!.replace(/\r\n[ \t]/g, "");
    expect(text).toContain(`SUMMARY:Pet care: ${first.pet_name} and Luna with `);
  });

  it("are written in the person's language", async () => {
    const { owner, sitter } = await confirmed();
    await db.updateTable("users").set({ language: "de" }).where("id", "=", owner.id).execute();
    await renewCalendarFeed(owner.id);
    const text = (await calendarFile(fileOf((await calendarFeedOf(owner.id))!)))!.replace(/\r\n[ \t]/g, "");
    expect(text).toContain(`SUMMARY:Tierbetreuung: `);
    expect(text).toContain(`mit ${sitter.name}`);
    expect(text).toContain("X-WR-CALNAME:Trusted-Sitters-Buchungen");
  });
});
