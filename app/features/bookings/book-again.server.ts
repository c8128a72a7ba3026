import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { instantAt, wallClockIn } from "~/platform/time";
import { isFreeOnDays } from "~/features/availability/index.server";
import type { StayService } from "~/features/profiles";
import { dayAfter, daysOf, stayFits } from "./stay-capacity.server";
import { isWalkService } from "./walks.server";

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

/**
 * Where an owner books a sitter for the first time (after a meet & greet): the page of the sitter's first kind of
 * care (by the hour, walks and visits, or stays), with the owner's pets the sitter can take at once ticked.
 */
export async function firstBookingPath(ownerId: string, sitterId: string): Promise<string | null> {
  const sitter = await db
    .selectFrom("users")
    .select(["id", "hourly_rate_cents", "max_pets"])
    .where("id", "=", sitterId)
    .executeTakeFirst();
  if (!sitter) return null;
  const [services, pets] = await Promise.all([
    db.selectFrom("sitter_services").select("service").where("sitter_id", "=", sitter.id).execute(),
    db
      .selectFrom("pets")
      .select("id")
      .where("owner_id", "=", ownerId)
      .orderBy("created_at")
      .orderBy("id")
      .limit(sitter.max_pets)
      .execute(),
  ]);
  const offered = services.map((row) => row.service as string);
  const query = new URLSearchParams();
  const page =
    sitter.hourly_rate_cents !== null
      ? "/booking/request"
      : offered.some(isWalkService)
        ? "/booking/walk"
        : offered.length > 0
          ? "/booking/stay"
          : null;
  if (!page) return null;
  query.set(page === "/booking/stay" ? "sitterId" : "walkerId", sitter.id);
  for (const pet of pets) query.append("pet", pet.id);
  return `${page}?${query}`;
}

/**
 * The pets ticked when a request page opens: those of the booking booked again, else those the link names among the
 * asker's own (anything else is ignored), else an only pet.
 */
export function prefilledPets(
  url: URL,
  page: { pets: readonly { id: string }[]; again: { petIds: string[] } | null },
): string[] {
  if (page.again?.petIds.length) return page.again.petIds;
  const asked = new Set(url.searchParams.getAll("pet").slice(0, 20));
  const linked = page.pets.filter((pet) => asked.has(pet.id)).map((pet) => pet.id);
  if (linked.length) return linked;
  return page.pets.length === 1 ? [page.pets[0]!.id] : [];
}
