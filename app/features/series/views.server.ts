import type { CareSeries, CareSeriesSchedule } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { dateTimeFormat, listOf } from "~/platform/format";
import { instantAt, wallClockIn } from "~/platform/time";
import {
  NEXT_DATES_SHOWN,
  addDays,
  datesBetween,
  decideSeries,
  parseWeekdays,
  scheduleOn,
  weekdayOf,
  type SeriesEvent,
  type Side,
} from "./machine";
import { datesTaken, schedulesOf } from "./reads.server";

/** How far ahead the series page looks for its next dates. */
const LOOK_AHEAD_DAYS = 120;
const DATES_ON_PAGE = 8;

export interface SeriesDate {
  day: string;
  label: string;
  startAt: string;
  /** planned: not made yet; booked: its booking exists and goes ahead; skipped: skipped or its booking ended. */
  state: "planned" | "booked" | "skipped";
  bookingId: string | null;
  canSkip: boolean;
}

export interface SeriesView {
  id: string;
  as: Side;
  other: { id: string; name: string };
  service: CareSeries["service"];
  status: CareSeries["status"];
  minutes: number;
  priceCents: number;
  policy: CareSeries["cancellation_policy"];
  timeZone: string;
  /** "Mon, Wed, Fri" in the reader's language, and the time: what is in force now (or first, before it starts). */
  days: string;
  weekdays: number[];
  startTime: string;
  /** When each date ends: a walk's or visit's end, day care's pick-up. */
  endTime: string;
  firstDay: string;
  lastDay: string | null;
  /** The first and last dates as the reader's language writes them. */
  firstDayText: string;
  lastDayText: string | null;
  pets: string;
  notes: string;
  pending: {
    fromDay: string;
    fromDayText: string;
    days: string;
    weekdays: number[];
    startTime: string;
    mine: boolean;
  } | null;
  next: SeriesDate[];
  today: string;
  can: {
    accept: boolean;
    decline: boolean;
    withdraw: boolean;
    end: boolean;
    propose: boolean;
    acceptChange: boolean;
    declineChange: boolean;
    withdrawChange: boolean;
  };
}

/** Weekday names in a language, Monday first ("Mon, Wed, Fri"). */
export function weekdayNames(language: string, weekdays: readonly number[]): string {
  const format = dateTimeFormat(language, { weekday: "short", timeZone: "UTC" });
  // 2024-01-01 was a Monday.
  return listOf(
    language,
    weekdays.map((weekday) => format.format(new Date(Date.UTC(2024, 0, weekday)))),
  );
}

/** Monday to Sunday in a language, for the weekday checkboxes. */
export function weekdayChoices(language: string): { weekday: number; name: string }[] {
  const format = dateTimeFormat(language, { weekday: "short", timeZone: "UTC" });
  return [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
    weekday,
    name: format.format(new Date(Date.UTC(2024, 0, weekday))),
  }));
}

/** "HH:MM" a number of minutes after another (within the day). */
function timeAfter(time: string, minutes: number): string {
  const [hours = 0, mins = 0] = time.split(":").map(Number);
  const total = Math.min(hours * 60 + mins + minutes, 24 * 60 - 1);
  return `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
}

type Row = CareSeries & { other_name: string };

function seriesRows(userId: string) {
  return db
    .selectFrom("care_series")
    .innerJoin("users as other", (join) =>
      join.on((eb) =>
        eb.or([
          eb.and([eb("care_series.owner_id", "=", userId), eb("other.id", "=", eb.ref("care_series.sitter_id"))]),
          eb.and([eb("care_series.sitter_id", "=", userId), eb("other.id", "=", eb.ref("care_series.owner_id"))]),
        ]),
      ),
    )
    .selectAll("care_series")
    .select("other.name as other_name");
}

async function viewOf(row: Row, userId: string, language: string, dateCount: number): Promise<SeriesView> {
  const as: Side = row.owner_id === userId ? "owner" : "sitter";
  const at = now();
  const today = wallClockIn(row.time_zone, at).day;
  const [schedules, { skipped, made: bookings }, pets] = await Promise.all([
    schedulesOf(db, row.id),
    datesTaken(row.id, today),
    db.selectFrom("care_series_pets").select("pet_name").where("series_id", "=", row.id).orderBy("position").execute(),
  ]);
  const pending = schedules.find((schedule) => schedule.status === "proposed") ?? null;
  // Before it is accepted, the series' days are the ones asked for.
  const shownSchedules: CareSeriesSchedule[] =
    row.status === "requested" && pending ? [{ ...pending, status: "accepted" }] : schedules;
  const inForce = scheduleOn(shownSchedules, today > row.first_day ? today : row.first_day) ??
    shownSchedules[0] ?? { weekdays: "", start_time: "" };
  const label = dateTimeFormat(language, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
  const longDate = dateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" });
  const dayText = (day: string) => longDate.format(new Date(`${day}T12:00:00Z`));
  const next: SeriesDate[] = [];
  const live = row.status === "active" || row.status === "requested";
  if (live) {
    const from = row.first_day > today ? row.first_day : today;
    for (const { day, schedule } of datesBetween(row, shownSchedules, from, addDays(today, LOOK_AHEAD_DAYS))) {
      const startAt = instantAt(row.time_zone, day, schedule.start_time);
      if (startAt <= at) continue;
      const booking = bookings.find((made) => made.series_day === day && made.series_schedule_id === schedule.id);
      const state: SeriesDate["state"] =
        skipped.has(day) || booking?.status === "cancelled" ? "skipped" : booking ? "booked" : "planned";
      next.push({
        day,
        label: `${label.format(new Date(`${day}T12:00:00Z`))} · ${schedule.start_time}`,
        startAt: startAt.toISOString(),
        state,
        bookingId: booking?.id ?? null,
        canSkip: row.status === "active" && state !== "skipped",
      });
      if (next.length >= dateCount) break;
    }
  }
  const actor = { side: as, userId };
  const context = { today, schedules, pending };
  const may = (event: SeriesEvent) => decideSeries(row, actor, event, context).ok;
  const weekdays = parseWeekdays(inForce.weekdays);
  const soon = addDays(today, 7);
  return {
    id: row.id,
    as,
    other: { id: as === "owner" ? row.sitter_id : row.owner_id, name: row.other_name },
    service: row.service,
    status: row.status,
    minutes: row.minutes,
    priceCents: row.price_cents,
    policy: row.cancellation_policy,
    timeZone: row.time_zone,
    days: weekdayNames(language, weekdays),
    weekdays,
    startTime: inForce.start_time,
    endTime: timeAfter(inForce.start_time, row.minutes),
    firstDay: row.first_day,
    lastDay: row.last_day,
    firstDayText: dayText(row.first_day),
    lastDayText: row.last_day ? dayText(row.last_day) : null,
    pets: listOf(
      language,
      pets.map((pet) => pet.pet_name),
    ),
    notes: row.notes,
    pending:
      pending && row.status === "active"
        ? {
            fromDay: pending.from_day,
            fromDayText: dayText(pending.from_day),
            days: weekdayNames(language, parseWeekdays(pending.weekdays)),
            weekdays: parseWeekdays(pending.weekdays),
            startTime: pending.start_time,
            mine: pending.proposed_by === as,
          }
        : null,
    next,
    today,
    can: {
      accept: may({ type: "accept" }),
      decline: may({ type: "decline" }),
      withdraw: may({ type: "withdraw" }),
      end: may({ type: "end" }),
      propose:
        row.status === "active" &&
        !pending &&
        may({ type: "propose-change", proposal: { fromDay: soon, weekdays: [weekdayOf(soon)], startTime: "00:00" } }),
      acceptChange: may({ type: "accept-change" }),
      declineChange: may({ type: "decline-change" }),
      withdrawChange: may({ type: "withdraw-change" }),
    },
  };
}

/** One series for one of its two people; null for anyone else. */
export async function seriesView(userId: string, id: string, language: string): Promise<SeriesView | null> {
  const row = await seriesRows(userId).where("care_series.id", "=", id).executeTakeFirst();
  return row ? viewOf(row, userId, language, DATES_ON_PAGE) : null;
}

/** A person's weekly care that is asked for or going on, with its next dates: what their bookings page lists. */
export async function seriesOf(userId: string, language: string): Promise<SeriesView[]> {
  const rows = await seriesRows(userId)
    .where("care_series.status", "in", ["requested", "active"])
    .orderBy("care_series.created_at", "desc")
    .limit(20)
    .execute();
  return Promise.all(rows.map((row) => viewOf(row, userId, language, NEXT_DATES_SHOWN)));
}
