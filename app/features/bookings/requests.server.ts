import type { Kysely } from "kysely";
import type { Booking, CancellationPolicy, Database } from "~db/schema";
import { db, lockPeople } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { dateTimeFormat } from "~/platform/format";
import { instantAt, wallClockIn } from "~/platform/time";
import { ensureConversation } from "~/features/messages/index.server";
import { listPets } from "~/features/pets/index.server";
import { isOwner, isSitter } from "~/features/profiles/index.server";
import { paymentProvider, paysOutThroughStripe } from "~/features/payments/index.server";
import type { PaymentProvider } from "~/features/payments";
import { startTimesByDay, startTimesOn, coveringSlot, isFreeOnDays } from "~/features/availability/index.server";
import { mayReach } from "~/features/safety/index.server";
import { applyEvent, findBooking } from "./bookings.server";
import { termsText } from "./cancellation-terms";
import { ownersPets } from "./booked-pets.server";
import { nextDayAt, prefillOf, repeatOf } from "./book-again.server";

export interface RequestInput {
  /** Made by the request form, so sending the same form twice makes one booking. */
  id: string;
  sitterId: string;
  /** The owner's pets, in the order ticked; each after the first costs the sitter's extra-pet price. */
  petIds: string[];
  day: string;
  startTime: string;
  /** Hours of pet sitting by the hour; a walk or a drop-in visit is one, of the length the sitter set. */
  hours: number;
  notes: string;
  /** 'hourly' unless given; a walk or a drop-in visit is priced per walk or visit. */
  service?: ShortService;
  /** The policy shown to the owner; when given, it must still be the sitter's. */
  cancellationPolicy?: CancellationPolicy;
}

export type RequestResult =
  | { status: "created"; booking: Booking }
  | {
      status: "refused";
      reason:
        | "sitterNotFound"
        | "sitterNotPayable"
        | "self"
        | "petNotFound"
        | "noPets"
        | "tooManyPets"
        | "samePetTwice"
        | "past"
        | "outsideAvailability"
        | "dayNotFree"
        | "serviceNotOffered"
        | "duplicate"
        | "policyChanged";
    };

export async function requestBooking(
  owner: { id: string; role: Database["users"]["role"] },
  input: RequestInput,
  provider: PaymentProvider = paymentProvider(),
): Promise<RequestResult> {
  if (input.sitterId === owner.id) return { status: "refused", reason: "self" };
  return db.transaction().execute(async (trx): Promise<RequestResult> => {
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
        "hourly_rate_cents",
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
    if (!sitter || !isSitter(sitter.role)) return { status: "refused", reason: "sitterNotFound" };
    const service = input.service ?? "hourly";
    const priced = await pricedVisit(trx, sitter, service, input.hours);
    if (!priced) return { status: "refused", reason: service === "hourly" ? "sitterNotFound" : "serviceNotOffered" };
    // A suspended person, or a block either way: as if the sitter were not there.
    if (!(await mayReach(owner.id, sitter.id, trx))) return { status: "refused", reason: "sitterNotFound" };
    // With Stripe the sitter is paid through their connected account: no booking before it can receive money.
    if (input.cancellationPolicy && input.cancellationPolicy !== sitter.cancellation_policy)
      return { status: "refused", reason: "policyChanged" };
    if (paysOutThroughStripe(provider) && (!sitter.stripe_account_id || !sitter.payouts_enabled))
      return { status: "refused", reason: "sitterNotPayable" };
    const pets = await ownersPets(trx, owner, input.petIds, sitter.max_pets);
    if ("refusal" in pets) return { status: "refused", reason: pets.refusal };
    const booked = pets;

    const start = instantAt(sitter.time_zone, input.day, input.startTime);
    const end = new Date(start.getTime() + priced.minutes * 60_000);
    if (Number.isNaN(start.getTime()) || start <= now()) return { status: "refused", reason: "past" };
    if (!(await coveringSlot(trx, sitter.id, start.toISOString(), end.toISOString())))
      return { status: "refused", reason: "outsideAvailability" };
    if (!(await isFreeOnDays(trx, sitter.id, [input.day]))) return { status: "refused", reason: "dayNotFree" };

    const created = await applyEvent(
      trx,
      input.id,
      { kind: "owner", userId: owner.id },
      {
        type: "requested",
        booking: {
          id: input.id,
          owner_id: owner.id,
          sitter_id: sitter.id,
          pet_id: booked[0]!.id,
          pet_name: booked[0]!.name,
          notes: input.notes,
          start_at: start.toISOString(),
          end_at: end.toISOString(),
          service_type: service,
          hours: priced.units,
          hourly_rate_cents: priced.unitPriceCents,
          extra_pet_cents: sitter.extra_pet_cents,
          payment_provider: provider.name,
          // The policy the request page showed binds this booking, whatever the sitter chooses later.
          cancellation_policy: sitter.cancellation_policy,
        },
        pets: booked,
      },
    );
    if (!created.ok) return { status: "refused", reason: created.refusal === "alreadyStarted" ? "past" : "duplicate" };
    await ensureConversation(owner.id, sitter.id, trx);
    return { status: "created", booking: created.booking };
  });
}

/** The services booked like pet sitting by the hour: a start time on a day, from the sitter's free time. */
export type ShortService = "hourly" | "walk" | "drop_in";

/**
 * What one booking of a short service counts and costs: the hours at the hourly rate, or one walk or visit of
 * the sitter's length at its price. Null when the sitter does not offer it.
 */
async function pricedVisit(
  trx: Kysely<Database>,
  sitter: { id: string; hourly_rate_cents: number | null },
  service: ShortService,
  hours: number,
): Promise<{ units: number; unitPriceCents: number; minutes: number } | null> {
  if (service === "hourly")
    return sitter.hourly_rate_cents === null
      ? null
      : { units: hours, unitPriceCents: sitter.hourly_rate_cents, minutes: hours * 60 };
  const offer = await trx
    .selectFrom("sitter_services")
    .select(["price_cents", "duration_minutes"])
    .where("sitter_id", "=", sitter.id)
    .where("service", "=", service)
    .executeTakeFirst();
  return offer ? { units: 1, unitPriceCents: offer.price_cents, minutes: offer.duration_minutes ?? 30 } : null;
}

export async function bookableSitter(id: string) {
  const sitter = await db
    .selectFrom("users")
    .select([
      "id",
      "name",
      "role",
      "hourly_rate_cents",
      "time_zone",
      "cancellation_policy",
      "max_pets",
      "extra_pet_cents",
    ])
    .where("id", "=", id)
    .where("email_verified_at", "is not", null)
    .executeTakeFirst();
  if (!sitter || !isSitter(sitter.role) || sitter.hourly_rate_cents === null) return null;
  return {
    id: sitter.id,
    name: sitter.name,
    hourly_rate_cents: sitter.hourly_rate_cents,
    time_zone: sitter.time_zone,
    cancellation_policy: sitter.cancellation_policy,
    max_pets: sitter.max_pets,
    extra_pet_cents: sitter.extra_pet_cents,
  };
}

const QUICK_CHOICE_DAYS = 14;

export async function requestPage(
  user: { id: string; role: Database["users"]["role"]; time_zone?: string },
  sitterId: string,
  asked: string,
  language: string,
  /** A completed booking to book again: its pets, start time and hours prefilled for the next free day. */
  againId?: string | null,
) {
  const sitter = await bookableSitter(sitterId);
  if (!sitter || sitter.id === user.id || !(await mayReach(user.id, sitter.id))) return null;
  const today = wallClockIn(sitter.time_zone, now()).day;
  const [pets, upcoming, repeat] = await Promise.all([
    isOwner(user.role) ? listPets(user.id) : [],
    startTimesByDay(sitter.id, sitter.time_zone, today, QUICK_CHOICE_DAYS),
    repeatOf(user.id, sitter, againId),
  ]);
  const freeDays = [...upcoming.keys()].sort();
  const again = repeat?.service === "hourly" ? repeat : null;
  const day =
    /^\d{4}-\d{2}-\d{2}$/.test(asked) && asked >= today
      ? asked
      : ((again ? nextDayAt(upcoming, again.startTime) : freeDays[0]) ?? today);
  const times = upcoming.get(day) ?? (day > today ? await startTimesOn(sitter.id, sitter.time_zone, day) : []);
  // Each start time's deadline, in the owner's own time zone.
  const reader = { language, timeZone: user.time_zone ?? sitter.time_zone };
  const policy = sitter.cancellation_policy;
  const deadlines = times.map(({ time }) => ({
    time,
    terms: {
      ...termsText({ policy, startAt: instantAt(sitter.time_zone, day, time).toISOString(), totalCents: 0 }, reader),
      refund: null,
      lateRefund: null,
    },
  }));
  const dayLabel = dateTimeFormat(language, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
  return {
    requestId: crypto.randomUUID(),
    sitter: {
      id: sitter.id,
      name: sitter.name,
      rateCents: sitter.hourly_rate_cents,
      timeZone: sitter.time_zone,
      maxPets: sitter.max_pets,
      extraPetCents: sitter.extra_pet_cents,
    },
    policy: { name: policy, deadlines },
    pets: pets.map((pet) => ({ id: pet.id, name: pet.name, photo: pet.photos[0]?.cardUrl ?? null })),
    today,
    day,
    times,
    quickDays: freeDays.map((free) => ({ day: free, label: dayLabel.format(new Date(`${free}T12:00:00Z`)) })),
    again: again && againId ? prefillOf(againId, again, times) : null,
  };
}

type RequestRefusal = Extract<RequestResult, { status: "refused" }>["reason"];

const REQUEST_REFUSALS: Record<RequestRefusal, { field: "" | "petIds" | "startTime"; message: string }> = {
  sitterNotFound: { field: "", message: "bookings:errors.sitterNotFound" },
  sitterNotPayable: { field: "", message: "bookings:errors.sitterNotPayable" },
  self: { field: "", message: "bookings:errors.self" },
  petNotFound: { field: "petIds", message: "bookings:errors.petNotFound" },
  noPets: { field: "petIds", message: "bookings:errors.petRequired" },
  tooManyPets: { field: "petIds", message: "bookings:errors.tooManyPets" },
  samePetTwice: { field: "petIds", message: "bookings:errors.samePetTwice" },
  past: { field: "startTime", message: "bookings:errors.past" },
  outsideAvailability: { field: "startTime", message: "bookings:errors.outsideAvailability" },
  dayNotFree: { field: "startTime", message: "bookings:errors.dayNotFree" },
  serviceNotOffered: { field: "", message: "bookings:stay.errors.serviceNotOffered" },
  duplicate: { field: "", message: "bookings:errors.stale" },
  policyChanged: { field: "", message: "bookings:errors.policyChanged" },
};

/** A refused request as the form shows it: the message under its field, or above the form. */
export function requestRefusalReply(reason: RequestRefusal) {
  const { field, message } = REQUEST_REFUSALS[reason];
  return field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] };
}
