import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import { resetClockAfterEach } from "~/testing/clock";
import { todayIn } from "./availability.server";
import {
  MONTHS_AHEAD,
  addMonths,
  daysOfMonth,
  isFreeOnDays,
  monthCalendar,
  saveMonth,
  unavailableDays,
} from "./days-off.server";

resetClockAfterEach();

const daysOffOf = (sitterId: string) =>
  db
    .selectFrom("sitter_days_off")
    .select("day")
    .where("sitter_id", "=", sitterId)
    .orderBy("day")
    .execute()
    .then((rows) => rows.map((row) => row.day));

const nextMonthOf = (timeZone: string) => addMonths(todayIn(timeZone).slice(0, 7), 1);

describe("month arithmetic", () => {
  it("adds months across years and lists a month's days", () => {
    expect(addMonths("2026-12", 1)).toBe("2027-01");
    expect(addMonths("2026-01", -1)).toBe("2025-12");
    expect(addMonths("2026-05", 12)).toBe("2027-05");
    expect(daysOfMonth("2028-02")).toHaveLength(29);
    expect(daysOfMonth("2026-04").at(-1)).toBe("2026-04-30");
  });
});

describe("saving a month", () => {
  it("stores the unticked days as not free, in one go, and a second save replaces the first", async () => {
    const sitter = await person("sitter");
    const month = nextMonthOf(sitter.time_zone);
    const days = daysOfMonth(month);
    const free = days.filter((day) => !day.endsWith("-05") && !day.endsWith("-06"));
    expect(await saveMonth(sitter, month, free)).toEqual({ status: "saved" });
    expect(await daysOffOf(sitter.id)).toEqual([`${month}-05`, `${month}-06`]);

    expect(
      await saveMonth(
        sitter,
        month,
        days.filter((day) => !day.endsWith("-20")),
      ),
    ).toEqual({ status: "saved" });
    expect(await daysOffOf(sitter.id)).toEqual([`${month}-20`]);
    const calendar = await monthCalendar(sitter, month, "en");
    expect(calendar.days.filter((day) => !day.free).map((day) => day.day)).toEqual([`${month}-20`]);
    expect(calendar.days.every((day) => day.editable)).toBe(true);
  });

  it("leaves past days of the current month as they were and never lets them change", async () => {
    const sitter = await person("sitter");
    const today = todayIn(sitter.time_zone);
    const month = today.slice(0, 7);
    const past = daysOfMonth(month).filter((day) => day < today);
    const coming = daysOfMonth(month).filter((day) => day >= today);
    if (past.length) await db.insertInto("sitter_days_off").values({ sitter_id: sitter.id, day: past[0]! }).execute();
    expect(await saveMonth(sitter, month, coming)).toEqual({ status: "saved" });
    expect(await daysOffOf(sitter.id)).toEqual(past.slice(0, 1));
    if (past.length) expect(await saveMonth(sitter, month, [...coming, past[0]!])).toEqual({ status: "badDay" });
    const calendar = await monthCalendar(sitter, month, "en");
    expect(calendar.days.filter((day) => !day.editable).map((day) => day.day)).toEqual(past);
  });

  it("refuses a month out of range or malformed, and days outside the month or malformed, changing nothing", async () => {
    const sitter = await person("sitter");
    const current = todayIn(sitter.time_zone).slice(0, 7);
    const month = addMonths(current, 1);
    await saveMonth(sitter, month, daysOfMonth(month).slice(1));
    const before = await daysOffOf(sitter.id);
    for (const bad of [addMonths(current, -1), addMonths(current, MONTHS_AHEAD + 1), "2026-13", "26-01", "", "x"])
      expect(await saveMonth(sitter, bad, [])).toEqual({ status: "badMonth" });
    for (const bad of [`${addMonths(month, 1)}-01`, `${month}-32`, "yesterday", `${month}-1`, "' or 1=1 --"])
      expect(await saveMonth(sitter, month, [bad])).toEqual({ status: "badDay" });
    expect(await saveMonth(sitter, addMonths(current, MONTHS_AHEAD), [])).toEqual({ status: "saved" });
    expect((await daysOffOf(sitter.id)).filter((day) => day.startsWith(month))).toEqual(before);
  });

  it("touches only the sitter's own days", async () => {
    const sitter = await person("sitter");
    const other = await person("sitter");
    const month = nextMonthOf(sitter.time_zone);
    await saveMonth(other, month, []);
    const othersBefore = await daysOffOf(other.id);
    await saveMonth(sitter, month, daysOfMonth(month));
    expect(await daysOffOf(other.id)).toEqual(othersBefore);
  });

  it("offers links from this month to 12 months ahead, and shows this month for one out of range", async () => {
    const sitter = await person("sitter");
    const current = todayIn(sitter.time_zone).slice(0, 7);
    const first = await monthCalendar(sitter, "", "en");
    expect(first).toMatchObject({ month: current, previous: null, next: addMonths(current, 1), monthError: false });
    const last = await monthCalendar(sitter, addMonths(current, MONTHS_AHEAD), "en");
    expect(last.next).toBeNull();
    expect(await monthCalendar(sitter, addMonths(current, MONTHS_AHEAD + 1), "en")).toMatchObject({
      month: current,
      monthError: true,
    });
    expect(await monthCalendar(sitter, "2026-99", "en")).toMatchObject({ month: current, monthError: true });
  });
});

describe("free days for other features", () => {
  it("lists the days marked not free in a range and tells whether a set of days is free", async () => {
    const sitter = await person("sitter");
    await db
      .insertInto("sitter_days_off")
      .values(["2030-01-02", "2030-01-05", "2030-02-01"].map((day) => ({ sitter_id: sitter.id, day })))
      .execute();
    expect(await unavailableDays(db, sitter.id, "2030-01-01", "2030-01-31")).toEqual(["2030-01-02", "2030-01-05"]);
    expect(await isFreeOnDays(db, sitter.id, ["2030-01-03", "2030-01-04"])).toBe(true);
    expect(await isFreeOnDays(db, sitter.id, ["2030-01-04", "2030-01-05"])).toBe(false);
    expect(await isFreeOnDays(db, sitter.id, [])).toBe(true);
    expect(await isFreeOnDays(db, (await person("sitter")).id, ["2030-01-02"])).toBe(true);
  });
});
