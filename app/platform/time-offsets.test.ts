import { describe, expect, it } from "vitest";
import { startOfDayIn, wallClockIn } from "./time";

/** The wall clock as Intl gives it for this very instant, with no remembered offset. */
function wallClockFromIntl(timeZone: string, at: Date) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

describe("wall clocks with offsets remembered per quarter hour", () => {
  // Clocks going forward and back, by an hour and by half an hour, in zones a quarter hour off the hour.
  const changes: [string, string][] = [
    ["Europe/Madrid", "2026-03-29T01:00:00Z"],
    ["Europe/Madrid", "2026-10-25T01:00:00Z"],
    ["America/New_York", "2026-03-08T07:00:00Z"],
    ["America/New_York", "2026-11-01T06:00:00Z"],
    ["Australia/Lord_Howe", "2026-04-04T15:00:00Z"],
    ["Australia/Lord_Howe", "2026-10-03T15:30:00Z"],
    ["Asia/Kathmandu", "2026-06-01T00:00:00Z"],
    ["Pacific/Chatham", "2026-04-04T14:45:00Z"],
  ];

  it.each(changes)("in %s around %s, minute by minute, match Intl's", (timeZone, change) => {
    const middle = Date.parse(change);
    for (let minute = -90; minute <= 90; minute += 1) {
      // Seconds inside the minute too: the offset of an instant does not depend on them.
      const at = new Date(middle + minute * 60_000 + (minute % 7) * 1000 + 123);
      expect(wallClockIn(timeZone, at), `${timeZone} ${at.toISOString()}`).toEqual(wallClockFromIntl(timeZone, at));
    }
  });

  it("start the day at the zone's midnight, also on the days the clocks change", () => {
    expect(startOfDayIn("Europe/Madrid", new Date("2026-03-29T12:00:00Z")).toISOString()).toBe(
      "2026-03-28T23:00:00.000Z",
    );
    expect(startOfDayIn("Europe/Madrid", new Date("2026-10-25T12:00:00Z")).toISOString()).toBe(
      "2026-10-24T22:00:00.000Z",
    );
    expect(startOfDayIn("America/New_York", new Date("2026-11-01T12:00:00Z")).toISOString()).toBe(
      "2026-11-01T04:00:00.000Z",
    );
  });

  it("keep to Intl before 1980, when offsets were not whole quarter hours", () => {
    const at = new Date("1900-06-01T12:00:00Z");
    expect(wallClockIn("Europe/Amsterdam", at)).toEqual(wallClockFromIntl("Europe/Amsterdam", at));
  });
});
