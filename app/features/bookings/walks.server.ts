import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { dateTimeFormat } from "~/platform/format";
import { wallClockIn } from "~/platform/time";
import { listPets } from "~/features/pets/index.server";
import { isOwner, isSitter } from "~/features/profiles/index.server";
import { startTimesByDay, startTimesOn } from "~/features/availability/index.server";
import { mayReach } from "~/features/safety/index.server";
import { nextDayAt, prefillOf, repeatOf } from "./book-again.server";

/*
 * Walks and drop-in visits: booked like pet sitting by the hour (a start time on a day of the sitter's free
 * time, through requestBooking), each one walk or visit of the length the sitter set, priced per walk or visit.
 */

export type WalkService = "walk" | "drop_in";
export const isWalkService = (value: unknown): value is WalkService => value === "walk" || value === "drop_in";

const QUICK_CHOICE_DAYS = 14;

/** The walk and visit request page: the sitter's offers, the owner's pets, a day's start times. Null: nothing to show. */
export async function walkPage(
  user: { id: string; role: Database["users"]["role"] },
  sitterId: string,
  asked: { service?: string | null; day?: string | null; again?: string | null },
  language: string,
) {
  const sitter = await db
    .selectFrom("users")
    .select(["id", "name", "role", "time_zone", "cancellation_policy", "max_pets", "extra_pet_cents"])
    .where("id", "=", sitterId)
    .where("email_verified_at", "is not", null)
    .executeTakeFirst();
  if (!sitter || !isSitter(sitter.role) || sitter.id === user.id || !(await mayReach(user.id, sitter.id))) return null;
  const offers = (
    await db
      .selectFrom("sitter_services")
      .select(["service", "price_cents", "duration_minutes"])
      .where("sitter_id", "=", sitter.id)
      .where("service", "in", ["walk", "drop_in"])
      .orderBy("service", "desc")
      .execute()
  ).map((offer) => ({
    service: offer.service as WalkService,
    priceCents: offer.price_cents,
    minutes: offer.duration_minutes ?? 30,
  }));
  if (offers.length === 0) return null;
  const today = wallClockIn(sitter.time_zone, now()).day;
  const [pets, upcoming, repeat] = await Promise.all([
    isOwner(user.role) ? listPets(user.id) : [],
    startTimesByDay(sitter.id, sitter.time_zone, today, QUICK_CHOICE_DAYS),
    repeatOf(user.id, sitter, asked.again),
  ]);
  const freeDays = [...upcoming.keys()].sort();
  const again = repeat && offers.some((offer) => offer.service === repeat.service) ? repeat : null;
  const day =
    asked.day && /^\d{4}-\d{2}-\d{2}$/.test(asked.day) && asked.day >= today
      ? asked.day
      : ((again ? nextDayAt(upcoming, again.startTime) : freeDays[0]) ?? today);
  const times = upcoming.get(day) ?? (day > today ? await startTimesOn(sitter.id, sitter.time_zone, day) : []);
  const dayLabel = dateTimeFormat(language, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
  return {
    requestId: crypto.randomUUID(),
    sitter: {
      id: sitter.id,
      name: sitter.name,
      timeZone: sitter.time_zone,
      maxPets: sitter.max_pets,
      extraPetCents: sitter.extra_pet_cents,
      policy: sitter.cancellation_policy,
    },
    offers,
    service: offers.find((offer) => offer.service === (asked.service ?? again?.service))?.service ?? offers[0]!.service,
    pets: pets.map((pet) => ({ id: pet.id, name: pet.name, photo: pet.photos[0]?.cardUrl ?? null })),
    today,
    day,
    times,
    quickDays: freeDays.map((free) => ({ day: free, label: dayLabel.format(new Date(`${free}T12:00:00Z`)) })),
    again: again && asked.again ? prefillOf(asked.again, again, times) : null,
  };
}
