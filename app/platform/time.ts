import { dateTimeFormat } from "./format";

// Times are stored in UTC; a person's calendar day is the one of their IANA time zone.

// Zones change their offset only at instants on a quarter hour (offsets and the local times of the
// changes are whole quarter hours since the 1970s), so one offset holds for a whole quarter hour: it
// is asked of Intl once per zone and quarter, not on every call.
const QUARTER_HOUR_MS = 15 * 60_000;
const OFFSET_CACHE_SIZE = 2000;
const offsets = new Map<string, number>();

function offsetMs(timeZone: string, at: Date): number {
  const quarter = Math.floor(at.getTime() / QUARTER_HOUR_MS);
  // Before 1980 some zones still kept local mean time, with offsets in seconds: asked every time.
  if (!(quarter > 350_000)) return offsetFromIntl(timeZone, new Date(Math.floor(at.getTime() / 1000) * 1000));
  const key = `${timeZone} ${quarter}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = offsetFromIntl(timeZone, new Date(quarter * QUARTER_HOUR_MS));
    if (offsets.size >= OFFSET_CACHE_SIZE) offsets.delete(offsets.keys().next().value!);
    offsets.set(key, offset);
  }
  return offset;
}

function offsetFromIntl(timeZone: string, at: Date): number {
  const parts = Object.fromEntries(
    dateTimeFormat("en-US", {
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

export function startOfDayIn(timeZone: string, at: Date): Date {
  const wall = new Date(at.getTime() + offsetMs(timeZone, at));
  const midnight = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  // The offset at midnight can differ from the offset now on a day the clocks change.
  const first = new Date(midnight - offsetMs(timeZone, at));
  return new Date(midnight - offsetMs(timeZone, first));
}

export function instantAt(timeZone: string, day: string, time: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  const wallAsUtc = Date.UTC(year, month - 1, date, hour, minute);
  const guess = new Date(wallAsUtc - offsetMs(timeZone, new Date(wallAsUtc)));
  return new Date(wallAsUtc - offsetMs(timeZone, guess));
}

export function wallClockIn(timeZone: string, at: Date): { day: string; time: string } {
  const shifted = new Date(Math.floor(at.getTime() / 1000) * 1000 + offsetMs(timeZone, at));
  const iso = shifted.toISOString();
  return { day: iso.slice(0, 10), time: iso.slice(11, 16) };
}

export function daysAgoIn(timeZone: string, at: Date, reference: Date): number {
  const day = (instant: Date) => {
    const { day: wall } = wallClockIn(timeZone, instant);
    return Date.UTC(Number(wall.slice(0, 4)), Number(wall.slice(5, 7)) - 1, Number(wall.slice(8, 10)));
  };
  return Math.round((day(reference) - day(at)) / (24 * 3600_000));
}

/** An IANA zone name this runtime knows ("Europe/Madrid", "UTC"); not an offset or an abbreviation. */
export function isTimeZone(zone: string): boolean {
  if (zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone.includes("/") || zone === "UTC";
  } catch {
    return false;
  }
}
