import type { Kysely, Transaction } from "kysely";
import type { Database } from "~db/schema";
import { db, lockPeople } from "~/platform/db.server";
import { dateTimeFormat } from "~/platform/format";
import { dayAfter, todayIn } from "./availability.server";
import { isCalendarDay } from "./schema";

type Tx = Transaction<Database> | Kysely<Database>;

/** How far ahead a sitter may plan: this month and the next 12. */
export const MONTHS_AHEAD = 12;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const isMonth = (value: string) => MONTH.test(value);

/** The month `count` months after `month` (YYYY-MM), count may be negative. */
export function addMonths(month: string, count: number): string {
  const total = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + count;
  return `${String(Math.floor(total / 12)).padStart(4, "0")}-${String((total % 12) + 1).padStart(2, "0")}`;
}

/** Every calendar day of a month, first to last. */
export function daysOfMonth(month: string): string[] {
  const days: string[] = [];
  for (let day = `${month}-01`; day.startsWith(month); day = dayAfter(day)) days.push(day);
  return days;
}

/**
 * The days from `fromDay` to `toDay` (both included, YYYY-MM-DD in the sitter's time zone) that the sitter
 * marked not free, in order. Every other day is free. Pass a transaction to read inside it.
 */
export async function unavailableDays(database: Tx, sitterId: string, fromDay: string, toDay: string) {
  const rows = await database
    .selectFrom("sitter_days_off")
    .select("day")
    .where("sitter_id", "=", sitterId)
    .where("day", ">=", fromDay)
    .where("day", "<=", toDay)
    .orderBy("day")
    .execute();
  return rows.map((row) => row.day);
}

/** True when the sitter has not marked any of these days (YYYY-MM-DD, sitter's time zone) not free. */
export async function isFreeOnDays(database: Tx, sitterId: string, days: readonly string[]): Promise<boolean> {
  if (days.length === 0) return true;
  const blocked = await database
    .selectFrom("sitter_days_off")
    .select("day")
    .where("sitter_id", "=", sitterId)
    .where("day", "in", [...days])
    .executeTakeFirst();
  return !blocked;
}

export interface CalendarDay {
  day: string;
  /** 1-31, shown in the grid. */
  date: number;
  free: boolean;
  /** Past days are shown but cannot change. */
  editable: boolean;
  label: string;
}

export type MonthCheck = { ok: true; month: string; today: string } | { ok: false };

/** A month the sitter may see and edit: from the current month to MONTHS_AHEAD months later. */
export function checkMonth(timeZone: string, asked: string): MonthCheck {
  const today = todayIn(timeZone);
  const current = today.slice(0, 7);
  if (!isMonth(asked) || asked < current || asked > addMonths(current, MONTHS_AHEAD)) return { ok: false };
  return { ok: true, month: asked, today };
}

export async function monthCalendar(sitter: { id: string; time_zone: string }, asked: string, language: string) {
  const current = todayIn(sitter.time_zone).slice(0, 7);
  const checked = checkMonth(sitter.time_zone, asked || current);
  const { month, today } = checked.ok ? checked : { month: current, today: todayIn(sitter.time_zone) };
  const days = daysOfMonth(month);
  const off = new Set(await unavailableDays(db, sitter.id, `${month}-01`, `${month}-31`));
  const dayLabel = dateTimeFormat(language, { dateStyle: "full", timeZone: "UTC" });
  const monthLabel = dateTimeFormat(language, { month: "long", year: "numeric", timeZone: "UTC" });
  const weekday = dateTimeFormat(language, { weekday: "short", timeZone: "UTC" });
  // Monday first; 2024-01-01 was a Monday.
  const weekdays = [1, 2, 3, 4, 5, 6, 7].map((d) => weekday.format(new Date(Date.UTC(2024, 0, d, 12))));
  const calendar: CalendarDay[] = days.map((day) => ({
    day,
    date: Number(day.slice(8)),
    free: !off.has(day),
    editable: day >= today,
    label: dayLabel.format(new Date(`${day}T12:00:00Z`)),
  }));
  const first = addMonths(current, 0);
  const last = addMonths(current, MONTHS_AHEAD);
  return {
    month,
    monthError: !checked.ok && asked !== "",
    monthLabel: monthLabel.format(new Date(`${month}-15T12:00:00Z`)),
    weekdays,
    // Blank cells before the 1st in a Monday-first week.
    leading: (new Date(`${month}-01T12:00:00Z`).getUTCDay() + 6) % 7,
    days: calendar,
    previous: month > first ? addMonths(month, -1) : null,
    next: month < last ? addMonths(month, 1) : null,
  };
}

export type SaveMonthResult = { status: "saved" } | { status: "badMonth" } | { status: "badDay" };

/**
 * Saves a whole month in one transaction: the editable days (today onwards) listed in `freeDays` become
 * free, the other editable days not free; past days keep what they were. A day outside the month, in the
 * past or malformed refuses the whole submission and changes nothing.
 */
export async function saveMonth(
  sitter: { id: string; time_zone: string },
  month: string,
  freeDays: readonly string[],
): Promise<SaveMonthResult> {
  const checked = checkMonth(sitter.time_zone, month);
  if (!checked.ok) return { status: "badMonth" };
  const editable = daysOfMonth(month).filter((day) => day >= checked.today);
  const allowed = new Set(editable);
  if (freeDays.some((day) => !isCalendarDay(day) || !allowed.has(day))) return { status: "badDay" };
  const free = new Set(freeDays);
  const off = editable.filter((day) => !free.has(day));
  await db.transaction().execute(async (trx) => {
    await lockPeople(trx, sitter.id);
    if (editable.length)
      await trx.deleteFrom("sitter_days_off").where("sitter_id", "=", sitter.id).where("day", "in", editable).execute();
    if (off.length)
      await trx
        .insertInto("sitter_days_off")
        .values(off.map((day) => ({ sitter_id: sitter.id, day })))
        .execute();
  });
  return { status: "saved" };
}
