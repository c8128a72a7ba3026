import { randomUUID } from "node:crypto";
import type { AvailabilitySlot, SlotStatus } from "~db/schema";
import { now, nowIso } from "~/platform/clock.server";
import { db, lockPeople } from "~/platform/db.server";
import { dateTimeFormat } from "~/platform/format";
import { instantAt, wallClockIn } from "~/platform/time";
import { DEFAULT_SLOT, PRESETS, isCalendarDay, isTime, type AddSlotInput } from "./schema";

export { DEFAULT_SLOT, PRESETS };

export interface SlotView {
  id: string;
  startAt: string;
  endAt: string;
  status: SlotStatus;
}

export type AddSlotResult =
  | { status: "added"; slot: SlotView }
  | { status: "overlap" }
  | { status: "past" }
  /** A malformed day or time, or an end not after the start (a skipped DST hour can do that). */
  | { status: "invalid" };

export type DeleteSlotResult = "deleted" | "not-found" | "not-available";

const toSlotView = (slot: Pick<AvailabilitySlot, "id" | "start_at" | "end_at" | "status">): SlotView => ({
  id: slot.id,
  startAt: slot.start_at,
  endAt: slot.end_at,
  status: slot.status,
});

export function todayIn(timeZone: string): string {
  return wallClockIn(timeZone, now()).day;
}

export function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

export async function listSlotsOn(sitterId: string, day: string, timeZone: string): Promise<SlotView[]> {
  if (!isCalendarDay(day)) return [];
  const dayStart = instantAt(timeZone, day, "00:00").toISOString();
  const dayEnd = instantAt(timeZone, dayAfter(day), "00:00").toISOString();
  const slots = await db
    .selectFrom("availability_slots")
    .select(["id", "start_at", "end_at", "status"])
    .where("sitter_id", "=", sitterId)
    .where("start_at", "<", dayEnd)
    .where("end_at", ">", dayStart)
    .orderBy("start_at")
    .execute();
  return slots.map(toSlotView);
}

export async function slotsPage(sitter: { id: string; time_zone: string }, asked: string, language: string) {
  const today = todayIn(sitter.time_zone);
  const date = isCalendarDay(asked) ? asked : today;
  const slots = await listSlotsOn(sitter.id, date, sitter.time_zone);
  return {
    today,
    date,
    dateLabel: formatDay(date, language),
    slots: slots.map((slot) => ({
      id: slot.id,
      status: slot.status,
      range: describeSlot(slot, sitter.time_zone, language).range,
    })),
  };
}

export async function findOwnSlot(sitterId: string, slotId: string): Promise<SlotView | null> {
  const slot = await db
    .selectFrom("availability_slots")
    .select(["id", "start_at", "end_at", "status"])
    .where("id", "=", slotId)
    .where("sitter_id", "=", sitterId)
    .executeTakeFirst();
  return slot ? toSlotView(slot) : null;
}

/** One IMMEDIATE transaction, so two adds at once cannot both pass the overlap check. */
export async function addSlot(
  sitterId: string,
  timeZone: string,
  { day, startTime, endTime }: AddSlotInput,
): Promise<AddSlotResult> {
  if (!isCalendarDay(day) || !isTime(startTime) || !isTime(endTime)) return { status: "invalid" };
  const start = instantAt(timeZone, day, startTime);
  const end = instantAt(timeZone, day, endTime);
  if (!(start.getTime() < end.getTime())) return { status: "invalid" };
  if (start.getTime() < now().getTime()) return { status: "past" };
  const startAt = start.toISOString();
  const endAt = end.toISOString();
  return db.transaction().execute(async (trx): Promise<AddSlotResult> => {
    // The sitter's calendar is read to decide: the sitter is locked, as a booking decision locks them.
    await lockPeople(trx, sitterId);
    const clash = await trx
      .selectFrom("availability_slots")
      .select("id")
      .where("sitter_id", "=", sitterId)
      .where("start_at", "<", endAt)
      .where("end_at", ">", startAt)
      .executeTakeFirst();
    if (clash) return { status: "overlap" };
    const slot = {
      id: randomUUID(),
      sitter_id: sitterId,
      start_at: startAt,
      end_at: endAt,
      status: "available" as const,
      booking_id: null,
      created_at: nowIso(),
    };
    await trx.insertInto("availability_slots").values(slot).execute();
    return { status: "added", slot: toSlotView(slot) };
  });
}

export async function deleteSlot(sitterId: string, slotId: string): Promise<DeleteSlotResult> {
  return db.transaction().execute(async (trx): Promise<DeleteSlotResult> => {
    await lockPeople(trx, sitterId);
    const slot = await trx
      .selectFrom("availability_slots")
      .select("status")
      .where("id", "=", slotId)
      .where("sitter_id", "=", sitterId)
      .executeTakeFirst();
    if (!slot) return "not-found";
    if (slot.status !== "available") return "not-available";
    await trx.deleteFrom("availability_slots").where("id", "=", slotId).execute();
    return "deleted";
  });
}

/** Made on the server, so the page hydrates with the same text. */
export function describeSlot(
  slot: SlotView,
  timeZone: string,
  language: string,
): { day: string; date: string; range: string } {
  const start = new Date(slot.startAt);
  const end = new Date(slot.endAt);
  const startDay = wallClockIn(timeZone, start).day;
  const sameDay = wallClockIn(timeZone, end).day === startDay;
  const format = dateTimeFormat(
    language,
    sameDay ? { timeStyle: "short", timeZone } : { dateStyle: "short", timeStyle: "short", timeZone },
  );
  // Each end stays on one line ("1:00 PM"); a narrow screen may wrap the range at the dash.
  const unbroken = (at: Date) => format.format(at).replace(/\s/g, "\u00a0");
  return { day: startDay, date: formatDay(startDay, language), range: `${unbroken(start)} – ${unbroken(end)}` };
}

export function formatDay(day: string, language: string): string {
  // Noon UTC of that date, formatted in UTC: the same calendar day whatever the zone.
  return dateTimeFormat(language, { dateStyle: "full", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`));
}

export interface StartTime {
  time: string;
  maxHours: number;
}

export async function startTimesByDay(
  sitterId: string,
  timeZone: string,
  firstDay: string,
  dayCount: number,
): Promise<Map<string, StartTime[]>> {
  const rangeStart = instantAt(timeZone, firstDay, "00:00");
  const byDay = new Map<string, StartTime[]>();
  if (Number.isNaN(rangeStart.getTime()) || !isCalendarDay(firstDay)) return byDay;
  // Days are 23 to 25 hours long across a daylight-saving change: two hours of margin.
  const rangeEnd = new Date(rangeStart.getTime() + (dayCount * 24 + 2) * 3600_000);
  const slots = await db
    .selectFrom("availability_slots")
    .select(["start_at", "end_at"])
    .where("sitter_id", "=", sitterId)
    .where("status", "=", "available")
    .where("start_at", "<", rangeEnd.toISOString())
    .where("end_at", ">", rangeStart.toISOString())
    .orderBy("start_at")
    .execute();
  let lastDay = firstDay;
  for (let i = 1; i < dayCount; i += 1) lastDay = dayAfter(lastDay);
  // A day the sitter marked not free offers no start times, whatever slots it has.
  const daysOff = new Set(
    (
      await db
        .selectFrom("sitter_days_off")
        .select("day")
        .where("sitter_id", "=", sitterId)
        .where("day", ">=", firstDay)
        .where("day", "<=", lastDay)
        .execute()
    ).map((row) => row.day),
  );
  const earliest = now().getTime();
  const step = 30 * 60_000;
  for (const slot of slots) {
    const slotEnd = new Date(slot.end_at).getTime();
    for (let at = Math.ceil(new Date(slot.start_at).getTime() / step) * step; at + 3600_000 <= slotEnd; at += step) {
      if (at <= earliest) continue;
      const wall = wallClockIn(timeZone, new Date(at));
      if (wall.day < firstDay || wall.day > lastDay || daysOff.has(wall.day)) continue;
      const times = byDay.get(wall.day) ?? [];
      times.push({ time: wall.time, maxHours: Math.min(6, Math.floor((slotEnd - at) / 3600_000)) });
      byDay.set(wall.day, times);
    }
  }
  return byDay;
}

export async function startTimesOn(sitterId: string, timeZone: string, day: string): Promise<StartTime[]> {
  return (await startTimesByDay(sitterId, timeZone, day, 1)).get(day) ?? [];
}
