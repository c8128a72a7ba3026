import { randomUUID } from "node:crypto";
import type { CareSeries } from "~db/schema";
import { db, isUniqueViolation } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { deliverSoon } from "~/platform/email.server";
import { instantAt, wallClockIn } from "~/platform/time";
import { mayReach } from "~/features/safety/index.server";
import { listPets } from "~/features/pets/index.server";
import { makeOccurrence } from "~/features/bookings/index.server";
import { datesTaken, defaultCardOf, schedulesOf } from "./reads.server";
import { GENERATE_DAYS_AHEAD, addDays, datesBetween } from "./machine";

/**
 * Makes the occurrences of one active series due within the next GENERATE_DAYS_AHEAD days, each in a
 * transaction of its own. Idempotent: a date that has its occurrence (under the schedule it follows), or was
 * skipped, is left; the unique index on bookings refuses a second one made at the same moment elsewhere.
 */
export async function generateFor(series: CareSeries): Promise<number> {
  if (series.status !== "active") return 0;
  const at = now();
  const today = wallClockIn(series.time_zone, at).day;
  // Past its last date, or one of the two suspended, gone or blocking the other: it ends, nothing more is made.
  if ((series.last_day && series.last_day < today) || !(await mayReach(series.owner_id, series.sitter_id))) {
    await db
      .updateTable("care_series")
      .set({ status: "ended", ended_by: "system", updated_at: at.toISOString() })
      .where("id", "=", series.id)
      .where("status", "=", "active")
      .execute();
    return 0;
  }
  const schedules = await schedulesOf(db, series.id);
  const from = series.first_day > today ? series.first_day : today;
  const dates = datesBetween(series, schedules, from, addDays(today, GENERATE_DAYS_AHEAD));
  if (dates.length === 0) return 0;
  const { skipped, made } = await datesTaken(series.id, from);
  const done = new Set(made.map((row) => `${row.series_day}|${row.series_schedule_id}`));
  const due = dates.filter(
    ({ day, schedule }) =>
      !skipped.has(day) &&
      !done.has(`${day}|${schedule.id}`) &&
      instantAt(series.time_zone, day, schedule.start_time) > at,
  );
  if (due.length === 0) return 0;
  const pets = await petsOf(series);
  const card = await defaultCardOf(series.owner_id);
  let count = 0;
  for (const { day, schedule } of due) {
    try {
      const booking = await db.transaction().execute((trx) =>
        makeOccurrence(trx, {
          id: randomUUID(),
          seriesId: series.id,
          scheduleId: schedule.id,
          day,
          ownerId: series.owner_id,
          sitterId: series.sitter_id,
          service: series.service,
          startAt: instantAt(series.time_zone, day, schedule.start_time),
          minutes: series.minutes,
          priceCents: series.price_cents,
          extraPetCents: series.extra_pet_cents,
          policy: series.cancellation_policy,
          notes: series.notes,
          pets,
          card: card ? { cardRef: card.cardRef, cardLabel: card.cardLabel } : null,
        }),
      );
      if (booking) count += 1;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  if (count > 0) deliverSoon();
  return count;
}

/** The series' pets the owner still has, in their order. */
async function petsOf(series: CareSeries) {
  const [listed, owned] = await Promise.all([
    db
      .selectFrom("care_series_pets")
      .select(["pet_id", "pet_name"])
      .where("series_id", "=", series.id)
      .orderBy("position")
      .execute(),
    listPets(series.owner_id),
  ]);
  const names = new Map(owned.map((pet) => [pet.id, pet.name]));
  return listed.filter((pet) => names.has(pet.pet_id)).map((pet) => ({ id: pet.pet_id, name: names.get(pet.pet_id)! }));
}

/** The scheduler's round: every active series' occurrences of the coming week. */
export async function runDueSeriesWork(): Promise<number> {
  const active = await db.selectFrom("care_series").selectAll().where("status", "=", "active").execute();
  let made = 0;
  for (const series of active) made += await generateFor(series);
  return made;
}
