import type { Booking, CancellationPolicy, Database } from "~db/schema";
import { db, lockPeople } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { instantAt, wallClockIn } from "~/platform/time";
import { ensureConversation } from "~/features/messages/index.server";
import { listPets } from "~/features/pets/index.server";
import { isOwner, isSitter } from "~/features/profiles/index.server";
import { isStayService, type StayService } from "~/features/profiles";
import { paymentProvider, paysOutThroughStripe } from "~/features/payments/index.server";
import type { PaymentProvider } from "~/features/payments";
import { isFreeOnDays } from "~/features/availability/index.server";
import { mayReach } from "~/features/safety/index.server";
import { applyEvent, findBooking } from "./bookings.server";
import { MAX_STAY_UNITS, paymentModeFor, priceOf } from "./machine";
import { ownersPets, type PetRefusal } from "./booked-pets.server";
import { dayAfter, daysOf, stayFits, stayUnits } from "./stay-capacity.server";
import { nextStayStart, repeatOf } from "./book-again.server";

/*
 * Stays: house sitting (at the owner's home, per night), boarding (at the sitter's, per night) and day care
 * (at the sitter's, per day), from a first day's drop-off to a last day's pick-up in the sitter's time zone.
 * A confirmed house sitting takes the sitter's whole days; boarding and day care take pets up to the
 * sitter's "most pets at once" on each day, across every stay that overlaps.
 */

export interface StayInput {
  /** Made by the request form, so sending the same form twice makes one booking. */
  id: string;
  sitterId: string;
  service: StayService;
  petIds: string[];
  firstDay: string;
  dropOff: string;
  lastDay: string;
  pickUp: string;
  notes: string;
  cancellationPolicy?: CancellationPolicy;
}

export type StayRefusal =
  | "sitterNotFound"
  | "sitterNotPayable"
  | "self"
  | "serviceNotOffered"
  | PetRefusal
  | "past"
  | "endBeforeStart"
  | "tooLong"
  | "dayNotFree"
  | "full"
  | "duplicate"
  | "policyChanged";

export type StayResult = { status: "created"; booking: Booking } | { status: "refused"; reason: StayRefusal };

export async function requestStay(
  owner: { id: string; role: Database["users"]["role"] },
  input: StayInput,
  provider: PaymentProvider = paymentProvider(),
): Promise<StayResult> {
  if (input.sitterId === owner.id) return { status: "refused", reason: "self" };
  return db.transaction().execute(async (trx): Promise<StayResult> => {
    // Requests to one sitter take turns: each reads the calendar the one before it may have changed.
    await lockPeople(trx, input.sitterId);
    const existing = await findBooking(input.id, trx);
    if (existing)
      return existing.owner_id === owner.id && existing.sitter_id === input.sitterId
        ? { status: "created", booking: existing }
        : { status: "refused", reason: "duplicate" };
    const sitter = await trx
      .selectFrom("users")
      .select([
        "id",
        "role",
        "time_zone",
        "stripe_account_id",
        "payouts_enabled",
        "cancellation_policy",
        "max_pets",
        "extra_pet_cents",
      ])
      .where("id", "=", input.sitterId)
      .where("email_verified_at", "is not", null)
      .executeTakeFirst();
    if (!sitter || !isSitter(sitter.role) || !(await mayReach(owner.id, sitter.id, trx)))
      return { status: "refused", reason: "sitterNotFound" };
    if (input.cancellationPolicy && input.cancellationPolicy !== sitter.cancellation_policy)
      return { status: "refused", reason: "policyChanged" };
    if (paysOutThroughStripe(provider) && (!sitter.stripe_account_id || !sitter.payouts_enabled))
      return { status: "refused", reason: "sitterNotPayable" };
    const offer = await trx
      .selectFrom("sitter_services")
      .select("price_cents")
      .where("sitter_id", "=", sitter.id)
      .where("service", "=", input.service)
      .executeTakeFirst();
    if (!offer) return { status: "refused", reason: "serviceNotOffered" };
    const pets = await ownersPets(trx, owner, input.petIds, sitter.max_pets);
    if ("refusal" in pets) return { status: "refused", reason: pets.refusal };

    const start = instantAt(sitter.time_zone, input.firstDay, input.dropOff);
    const end = instantAt(sitter.time_zone, input.lastDay, input.pickUp);
    if (Number.isNaN(start.getTime()) || start <= now()) return { status: "refused", reason: "past" };
    const units = stayUnits(input.service, input.firstDay, input.lastDay);
    if (Number.isNaN(end.getTime()) || end <= start || units === null)
      return { status: "refused", reason: "endBeforeStart" };
    if (units > MAX_STAY_UNITS) return { status: "refused", reason: "tooLong" };
    if (!(await isFreeOnDays(trx, sitter.id, daysOf(input.firstDay, input.lastDay))))
      return { status: "refused", reason: "dayNotFree" };
    const times = { id: input.id, start_at: start.toISOString(), end_at: end.toISOString() };
    if (!(await stayFits(trx, sitter, { ...times, service: input.service, pets: pets.length })))
      return { status: "refused", reason: "full" };

    const created = await applyEvent(
      trx,
      input.id,
      { kind: "owner", userId: owner.id },
      {
        type: "requested",
        booking: {
          ...times,
          owner_id: owner.id,
          sitter_id: sitter.id,
          service_type: input.service,
          pet_id: pets[0]!.id,
          pet_name: pets[0]!.name,
          notes: input.notes,
          hours: units,
          hourly_rate_cents: offer.price_cents,
          extra_pet_cents: sitter.extra_pet_cents,
          payment_provider: provider.name,
          cancellation_policy: sitter.cancellation_policy,
        },
        pets,
      },
    );
    if (!created.ok) return { status: "refused", reason: created.refusal === "alreadyStarted" ? "past" : "duplicate" };
    await ensureConversation(owner.id, sitter.id, trx);
    return { status: "created", booking: created.booking };
  });
}

/** Drop-off and pick-up times offered, on the half hour from 07:00 to 21:00. */
export const STAY_TIMES = Array.from({ length: 29 }, (_, i) => {
  const minutes = 7 * 60 + i * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
});

/** The stay request page: the sitter's stays and prices, the owner's pets. Null: nothing to show this person. */
export async function stayPage(
  user: { id: string; role: Database["users"]["role"] },
  sitterId: string,
  asked: { service?: string | null; firstDay?: string | null; lastDay?: string | null; again?: string | null },
) {
  const sitter = await db
    .selectFrom("users")
    .select(["id", "name", "role", "time_zone", "cancellation_policy", "max_pets", "extra_pet_cents"])
    .where("id", "=", sitterId)
    .where("email_verified_at", "is not", null)
    .executeTakeFirst();
  if (!sitter || !isSitter(sitter.role) || sitter.id === user.id || !(await mayReach(user.id, sitter.id))) return null;
  const offers = await db
    .selectFrom("sitter_services")
    .select(["service", "price_cents"])
    .where("sitter_id", "=", sitter.id)
    .execute();
  const services = offers.filter((offer) => isStayService(offer.service));
  if (services.length === 0) return null;
  const pets = isOwner(user.role) ? await listPets(user.id) : [];
  const today = wallClockIn(sitter.time_zone, now()).day;
  const isDay = (value: string | null | undefined) => !!value && /^\d{4}-\d{2}-\d{2}$/.test(value) && value >= today;
  const repeat = await repeatOf(user.id, sitter, asked.again);
  const again = repeat && services.some((offer) => offer.service === repeat.service) ? repeat : null;
  const service =
    services.find((offer) => offer.service === (asked.service ?? again?.service))?.service ?? services[0]!.service;
  const againFrom = again ? await nextStayStart(sitter, service as StayService, again) : null;
  const inStayTimes = (time: string | undefined) => (time && STAY_TIMES.includes(time) ? time : undefined);
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
    services: services.map((offer) => ({ service: offer.service as StayService, priceCents: offer.price_cents })),
    service: service as StayService,
    pets: pets.map((pet) => ({ id: pet.id, name: pet.name, photo: pet.photos[0]?.cardUrl ?? null })),
    today,
    firstDay: isDay(asked.firstDay) ? asked.firstDay! : (againFrom ?? dayAfter(today, 1)),
    lastDay: isDay(asked.lastDay)
      ? asked.lastDay!
      : againFrom
        ? dayAfter(againFrom, again!.spanDays)
        : dayAfter(today, 2),
    times: STAY_TIMES,
    again: again
      ? { petIds: again.petIds, dropOff: inStayTimes(again.startTime), pickUp: inStayTimes(again.endTime) }
      : null,
  };
}

/** The price of a stay as the server charges it, for the request page's summary. */
export function stayPrice(priceCents: number, units: number, pets: number, extraPetCents: number) {
  return priceOf(priceCents, units, pets, extraPetCents);
}

/** Whether a stay would be charged at its start rather than held (shown on the request page). */
export const chargedAtStart = (endAt: Date) => paymentModeFor(endAt.toISOString(), now()) === "charge";

const STAY_REFUSALS: Record<
  StayRefusal,
  { field: "" | "petIds" | "service" | "firstDay" | "lastDay"; message: string }
> = {
  sitterNotFound: { field: "", message: "bookings:errors.sitterNotFound" },
  sitterNotPayable: { field: "", message: "bookings:errors.sitterNotPayable" },
  self: { field: "", message: "bookings:errors.self" },
  serviceNotOffered: { field: "service", message: "bookings:stay.errors.serviceNotOffered" },
  petNotFound: { field: "petIds", message: "bookings:errors.petNotFound" },
  noPets: { field: "petIds", message: "bookings:errors.petRequired" },
  tooManyPets: { field: "petIds", message: "bookings:errors.tooManyPets" },
  samePetTwice: { field: "petIds", message: "bookings:errors.samePetTwice" },
  past: { field: "firstDay", message: "bookings:errors.past" },
  endBeforeStart: { field: "lastDay", message: "bookings:stay.errors.endBeforeStart" },
  tooLong: { field: "lastDay", message: "bookings:stay.errors.tooLong" },
  dayNotFree: { field: "firstDay", message: "bookings:stay.errors.dayNotFree" },
  full: { field: "firstDay", message: "bookings:stay.errors.full" },
  duplicate: { field: "", message: "bookings:errors.stale" },
  policyChanged: { field: "", message: "bookings:errors.policyChanged" },
};

/** A refused stay as the form shows it: the message under its field, or above the form. */
export function stayRefusalReply(reason: StayRefusal) {
  const { field, message } = STAY_REFUSALS[reason];
  return field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] };
}
