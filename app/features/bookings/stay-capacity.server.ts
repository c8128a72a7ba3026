import type { Kysely, Transaction } from "kysely";
import type { Booking, Database } from "~db/schema";
import { wallClockIn } from "~/platform/time";
import type { StayService } from "~/features/profiles";

/*
 * A sitter's room for a stay: a confirmed house sitting takes the sitter's whole days; boarding and day care take
 * pets up to the sitter's "most pets at once" on each day, across every stay that overlaps.
 */

/** Stays at the sitter's home, which several owners' pets can share. */
export const SHARED_STAYS: StayService[] = ["boarding", "day_care"];
export const sharesDays = (service: string) => (SHARED_STAYS as string[]).includes(service);

const DAY_MS = 24 * 3600_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/** The calendar day `count` days after `day`. */
export const dayAfter = (day: string, count: number) => dayOf(dayNumber(day) + count);

/** Every calendar day from the first to the last, both included. */
export function daysOf(firstDay: string, lastDay: string): string[] {
  const days: string[] = [];
  for (let n = dayNumber(firstDay); n <= dayNumber(lastDay); n++) days.push(dayOf(n));
  return days;
}

/** What a stay's price counts: nights for house sitting and boarding, days for day care (null: no such stay). */
export function stayUnits(service: StayService, firstDay: string, lastDay: string): number | null {
  const between = dayNumber(lastDay) - dayNumber(firstDay);
  if (!Number.isInteger(between)) return null;
  const units = service === "day_care" ? between + 1 : between;
  return units >= 1 ? units : null;
}

interface StaySitter {
  id: string;
  time_zone: string;
  max_pets: number;
}

/**
 * Whether a stay fits beside the sitter's confirmed bookings: a house sitting shares its days with nothing;
 * boarding and day care share them with other boarding and day care while, on each day, the pets stay within
 * the sitter's limit. Read in the caller's transaction when it decides a write (writes are serialised on both
 * engines); outside one it only suggests a date.
 */
export async function stayFits(
  trx: Kysely<Database>,
  sitter: StaySitter,
  stay: { id: string; service: string; start_at: string; end_at: string; pets: number },
): Promise<boolean> {
  const overlapping = await trx
    .selectFrom("bookings")
    .leftJoin("booking_pets", "booking_pets.booking_id", "bookings.id")
    .select(["bookings.id", "bookings.service_type", "bookings.start_at", "bookings.end_at"])
    .select((eb) => eb.fn.count<number>("booking_pets.position").as("pets"))
    .where("bookings.sitter_id", "=", sitter.id)
    .where("bookings.status", "in", ["confirmed", "in-progress"])
    .where("bookings.id", "!=", stay.id)
    .where("bookings.start_at", "<", stay.end_at)
    .where("bookings.end_at", ">", stay.start_at)
    .groupBy(["bookings.id", "bookings.service_type", "bookings.start_at", "bookings.end_at"])
    .execute();
  if (overlapping.length === 0) return stay.pets <= sitter.max_pets;
  if (!sharesDays(stay.service)) return false;
  const shared = overlapping.filter((other) => sharesDays(other.service_type));
  if (shared.length !== overlapping.length) return false;
  // The pets present on each day of this stay, counted by the days each other stay touches.
  const dayIn = (iso: string) => wallClockIn(sitter.time_zone, new Date(iso)).day;
  for (const day of daysOf(dayIn(stay.start_at), dayIn(stay.end_at))) {
    const present = shared
      .filter((other) => dayIn(other.start_at) <= day && dayIn(other.end_at) >= day)
      .reduce((sum, other) => sum + Number(other.pets), 0);
    if (present + stay.pets > sitter.max_pets) return false;
  }
  return true;
}

/** A stay being accepted: does it still fit? (the machine's accept, in its transaction) */
export async function acceptedStayFits(trx: Transaction<Database>, booking: Booking): Promise<boolean> {
  const sitter = await trx
    .selectFrom("users")
    .select(["id", "time_zone", "max_pets"])
    .where("id", "=", booking.sitter_id)
    .executeTakeFirstOrThrow();
  const pets = await trx
    .selectFrom("booking_pets")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("booking_id", "=", booking.id)
    .executeTakeFirstOrThrow();
  return stayFits(trx, sitter, { ...booking, service: booking.service_type, pets: Number(pets.n) || 1 });
}
