import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { CareSeries, Database, SeriesService } from "~db/schema";
import { db, lockPeople, lockedForDecision } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { instantAt, wallClockIn } from "~/platform/time";
import { notify } from "~/features/notifications/index.server";
import { isOwner, isSitter } from "~/features/profiles/index.server";
import { mayReach } from "~/features/safety/index.server";
import { ensureConversation } from "~/features/messages/index.server";
import { isFreeOnDays, startTimesOn } from "~/features/availability/index.server";
import { paymentProvider, paysOutThroughStripe } from "~/features/payments/index.server";
import { applyEvent, hasPaymentWork, ownersPets, runPaymentTasks, stayFits } from "~/features/bookings/index.server";
import { seriesEmail } from "./emails.server";
import { generateFor } from "./generator.server";
import { defaultCardOf, schedulesOf } from "./reads.server";
import {
  decideSeries,
  isCalendarDay,
  proposalProblem,
  scheduleOn,
  storeWeekdays,
  type SeriesActor,
  type SeriesDecision,
  type SeriesEvent,
  type SeriesRefusal,
  type Side,
} from "./machine";

export interface SeriesRequestInput {
  /** Made by the request form, so sending it twice asks once. */
  id: string;
  sitterId: string;
  service: SeriesService;
  petIds: string[];
  /** The first date, and the time on each date (the sitter's wall clock): for day care, the drop-off. */
  day: string;
  startTime: string;
  /** Day care's pick-up on each date. */
  endTime?: string;
  weekdays: number[];
  lastDay: string | null;
  notes: string;
}

export type SeriesRequestRefusal =
  | SeriesRefusal
  | "sitterNotFound"
  | "serviceNotOffered"
  | "sitterNotPayable"
  | "notFreeThen"
  | "pickUpBeforeDropOff"
  | "noCard"
  | "duplicate"
  | "noPets"
  | "tooManyPets"
  | "samePetTwice"
  | "petNotFound";

export type SeriesOutcome =
  { ok: true; series: CareSeries } | { ok: false; refusal: SeriesRequestRefusal | "notFound" };

/** The card weekly care would be paid with, as the request page names it. */
export async function seriesCardLabel(ownerId: string): Promise<string | null> {
  const card = await defaultCardOf(ownerId);
  return card ? `${card.brand} •••• ${card.last4}` : null;
}

export async function requestSeries(
  owner: { id: string; role: Database["users"]["role"] },
  input: SeriesRequestInput,
): Promise<SeriesOutcome> {
  if (!isOwner(owner.role)) return { ok: false, refusal: "notYours" };
  if (input.sitterId === owner.id) return { ok: false, refusal: "sitterNotFound" };
  const sitter = await db
    .selectFrom("users")
    .select(["id", "role", "time_zone", "cancellation_policy", "max_pets", "extra_pet_cents"])
    .select(["stripe_account_id", "payouts_enabled"])
    .where("id", "=", input.sitterId)
    .where("email_verified_at", "is not", null)
    .executeTakeFirst();
  if (!sitter || !isSitter(sitter.role) || !(await mayReach(owner.id, sitter.id)))
    return { ok: false, refusal: "sitterNotFound" };
  const offer = await db
    .selectFrom("sitter_services")
    .select(["price_cents", "duration_minutes"])
    .where("sitter_id", "=", sitter.id)
    .where("service", "=", input.service)
    .executeTakeFirst();
  if (!offer) return { ok: false, refusal: "serviceNotOffered" };
  if (paysOutThroughStripe(paymentProvider()) && (!sitter.stripe_account_id || !sitter.payouts_enabled))
    return { ok: false, refusal: "sitterNotPayable" };
  const today = wallClockIn(sitter.time_zone, now()).day;
  const problem = proposalProblem({ fromDay: input.day, weekdays: input.weekdays, startTime: input.startTime }, today);
  if (problem) return { ok: false, refusal: problem };
  if (input.lastDay !== null && (!isCalendarDay(input.lastDay) || input.lastDay < input.day))
    return { ok: false, refusal: "lastBeforeFirst" };
  // The first date is asked like a single walk or day of day care: the sitter must be free then (and for day care
  // have room); accepting commits them to the rest.
  const minutes = await lengthOf(sitter, offer, input);
  if (minutes === "pickUpBeforeDropOff" || minutes === "notFreeThen") return { ok: false, refusal: minutes };
  const card = await defaultCardOf(owner.id);
  if (!card) return { ok: false, refusal: "noCard" };

  const outcome = await db.transaction().execute(async (trx): Promise<SeriesOutcome> => {
    await lockPeople(trx, sitter.id);
    const existing = await trx.selectFrom("care_series").selectAll().where("id", "=", input.id).executeTakeFirst();
    if (existing)
      return existing.owner_id === owner.id ? { ok: true, series: existing } : { ok: false, refusal: "duplicate" };
    const pets = await ownersPets(trx, owner, input.petIds, sitter.max_pets);
    if ("refusal" in pets) return { ok: false, refusal: pets.refusal };
    const stamp = now().toISOString();
    const series = await trx
      .insertInto("care_series")
      .values({
        id: input.id,
        owner_id: owner.id,
        sitter_id: sitter.id,
        service: input.service,
        minutes,
        price_cents: offer.price_cents,
        extra_pet_cents: sitter.extra_pet_cents,
        cancellation_policy: sitter.cancellation_policy,
        time_zone: sitter.time_zone,
        first_day: input.day,
        last_day: input.lastDay,
        notes: input.notes,
        status: "requested",
        ended_by: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("care_series_schedules")
      .values({
        id: randomUUID(),
        series_id: series.id,
        from_day: input.day,
        weekdays: storeWeekdays(input.weekdays),
        start_time: input.startTime,
        status: "proposed",
        proposed_by: "owner",
        created_at: stamp,
        answered_at: null,
      })
      .execute();
    await trx
      .insertInto("care_series_pets")
      .values(pets.map((pet, position) => ({ series_id: series.id, position, pet_id: pet.id, pet_name: pet.name })))
      .execute();
    await ensureConversation(owner.id, sitter.id, trx);
    await tell(trx, series, [{ to: "sitter", notice: "requested" }]);
    return { ok: true, series };
  });
  if (outcome.ok) deliverSoon();
  return outcome;
}

/** A walk's or visit's length, or day care's from drop-off to pick-up, once the first date is found free. */
async function lengthOf(
  sitter: { id: string; time_zone: string; max_pets: number },
  offer: { duration_minutes: number | null },
  input: SeriesRequestInput,
): Promise<number | "pickUpBeforeDropOff" | "notFreeThen"> {
  if (input.service !== "day_care") {
    const times = await startTimesOn(sitter.id, sitter.time_zone, input.day);
    return times.some((free) => free.time === input.startTime) ? (offer.duration_minutes ?? 30) : "notFreeThen";
  }
  const start = instantAt(sitter.time_zone, input.day, input.startTime);
  const end = instantAt(sitter.time_zone, input.day, input.endTime ?? "");
  if (Number.isNaN(end.getTime()) || end <= start) return "pickUpBeforeDropOff";
  const stay = { id: input.id, service: "day_care", start_at: start.toISOString(), end_at: end.toISOString() };
  const free =
    start > now() &&
    (await isFreeOnDays(db, sitter.id, [input.day])) &&
    (await stayFits(db, sitter, { ...stay, pets: input.petIds.length }));
  return free ? Math.round((end.getTime() - start.getTime()) / 60_000) : "notFreeThen";
}

/** The occurrences of a series that have not ended or begun, from a day on. */
const liveOccurrencesFrom = (trx: Kysely<Database>, seriesId: string, fromDay: string) =>
  trx
    .selectFrom("bookings")
    .select(["id", "series_day", "start_at"])
    .where("series_id", "=", seriesId)
    .where("series_day", ">=", fromDay)
    .where("status", "in", ["requested", "confirmed"])
    .where("start_at", ">", now().toISOString())
    .execute();

/** A series read for a decision: its sitter locked first, as every booking decision does, then its own row. */
async function lockedSeries(trx: Transaction<Database>, id: string): Promise<CareSeries | undefined> {
  const seen = await trx.selectFrom("care_series").select("sitter_id").where("id", "=", id).executeTakeFirst();
  if (!seen) return undefined;
  await lockPeople(trx, seen.sitter_id);
  return trx.selectFrom("care_series").selectAll().where("id", "=", id).$call(lockedForDecision).executeTakeFirst();
}

/** An answer, a skip, a change or an end by one of the two people; anyone else finds nothing. */
export async function actOnSeries(user: { id: string }, id: string, event: SeriesEvent): Promise<SeriesOutcome> {
  const outcome = await db.transaction().execute(async (trx) => {
    const series = await lockedSeries(trx, id);
    if (!series || (series.owner_id !== user.id && series.sitter_id !== user.id))
      return { result: { ok: false, refusal: "notFound" } as SeriesOutcome, tasks: [] as string[] };
    const side: Side = series.owner_id === user.id ? "owner" : "sitter";
    if (!(await mayReach(user.id, side === "owner" ? series.sitter_id : series.owner_id, trx)))
      return { result: { ok: false, refusal: "notFound" } as SeriesOutcome, tasks: [] };
    return apply(trx, series, { side, userId: user.id }, event);
  });
  await runPaymentTasks(outcome.tasks);
  if (outcome.result.ok) {
    deliverSoon();
    if (event.type === "accept" || event.type === "accept-change") await generateFor(outcome.result.series);
  }
  return outcome.result;
}

async function apply(
  trx: Transaction<Database>,
  series: CareSeries,
  actor: SeriesActor,
  event: SeriesEvent,
): Promise<{ result: SeriesOutcome; tasks: string[] }> {
  const at = now();
  const today = wallClockIn(series.time_zone, at).day;
  const schedules = await schedulesOf(trx, series.id);
  const pending = schedules.find((schedule) => schedule.status === "proposed") ?? null;
  let skipped = false;
  let started = false;
  let dayBooking: { id: string; status: string } | undefined;
  if (event.type === "skip" && isCalendarDay(event.day)) {
    const schedule = scheduleOn(schedules, event.day);
    started = !schedule || instantAt(series.time_zone, event.day, schedule.start_time) <= at;
    dayBooking = await trx
      .selectFrom("bookings")
      .select(["id", "status"])
      .where("series_id", "=", series.id)
      .where("series_day", "=", event.day)
      .where("series_schedule_id", "=", schedule?.id ?? "")
      .executeTakeFirst();
    const skip = await trx
      .selectFrom("care_series_skips")
      .select("day")
      .where("series_id", "=", series.id)
      .where("day", "=", event.day)
      .executeTakeFirst();
    skipped = Boolean(skip) || (dayBooking !== undefined && dayBooking.status === "cancelled");
  }
  const decision = decideSeries(series, actor, event, { today, schedules, pending, skipped, started });
  if (!decision.ok) return { result: decision, tasks: [] };
  const change = decision.change;
  const stamp = at.toISOString();
  const tasks: string[] = [];

  const updated = await trx
    .updateTable("care_series")
    .set({
      updated_at: stamp,
      ...(change.status ? { status: change.status } : {}),
      ...(change.status === "ended" ? { ended_by: actor.side } : {}),
      ...(change.lastDay ? { last_day: change.lastDay } : {}),
    })
    .where("id", "=", series.id)
    // Only from the state the decision was made on: two answers at once change it once.
    .where("updated_at", "=", series.updated_at)
    .returningAll()
    .executeTakeFirst();
  if (!updated) return { result: { ok: false, refusal: "wrongState" }, tasks };
  if (change.schedule)
    await trx
      .updateTable("care_series_schedules")
      .set({ status: change.schedule.status, answered_at: stamp })
      .where("id", "=", change.schedule.id)
      .execute();
  if (change.newSchedule)
    await trx
      .insertInto("care_series_schedules")
      .values({
        id: randomUUID(),
        series_id: series.id,
        from_day: change.newSchedule.fromDay,
        weekdays: storeWeekdays(change.newSchedule.weekdays),
        start_time: change.newSchedule.startTime,
        status: "proposed",
        proposed_by: actor.side,
        created_at: stamp,
        answered_at: null,
      })
      .execute();

  // A booking already made for a date that is skipped or no longer planned ends through the booking machine: the
  // owner's skip or end under the cancellation policy, the sitter's in full, a change in full.
  const endOccurrence = async (bookingId: string, reason: string) => {
    const bookingEvent =
      reason === "seriesChanged"
        ? ({ type: "series-changed" } as const)
        : actor.side === "owner"
          ? ({ type: "cancel", reason } as const)
          : ({ type: "sitter-cancel", reason } as const);
    const ended = await applyEvent(
      trx,
      bookingId,
      reason === "seriesChanged" ? { kind: "system" } : { kind: actor.side, userId: actor.userId },
      bookingEvent,
    );
    if (ended.ok && hasPaymentWork(ended.booking)) tasks.push(bookingId);
  };
  if (change.skip) {
    await trx
      .insertInto("care_series_skips")
      .values({ series_id: series.id, day: change.skip, skipped_by: actor.side, created_at: stamp })
      .execute();
    if (dayBooking && dayBooking.status !== "cancelled") await endOccurrence(dayBooking.id, "skipped");
  }
  if (change.status === "ended")
    for (const occurrence of await liveOccurrencesFrom(trx, series.id, today))
      await endOccurrence(occurrence.id, "seriesEnded");
  if (event.type === "accept-change" && change.schedule) {
    const fromDay = pending!.from_day;
    for (const occurrence of await liveOccurrencesFrom(trx, series.id, fromDay))
      await endOccurrence(occurrence.id, "seriesChanged");
  }
  await tell(trx, updated, change.notify);
  return { result: { ok: true, series: updated }, tasks };
}

async function tell(trx: Kysely<Database>, series: CareSeries, notices: SeriesDecision["notify"]) {
  if (notices.length === 0) return;
  const people = await trx
    .selectFrom("users")
    .select(["id", "name", "email", "language", "time_zone"])
    .where("id", "in", [series.owner_id, series.sitter_id])
    .execute();
  const personOf = (side: Side) =>
    people.find((person) => person.id === (side === "owner" ? series.owner_id : series.sitter_id))!;
  for (const { to, notice, day } of notices) {
    const reader = personOf(to);
    const other = personOf(to === "owner" ? "sitter" : "owner");
    await notify(
      {
        userId: reader.id,
        type: "booking_status_update",
        // The day at noon UTC: the notice names that calendar day in any reader's time zone.
        data: { kind: `series_${notice}`, name: other.name, ...(day ? { date: `${day}T12:00:00Z` } : {}) },
        link: `/series/${series.id}`,
      },
      trx,
    );
    await enqueueEmail(await seriesEmail(reader, notice, { other: other.name, seriesId: series.id, day }), trx);
  }
}

const FIELD_OF: Partial<Record<string, string>> = {
  pickUpBeforeDropOff: "pickUp",
  noWeekday: "weekdays",
  firstDayNotChosen: "weekdays",
  tooFar: "weekdays",
  lastBeforeFirst: "until",
  notFreeThen: "startTime",
  noPets: "petIds",
  tooManyPets: "petIds",
  samePetTwice: "petIds",
  petNotFound: "petIds",
};
const BOOKING_WORDS = new Set(["tooManyPets", "samePetTwice", "petNotFound", "sitterNotFound", "sitterNotPayable"]);

/** A refused request as its form (the walk page's, or for day care the stay page's) shows it: under its field, or above. */
export function seriesRefusalReply(refusal: SeriesRequestRefusal | "notFound", page: "walk" | "stay" = "walk") {
  if (page === "stay" && refusal === "notFreeThen") return { fieldErrors: { firstDay: ["series:errors.noRoomThen"] } };
  const message =
    refusal === "noPets"
      ? "bookings:errors.petRequired"
      : BOOKING_WORDS.has(refusal)
        ? `bookings:errors.${refusal}`
        : `series:errors.${refusal === "notFound" || refusal === "notYours" || refusal === "duplicate" ? "wrongState" : refusal}`;
  const field = FIELD_OF[refusal];
  return field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] };
}

const CHANGE_FIELD_OF: Partial<Record<string, string>> = {
  noWeekday: "weekdays",
  firstDayNotChosen: "weekdays",
  pastDay: "fromDay",
  tooFar: "fromDay",
};

/** A refused change of days or time, under the field it concerns or above the form. */
export function changeRefusalReply(refusal: SeriesRequestRefusal | "notFound") {
  const message = `series:errors.${refusal === "notFound" || refusal === "notYours" || refusal === "duplicate" ? "wrongState" : refusal}`;
  const field = CHANGE_FIELD_OF[refusal];
  return field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] };
}
