import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "~/platform/validation";
import type { Transaction } from "kysely";
import type { Database, SlotStatus } from "~db/schema";
import { now } from "~/platform/clock.server";
import { advanceClock, resetClockAfterEach } from "~/testing/clock";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import { wallClockIn } from "~/platform/time";
import {
  addSlot,
  dayAfter,
  deleteSlot,
  describeSlot,
  findOwnSlot,
  formatDay,
  listSlotsOn,
  slotsPage,
  startTimesByDay,
  startTimesOn,
  todayIn,
} from "./availability.server";
import { addSlotSchema } from "./schema";
import { bookSlot, coveringSlot, freeSlot } from "./booking-slots.server";

/** A slot stored directly, as a booking would leave it. */
async function storedSlot(
  sitterId: string,
  startAt: string,
  endAt: string,
  status: SlotStatus = "available",
  bookingId: string | null = null,
) {
  const id = randomUUID();
  await db
    .insertInto("availability_slots")
    .values({
      id,
      sitter_id: sitterId,
      start_at: startAt,
      end_at: endAt,
      status,
      booking_id: bookingId,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}

const slotsOf = (sitterId: string) =>
  db.selectFrom("availability_slots").selectAll().where("sitter_id", "=", sitterId).execute();

/** A day well ahead, so "now" never gets in the way. */
const tomorrowIn = (timeZone: string) => dayAfter(todayIn(timeZone));

resetClockAfterEach();

describe("adding slots", () => {
  it("stores the sitter's wall-clock times in UTC", async () => {
    const sitter = await person("sitter");
    const result = await addSlot(sitter.id, sitter.time_zone, {
      day: "2099-07-01",
      startTime: "09:00",
      endTime: "12:00",
    });
    expect(result).toMatchObject({
      status: "added",
      slot: { startAt: "2099-07-01T07:00:00.000Z", endAt: "2099-07-01T10:00:00.000Z", status: "available" },
    });
    expect(await slotsOf(sitter.id)).toHaveLength(1);
  });

  it("refuses overlapping time but allows slots that only touch", async () => {
    const sitter = await person("sitter");
    const day = tomorrowIn(sitter.time_zone);
    expect((await addSlot(sitter.id, sitter.time_zone, { day, startTime: "09:00", endTime: "12:00" })).status).toBe(
      "added",
    );
    expect(await addSlot(sitter.id, sitter.time_zone, { day, startTime: "11:00", endTime: "13:00" })).toEqual({
      status: "overlap",
    });
    expect(await addSlot(sitter.id, sitter.time_zone, { day, startTime: "08:00", endTime: "18:00" })).toEqual({
      status: "overlap",
    });
    expect(await addSlot(sitter.id, sitter.time_zone, { day, startTime: "10:00", endTime: "11:00" })).toEqual({
      status: "overlap",
    });
    expect((await addSlot(sitter.id, sitter.time_zone, { day, startTime: "12:00", endTime: "15:00" })).status).toBe(
      "added",
    );
    expect((await addSlot(sitter.id, sitter.time_zone, { day, startTime: "07:00", endTime: "09:00" })).status).toBe(
      "added",
    );
    expect(await slotsOf(sitter.id)).toHaveLength(3);
  });

  it("refuses time overlapping a booked slot too", async () => {
    const sitter = await person("sitter", { timeZone: "UTC" });
    await storedSlot(sitter.id, "2099-07-01T10:00:00.000Z", "2099-07-01T12:00:00.000Z", "booked");
    expect(await addSlot(sitter.id, "UTC", { day: "2099-07-01", startTime: "11:00", endTime: "14:00" })).toEqual({
      status: "overlap",
    });
  });

  it("lets two sitters publish the same time", async () => {
    const one = await person("sitter");
    const two = await person("both");
    const day = tomorrowIn(one.time_zone);
    expect((await addSlot(one.id, one.time_zone, { day, startTime: "09:00", endTime: "12:00" })).status).toBe("added");
    expect((await addSlot(two.id, two.time_zone, { day, startTime: "09:00", endTime: "12:00" })).status).toBe("added");
  });

  it("refuses a slot that starts before now, by the app's clock and in the sitter's zone", async () => {
    const sitter = await person("sitter", { timeZone: "Pacific/Auckland" });
    const today = todayIn(sitter.time_zone);
    const yesterday = wallClockIn(sitter.time_zone, new Date(now().getTime() - 24 * 3600_000)).day;
    expect(
      await addSlot(sitter.id, sitter.time_zone, { day: yesterday, startTime: "09:00", endTime: "12:00" }),
    ).toEqual({ status: "past" });
    const { time } = wallClockIn(sitter.time_zone, now());
    if (time > "00:00")
      expect(await addSlot(sitter.id, sitter.time_zone, { day: today, startTime: "00:00", endTime: time })).toEqual({
        status: "past",
      });

    const day = tomorrowIn(sitter.time_zone);
    advanceClock(3 * 24 * 3600_000);
    expect(await addSlot(sitter.id, sitter.time_zone, { day, startTime: "09:00", endTime: "12:00" })).toEqual({
      status: "past",
    });
    expect(await slotsOf(sitter.id)).toHaveLength(0);
  });

  it("refuses malformed input and a period a clock change swallows, writing nothing", async () => {
    const sitter = await person("sitter");
    for (const input of [
      { day: "2099-02-30", startTime: "09:00", endTime: "12:00" },
      { day: "x".repeat(100_000), startTime: "09:00", endTime: "12:00" },
      { day: "2099-07-01", startTime: "9am", endTime: "12:00" },
      { day: "2099-07-01", startTime: "12:00", endTime: "09:00" },
      { day: "2099-07-01", startTime: "12:00", endTime: "12:00" },
      // Madrid skips 02:00-03:00 on the last Sunday of March: these are no time at all, or less.
      { day: "2099-03-29", startTime: "02:00", endTime: "03:00" },
      { day: "2099-03-29", startTime: "02:30", endTime: "03:00" },
    ]) {
      expect(await addSlot(sitter.id, sitter.time_zone, input)).toEqual({ status: "invalid" });
    }
    expect(await slotsOf(sitter.id)).toHaveLength(0);
  });

  it("adds exactly one of 20 overlapping slots sent at once", async () => {
    const sitter = await person("sitter");
    const day = tomorrowIn(sitter.time_zone);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        addSlot(sitter.id, sitter.time_zone, {
          day,
          startTime: `${String(8 + (i % 4)).padStart(2, "0")}:00`,
          endTime: "14:00",
        }),
      ),
    );
    expect(results.filter((result) => result.status === "added")).toHaveLength(1);
    expect(results.filter((result) => result.status === "overlap")).toHaveLength(19);
    expect(await slotsOf(sitter.id)).toHaveLength(1);
  });
});

describe("deleting slots", () => {
  it("deletes the sitter's own available slot", async () => {
    const sitter = await person("sitter");
    const added = await addSlot(sitter.id, sitter.time_zone, {
      day: tomorrowIn(sitter.time_zone),
      startTime: "09:00",
      endTime: "12:00",
    });
    if (added.status !== "added") throw new Error("not added");
    expect(await deleteSlot(sitter.id, added.slot.id)).toBe("deleted");
    expect(await findOwnSlot(sitter.id, added.slot.id)).toBeNull();
    expect(await deleteSlot(sitter.id, added.slot.id)).toBe("not-found");
  });

  it("cannot delete another sitter's slot, a made-up one, or booked and blocked time", async () => {
    const sitter = await person("sitter");
    const other = await person("sitter");
    const theirs = await storedSlot(other.id, "2099-07-01T10:00:00.000Z", "2099-07-01T12:00:00.000Z");
    const booked = await storedSlot(sitter.id, "2099-07-01T10:00:00.000Z", "2099-07-01T12:00:00.000Z", "booked");
    const blocked = await storedSlot(sitter.id, "2099-07-01T13:00:00.000Z", "2099-07-01T14:00:00.000Z", "unavailable");
    expect(await deleteSlot(sitter.id, theirs)).toBe("not-found");
    expect(await findOwnSlot(sitter.id, theirs)).toBeNull();
    expect(await deleteSlot(sitter.id, randomUUID())).toBe("not-found");
    expect(await deleteSlot(sitter.id, "' or 1=1 --")).toBe("not-found");
    expect(await deleteSlot(sitter.id, booked)).toBe("not-available");
    expect(await deleteSlot(sitter.id, blocked)).toBe("not-available");
    expect(await slotsOf(sitter.id)).toHaveLength(2);
    expect(await slotsOf(other.id)).toHaveLength(1);
  });
});

describe("listing a day", () => {
  it("lists the slots overlapping the sitter's local day, earliest first", async () => {
    const sitter = await person("sitter", { timeZone: "America/New_York" });
    // 2099-07-01 in New York (UTC-4) runs from 04:00Z on the 1st to 04:00Z on the 2nd.
    const late = await storedSlot(sitter.id, "2099-07-01T22:00:00.000Z", "2099-07-02T02:00:00.000Z");
    const early = await storedSlot(sitter.id, "2099-07-01T13:00:00.000Z", "2099-07-01T16:00:00.000Z", "booked");
    const overnight = await storedSlot(sitter.id, "2099-07-01T02:00:00.000Z", "2099-07-01T05:00:00.000Z");
    const before = await storedSlot(sitter.id, "2099-07-01T01:00:00.000Z", "2099-07-01T04:00:00.000Z"); // ends as the day starts
    const after = await storedSlot(sitter.id, "2099-07-02T04:00:00.000Z", "2099-07-02T06:00:00.000Z"); // starts as the next day ends
    const other = await person("sitter", { timeZone: "America/New_York" });
    await storedSlot(other.id, "2099-07-01T13:00:00.000Z", "2099-07-01T16:00:00.000Z");

    const day = await listSlotsOn(sitter.id, "2099-07-01", "America/New_York");
    expect(day.map((slot) => slot.id)).toEqual([overnight, early, late]);
    expect(day[1]).toMatchObject({ status: "booked" });

    // Tokyo (UTC+9) sees the same instants on other days: its 1st runs from 15:00Z on the 30th.
    expect((await listSlotsOn(sitter.id, "2099-07-01", "Asia/Tokyo")).map((slot) => slot.id)).toEqual([
      before,
      overnight,
      early,
    ]);
    expect((await listSlotsOn(sitter.id, "2099-07-02", "Asia/Tokyo")).map((slot) => slot.id)).toEqual([
      early,
      late,
      after,
    ]);
  });

  it("finds what addSlot stored on the day it was added for, whatever the zone", async () => {
    for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kolkata", "UTC"]) {
      const sitter = await person("sitter", { timeZone: zone });
      const added = await addSlot(sitter.id, zone, { day: "2099-12-31", startTime: "17:00", endTime: "20:00" });
      expect(added.status).toBe("added");
      expect(await listSlotsOn(sitter.id, "2099-12-31", zone)).toHaveLength(1);
      expect(await listSlotsOn(sitter.id, "2099-12-30", zone)).toHaveLength(0);
      expect(await listSlotsOn(sitter.id, "2100-01-01", zone)).toHaveLength(0);
    }
  });

  it("answers an impossible day with nothing", async () => {
    const sitter = await person("sitter");
    expect(await listSlotsOn(sitter.id, "2099-13-01", sitter.time_zone)).toEqual([]);
    expect(await listSlotsOn(sitter.id, "tomorrow", sitter.time_zone)).toEqual([]);
  });

  it("the page's day: the asked day with its slots as the sitter reads them, today for a missing or malformed one", async () => {
    const sitter = await person("sitter");
    const id = await storedSlot(sitter.id, "2099-07-01T07:00:00.000Z", "2099-07-01T10:00:00.000Z");
    const who = { id: sitter.id, time_zone: sitter.time_zone };
    expect(await slotsPage(who, "2099-07-01", "de")).toEqual({
      today: todayIn(sitter.time_zone),
      date: "2099-07-01",
      dateLabel: formatDay("2099-07-01", "de"),
      slots: [{ id, status: "available", range: "09:00 – 12:00" }],
    });
    for (const asked of ["", "2099-13-01", "tomorrow"])
      expect((await slotsPage(who, asked, "en")).date, asked).toBe(todayIn(sitter.time_zone));
  });

  it("describes a slot in the sitter's zone and language", () => {
    const slot = {
      id: "s",
      startAt: "2099-07-01T07:00:00.000Z",
      endAt: "2099-07-01T10:00:00.000Z",
      status: "available" as const,
    };
    expect(describeSlot(slot, "Europe/Madrid", "de")).toMatchObject({ day: "2099-07-01", range: "09:00 – 12:00" });
    expect(describeSlot(slot, "Europe/Madrid", "en").range).toMatch(/^9:00\sAM – 12:00\sPM$/);
    const overnight = { ...slot, startAt: "2099-07-01T20:00:00.000Z", endAt: "2099-07-01T23:00:00.000Z" };
    expect(describeSlot(overnight, "Europe/Madrid", "de").range).toBe("01.07.99,\u00a022:00 – 02.07.99,\u00a001:00");
  });
});

describe("the add form's schema", () => {
  const parse = (fields: Record<string, string>) => addSlotSchema.safeParse(fields);

  it("takes a preset's times over the time boxes", () => {
    expect(parse({ day: "2099-07-01", startTime: "18:00", endTime: "10:00", preset: "evening" })).toMatchObject({
      success: true,
      data: { day: "2099-07-01", startTime: "17:00", endTime: "20:00" },
    });
    expect(parse({ day: "2099-07-01", startTime: "18:00", endTime: "10:00", preset: "brunch" }).success).toBe(false);
  });

  it("says which field is wrong, as translation keys", () => {
    const errors = (fields: Record<string, string>) => {
      const result = parse(fields);
      return result.success ? {} : z.flattenError(result.error).fieldErrors;
    };
    expect(errors({ day: "2099-07-01", startTime: "12:00", endTime: "09:00" })).toEqual({
      endTime: ["availability:errors.endBeforeStart"],
    });
    expect(errors({ day: "2099-02-29", startTime: "09:00", endTime: "12:00" })).toEqual({
      day: ["availability:errors.dayInvalid"],
    });
    expect(errors({ day: "2099-07-01", startTime: "24:00", endTime: "x".repeat(10_000) })).toEqual({
      startTime: ["availability:errors.timeInvalid"],
      endTime: ["availability:errors.timeInvalid"],
    });
    expect(errors({ day: "2099-07-01" })).toEqual({
      startTime: ["validation.required"],
      endTime: ["validation.required"],
    });
  });
});

describe("start times for booking requests", () => {
  it("lists, per day of the range, each half hour that leaves at least an hour, in the sitter's zone", async () => {
    const sitter = await person("sitter");
    await addSlot(sitter.id, sitter.time_zone, { day: "2099-07-01", startTime: "09:00", endTime: "11:00" });
    await addSlot(sitter.id, sitter.time_zone, { day: "2099-07-03", startTime: "16:00", endTime: "17:30" });
    await storedSlot(sitter.id, "2099-07-02T08:00:00.000Z", "2099-07-02T12:00:00.000Z", "booked");
    const byDay = await startTimesByDay(sitter.id, sitter.time_zone, "2099-07-01", 14);
    expect([...byDay.keys()]).toEqual(["2099-07-01", "2099-07-03"]);
    expect(byDay.get("2099-07-01")).toEqual([
      { time: "09:00", maxHours: 2 },
      { time: "09:30", maxHours: 1 },
      { time: "10:00", maxHours: 1 },
    ]);
    expect(byDay.get("2099-07-03")).toEqual([
      { time: "16:00", maxHours: 1 },
      { time: "16:30", maxHours: 1 },
    ]);
    expect(await startTimesOn(sitter.id, sitter.time_zone, "2099-07-03")).toEqual(byDay.get("2099-07-03"));
  });

  it("leaves out days past the range, times already gone, and malformed days", async () => {
    const sitter = await person("sitter", { timeZone: "UTC" });
    const today = todayIn("UTC");
    await storedSlot(sitter.id, `${today}T00:00:00.000Z`, `${today}T23:59:00.000Z`);
    const later = dayAfter(dayAfter(today));
    await addSlot(sitter.id, "UTC", { day: later, startTime: "09:00", endTime: "10:00" });
    const twoDays = await startTimesByDay(sitter.id, "UTC", today, 2);
    expect(twoDays.has(later)).toBe(false);
    const nowMs = new Date().getTime();
    for (const { time } of twoDays.get(today) ?? [])
      expect(new Date(`${today}T${time}:00.000Z`).getTime()).toBeGreaterThan(nowMs - 60_000);
    expect((await startTimesByDay(sitter.id, "UTC", today, 3)).get(later)).toEqual([{ time: "09:00", maxHours: 1 }]);
    expect((await startTimesByDay(sitter.id, "UTC", "2099-13-45", 14)).size).toBe(0);
  });
});

const periodsOf = async (sitterId: string) =>
  (
    await db
      .selectFrom("availability_slots")
      .select(["start_at", "end_at", "status", "booking_id"])
      .where("sitter_id", "=", sitterId)
      .orderBy("start_at")
      .execute()
  ).map((slot) => [slot.start_at.slice(11, 16), slot.end_at.slice(11, 16), slot.status, slot.booking_id] as const);

const T = (time: string) => `2099-07-01T${time}:00.000Z`;
const inTransaction = <T>(work: (trx: Transaction<Database>) => Promise<T>) => db.transaction().execute(work);

describe("coveringSlot", () => {
  it("finds the available slot that holds the whole period, and nothing for a period it only partly holds", async () => {
    const sitterId = (await person("sitter")).id;
    await storedSlot(sitterId, T("09:00"), T("12:00"));
    await storedSlot(sitterId, T("13:00"), T("15:00"), "booked");
    expect(await coveringSlot(db, sitterId, T("09:00"), T("12:00"))).toMatchObject({
      start_at: T("09:00"),
      end_at: T("12:00"),
    });
    expect(await coveringSlot(db, sitterId, T("10:00"), T("11:00"))).toMatchObject({ start_at: T("09:00") });
    expect(await coveringSlot(db, sitterId, T("11:00"), T("13:00"))).toBeUndefined();
    expect(await coveringSlot(db, sitterId, T("13:00"), T("14:00"))).toBeUndefined();
    expect(await coveringSlot(db, (await person("sitter")).id, T("10:00"), T("11:00"))).toBeUndefined();
  });
});

describe("bookSlot and freeSlot", () => {
  it("splits the slot into the time before, the booked time and the time after", async () => {
    const sitterId = (await person("sitter")).id;
    const b1 = randomUUID();
    await storedSlot(sitterId, T("09:00"), T("17:00"));
    const booked = await inTransaction((trx) =>
      bookSlot(trx, { id: b1, sitter_id: sitterId, start_at: T("10:00"), end_at: T("12:00") }),
    );
    expect(booked).toBe(true);
    expect(await periodsOf(sitterId)).toEqual([
      ["09:00", "10:00", "available", null],
      ["10:00", "12:00", "booked", b1],
      ["12:00", "17:00", "available", null],
    ]);
  });

  it("leaves no empty piece when the booking fills the slot from one edge", async () => {
    const sitterId = (await person("sitter")).id;
    const b1 = randomUUID();
    await storedSlot(sitterId, T("09:00"), T("12:00"));
    await inTransaction((trx) =>
      bookSlot(trx, { id: b1, sitter_id: sitterId, start_at: T("09:00"), end_at: T("12:00") }),
    );
    expect(await periodsOf(sitterId)).toEqual([["09:00", "12:00", "booked", b1]]);
  });

  it("refuses time no available slot holds, changing nothing", async () => {
    const sitterId = (await person("sitter")).id;
    const b1 = randomUUID();
    await storedSlot(sitterId, T("09:00"), T("12:00"));
    expect(
      await inTransaction((trx) =>
        bookSlot(trx, { id: b1, sitter_id: sitterId, start_at: T("11:00"), end_at: T("13:00") }),
      ),
    ).toBe(false);
    expect(await periodsOf(sitterId)).toEqual([["09:00", "12:00", "available", null]]);
  });

  it("freeing the booked time joins it with the available time on both sides", async () => {
    const sitterId = (await person("sitter")).id;
    const b1 = randomUUID();
    await storedSlot(sitterId, T("09:00"), T("17:00"));
    await inTransaction((trx) =>
      bookSlot(trx, { id: b1, sitter_id: sitterId, start_at: T("10:00"), end_at: T("12:00") }),
    );
    await inTransaction((trx) => freeSlot(trx, b1));
    expect(await periodsOf(sitterId)).toEqual([["09:00", "17:00", "available", null]]);
  });

  it("freeing joins only available neighbours: another booking next to it stays booked", async () => {
    const sitterId = (await person("sitter")).id;
    const [b0, b1] = [randomUUID(), randomUUID()];
    await storedSlot(sitterId, T("09:00"), T("10:00"), "booked", b0);
    await storedSlot(sitterId, T("10:00"), T("12:00"), "booked", b1);
    await storedSlot(sitterId, T("12:00"), T("13:00"));
    await inTransaction((trx) => freeSlot(trx, b1));
    expect(await periodsOf(sitterId)).toEqual([
      ["09:00", "10:00", "booked", b0],
      ["10:00", "13:00", "available", null],
    ]);
  });

  it("freeing a booking that holds no time changes nothing", async () => {
    const sitterId = (await person("sitter")).id;
    await storedSlot(sitterId, T("09:00"), T("12:00"));
    await inTransaction((trx) => freeSlot(trx, "no-such-booking"));
    expect(await periodsOf(sitterId)).toEqual([["09:00", "12:00", "available", null]]);
  });
});
