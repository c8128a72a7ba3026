import type { CareSeries, CareSeriesSchedule } from "~db/schema";

/**
 * Pure rules of weekly care (no I/O); series.server.ts writes their answer.
 *
 *   requested → active (the sitter accepts once) → ended; requested → declined, or withdrawn by the owner
 *
 * While active, either side skips a future date, proposes new days or a new time from a date on (the other side
 * accepts or declines it; the proposer may withdraw it), or ends the series. Each date becomes its own booking a
 * week ahead (the generator); what is past stays as it was.
 */

export type Side = "owner" | "sitter";
export type SeriesActor = { side: Side; userId: string };

/** Occurrences are made this many days ahead (the card is held two days before, as for any booking). */
export const GENERATE_DAYS_AHEAD = 7;
/** A series is asked for at most this far ahead, and a change starts at most this far ahead. */
export const MAX_AHEAD_DAYS = 90;
/** The next dates the bookings list shows. */
export const NEXT_DATES_SHOWN = 3;

export type SeriesRefusal =
  | "notYours"
  | "wrongState"
  | "noWeekday"
  | "pastDay"
  | "tooFar"
  | "firstDayNotChosen"
  | "lastBeforeFirst"
  | "notPlanned"
  | "alreadySkipped"
  | "changePending"
  | "noChange";

export type SeriesNotice =
  | "requested"
  | "accepted"
  | "declined"
  | "withdrawn"
  | "ended"
  | "skipped"
  | "changeProposed"
  | "changeAccepted"
  | "changeDeclined";

export interface ScheduleProposal {
  fromDay: string;
  weekdays: number[];
  startTime: string;
}

export type SeriesEvent =
  | { type: "accept" }
  | { type: "decline" }
  | { type: "withdraw" }
  | { type: "end" }
  | { type: "skip"; day: string }
  | { type: "propose-change"; proposal: ScheduleProposal }
  | { type: "accept-change" }
  | { type: "decline-change" }
  | { type: "withdraw-change" };

export type SeriesFacts = Pick<CareSeries, "owner_id" | "sitter_id" | "status" | "first_day" | "last_day">;
export type ScheduleFacts = Pick<
  CareSeriesSchedule,
  "id" | "from_day" | "weekdays" | "start_time" | "status" | "proposed_by"
>;

export interface SeriesDecision {
  /** The series' new status, if it changes. */
  status?: CareSeries["status"];
  lastDay?: string;
  /** The schedule on the table and its new status. */
  schedule?: { id: string; status: CareSeriesSchedule["status"] };
  newSchedule?: ScheduleProposal;
  skip?: string;
  notify: { to: Side; notice: SeriesNotice; day?: string }[];
}

export type SeriesResult = { ok: true; change: SeriesDecision } | { ok: false; refusal: SeriesRefusal };

const refuse = (refusal: SeriesRefusal): SeriesResult => ({ ok: false, refusal });
const other = (side: Side): Side => (side === "owner" ? "sitter" : "owner");

const DAY_MS = 24 * 3600_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

export const isCalendarDay = (day: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(day) && new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;

/** The calendar day `count` days after `day`. */
export const addDays = (day: string, count: number) =>
  new Date((dayNumber(day) + count) * DAY_MS).toISOString().slice(0, 10);

/** ISO weekday of a calendar day: 1 Monday … 7 Sunday. */
export const weekdayOf = (day: string) => ((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

export const parseWeekdays = (stored: string): number[] =>
  stored
    .split(",")
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 1 && n <= 7);

export const storeWeekdays = (weekdays: readonly number[]) => [...new Set(weekdays)].sort((a, b) => a - b).join(",");

/** The schedule in force on a day: the accepted one with the latest first day on or before it. */
export function scheduleOn<S extends ScheduleFacts>(schedules: readonly S[], day: string): S | null {
  let found: S | null = null;
  for (const schedule of schedules)
    if (schedule.status === "accepted" && schedule.from_day <= day && (!found || schedule.from_day >= found.from_day))
      found = schedule;
  return found;
}

/** Whether a day is one of the series' dates (skipped or not). */
export function isPlanned(series: SeriesFacts, schedules: readonly ScheduleFacts[], day: string): boolean {
  if (day < series.first_day || (series.last_day && day > series.last_day)) return false;
  const schedule = scheduleOn(schedules, day);
  return Boolean(schedule && parseWeekdays(schedule.weekdays).includes(weekdayOf(day)));
}

/** The series' dates from one day to another, both included, each with the schedule it follows. */
export function datesBetween<S extends ScheduleFacts>(
  series: SeriesFacts,
  schedules: readonly S[],
  fromDay: string,
  toDay: string,
): { day: string; schedule: S }[] {
  const dates: { day: string; schedule: S }[] = [];
  for (let day = fromDay; day <= toDay; day = addDays(day, 1)) {
    if (!isPlanned(series, schedules, day)) continue;
    dates.push({ day, schedule: scheduleOn(schedules, day)! });
  }
  return dates;
}

/** What is wrong with a series' days and time as asked, if anything (the request and every change). */
export function proposalProblem(proposal: ScheduleProposal, today: string): SeriesRefusal | null {
  if (proposal.weekdays.length === 0) return "noWeekday";
  if (!isCalendarDay(proposal.fromDay) || proposal.fromDay < today) return "pastDay";
  if (proposal.fromDay > addDays(today, MAX_AHEAD_DAYS)) return "tooFar";
  if (!proposal.weekdays.includes(weekdayOf(proposal.fromDay))) return "firstDayNotChosen";
  return null;
}

/**
 * `today` is the sitter's calendar day; `pending` the change on the table, if any; `skipped` whether the day
 * asked to skip is skipped or its occurrence already ended; `started` whether that date's time has come.
 */
export function decideSeries(
  series: SeriesFacts,
  actor: SeriesActor,
  event: SeriesEvent,
  context: {
    today: string;
    schedules: readonly ScheduleFacts[];
    pending: ScheduleFacts | null;
    skipped?: boolean;
    started?: boolean;
  },
): SeriesResult {
  const userOf = (side: Side) => (side === "owner" ? series.owner_id : series.sitter_id);
  if (actor.userId !== userOf(actor.side)) return refuse("notYours");
  const me = actor.side;
  const { today, pending } = context;

  switch (event.type) {
    case "accept":
    case "decline": {
      if (me !== "sitter") return refuse("notYours");
      if (series.status !== "requested" || !pending) return refuse("wrongState");
      const accepted = event.type === "accept";
      return {
        ok: true,
        change: {
          status: accepted ? "active" : "declined",
          schedule: { id: pending.id, status: accepted ? "accepted" : "declined" },
          notify: [{ to: "owner", notice: accepted ? "accepted" : "declined" }],
        },
      };
    }
    case "withdraw": {
      if (me !== "owner") return refuse("notYours");
      if (series.status !== "requested" || !pending) return refuse("wrongState");
      return {
        ok: true,
        change: {
          status: "withdrawn",
          schedule: { id: pending.id, status: "withdrawn" },
          notify: [{ to: "sitter", notice: "withdrawn" }],
        },
      };
    }
    case "end": {
      if (series.status !== "active") return refuse("wrongState");
      const lastDay = series.last_day && series.last_day < today ? series.last_day : today;
      return {
        ok: true,
        change: {
          status: "ended",
          lastDay,
          ...(pending ? { schedule: { id: pending.id, status: "withdrawn" as const } } : {}),
          notify: [{ to: other(me), notice: "ended" }],
        },
      };
    }
    case "skip": {
      if (series.status !== "active") return refuse("wrongState");
      if (!isCalendarDay(event.day) || event.day < today || context.started) return refuse("pastDay");
      if (!isPlanned(series, context.schedules, event.day)) return refuse("notPlanned");
      if (context.skipped) return refuse("alreadySkipped");
      return {
        ok: true,
        change: { skip: event.day, notify: [{ to: other(me), notice: "skipped", day: event.day }] },
      };
    }
    case "propose-change": {
      if (series.status !== "active") return refuse("wrongState");
      if (pending) return refuse("changePending");
      // A change applies from a day not yet begun.
      const problem = proposalProblem(event.proposal, addDays(today, 1));
      if (problem) return refuse(problem);
      if (series.last_day && event.proposal.fromDay > series.last_day) return refuse("tooFar");
      const current = scheduleOn(context.schedules, event.proposal.fromDay);
      if (
        current &&
        current.weekdays === storeWeekdays(event.proposal.weekdays) &&
        current.start_time === event.proposal.startTime
      )
        return refuse("noChange");
      return {
        ok: true,
        change: { newSchedule: event.proposal, notify: [{ to: other(me), notice: "changeProposed" }] },
      };
    }
    case "accept-change":
    case "decline-change": {
      if (series.status !== "active" || !pending) return refuse("wrongState");
      if (pending.proposed_by === me) return refuse("notYours");
      const accepted = event.type === "accept-change";
      // A change whose first day has begun would rewrite a date already under way: it can only be declined.
      if (accepted && pending.from_day <= today) return refuse("pastDay");
      return {
        ok: true,
        change: {
          schedule: { id: pending.id, status: accepted ? "accepted" : "declined" },
          notify: [{ to: other(me), notice: accepted ? "changeAccepted" : "changeDeclined" }],
        },
      };
    }
    case "withdraw-change": {
      if (series.status !== "active" || !pending) return refuse("wrongState");
      if (pending.proposed_by !== me) return refuse("notYours");
      return { ok: true, change: { schedule: { id: pending.id, status: "withdrawn" }, notify: [] } };
    }
  }
}
