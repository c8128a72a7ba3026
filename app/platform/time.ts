/** Times are stored in UTC; a person's calendar day is the one of their IANA time zone. */

function offsetMs(timeZone: string, at: Date): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(at)
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  const wallClockAsUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wallClockAsUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant the calendar day containing `at` began in `timeZone` (right across DST changes). */
export function startOfDayIn(timeZone: string, at: Date): Date {
  const wall = new Date(at.getTime() + offsetMs(timeZone, at));
  const midnight = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  // The offset at midnight can differ from the offset now on a day the clocks change.
  const first = new Date(midnight - offsetMs(timeZone, at));
  return new Date(midnight - offsetMs(timeZone, first));
}
