import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { instantAt, wallClockIn } from "~/platform/time";
import { isFreeOnDays } from "~/features/availability/index.server";
import type { StayService } from "~/features/profiles";
import { dayAfter, daysOf, stayFits } from "./stay-capacity.server";

/*
 * "Book again": a completed booking's service, pets, time and length, prefilled on a new request with the same
 * sitter for the next day they are free. Only the owner's own completed booking with that sitter is repeated;
 * any other id prefills nothing.
 */

export interface Repeat {
  service: string;
  /** The booked pets that still exist, in order. */
  petIds: string[];
  /** Start and end times of day, in the sitter's time zone. */
  startTime: string;
  endTime: string;
  /** Hours, walks or visits (1), nights or days, as booked. */
  units: number;
  /** Calendar days from the first to the last (a stay's span). */
  spanDays: number;
}

const ID = /^[0-9a-f-]{36}$/;

/** The owner's completed booking `bookingId` with the sitter, as a new request repeats it; null for anything else. */
export async function repeatOf(
  ownerId: string,
  sitter: { id: string; time_zone: string },
  bookingId: string | null | undefined,
  executor: Kysely<Database> = db,
): Promise<Repeat | null> {
  if (!bookingId || !ID.test(bookingId)) return null;
  const booking = await executor
    .selectFrom("bookings")
    .select(["id", "service_type", "start_at", "end_at", "hours"])
    .where("id", "=", bookingId)
    .where("owner_id", "=", ownerId)
    .where("sitter_id", "=", sitter.id)
    .where("status", "=", "completed")
    .executeTakeFirst();
  if (!booking) return null;
  const pets = await executor
    .selectFrom("booking_pets")
    .innerJoin("pets", "pets.id", "booking_pets.pet_id")
    .select("pets.id")
    .where("booking_pets.booking_id", "=", booking.id)
    .where("pets.owner_id", "=", ownerId)
    .orderBy("booking_pets.position")
    .execute();
  const start = wallClockIn(sitter.time_zone, new Date(booking.start_at));
  const end = wallClockIn(sitter.time_zone, new Date(booking.end_at));
  return {
    service: booking.service_type,
    petIds: pets.map((pet) => pet.id),
    startTime: start.time,
    endTime: end.time,
    units: booking.hours,
    spanDays: daysOf(start.day, end.day).length - 1,
  };
}

/** Of the days with free start times, the first that offers `time`, else the first. */
export function nextDayAt(startTimes: Map<string, { time: string }[]>, time: string): string | undefined {
  const days = [...startTimes.keys()].sort();
  return days.find((day) => startTimes.get(day)!.some((offered) => offered.time === time)) ?? days[0];
}

const STAY_SEARCH_DAYS = 60;

/** The first day from tomorrow on which the stay, as booked before, fits the sitter's days off and room. */
export async function nextStayStart(
  sitter: { id: string; time_zone: string; max_pets: number },
  service: StayService,
  repeat: Repeat,
): Promise<string | null> {
  const today = wallClockIn(sitter.time_zone, now()).day;
  for (let ahead = 1; ahead <= STAY_SEARCH_DAYS; ahead++) {
    const first = dayAfter(today, ahead);
    const last = dayAfter(first, repeat.spanDays);
    if (!(await isFreeOnDays(db, sitter.id, daysOf(first, last)))) continue;
    const stay = {
      id: "",
      service,
      start_at: instantAt(sitter.time_zone, first, repeat.startTime).toISOString(),
      end_at: instantAt(sitter.time_zone, last, repeat.endTime).toISOString(),
      pets: Math.max(1, repeat.petIds.length),
    };
    if (await stayFits(db, sitter, stay)) return first;
  }
  return null;
}

/** What a request form prefills from a repeat: the start time only when the chosen day offers it. */
export function prefillOf(bookingId: string, repeat: Repeat, times: { time: string }[]) {
  return {
    bookingId,
    petIds: repeat.petIds,
    startTime: times.some((offered) => offered.time === repeat.startTime) ? repeat.startTime : null,
    hours: repeat.units,
  };
}
