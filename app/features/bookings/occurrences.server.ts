import type { Transaction } from "kysely";
import type { Booking, CancellationPolicy, Database } from "~db/schema";
import { lockPeople } from "~/platform/db.server";
import { bookSlot, isFreeOnDays } from "~/features/availability/index.server";
import { paymentProvider } from "~/features/payments/index.server";
import { applyEvent } from "./bookings.server";
import type { BookedPet, SavedCardRef } from "./machine";
import type { WalkService } from "./walks.server";
import { stayFits } from "./stay-capacity.server";

/** One date of a weekly series, as the series feature hands it over. */
export interface OccurrenceInput {
  id: string;
  seriesId: string;
  scheduleId: string;
  /** The sitter's calendar day. */
  day: string;
  ownerId: string;
  sitterId: string;
  service: WalkService | "day_care";
  startAt: Date;
  minutes: number;
  priceCents: number;
  extraPetCents: number;
  policy: CancellationPolicy;
  notes: string;
  pets: BookedPet[];
  card: SavedCardRef | null;
}

/**
 * Makes one occurrence of a series through the booking machine, in the caller's transaction, unless the series
 * already has one for that day and schedule. The sitter is not free when the day is marked not free or another
 * confirmed booking overlaps (for day care: when the day has no room, as for any stay); a free slot of their
 * calendar that covers a walk's or visit's time is taken, as an accepted request takes it.
 */
export async function makeOccurrence(trx: Transaction<Database>, input: OccurrenceInput): Promise<Booking | null> {
  await lockPeople(trx, input.sitterId);
  const existing = await trx
    .selectFrom("bookings")
    .select("id")
    .where("series_id", "=", input.seriesId)
    .where("series_day", "=", input.day)
    .where("series_schedule_id", "=", input.scheduleId)
    .executeTakeFirst();
  if (existing) return null;
  const startAt = input.startAt.toISOString();
  const endAt = new Date(input.startAt.getTime() + input.minutes * 60_000).toISOString();
  const sitterFree =
    (await isFreeOnDays(trx, input.sitterId, [input.day])) && (await hasRoom(trx, input, startAt, endAt));
  const made = await applyEvent(
    trx,
    input.id,
    { kind: "system" },
    {
      type: "occurrence",
      booking: {
        id: input.id,
        owner_id: input.ownerId,
        sitter_id: input.sitterId,
        pet_id: input.pets[0]?.id ?? null,
        pet_name: input.pets[0]?.name ?? "",
        notes: input.notes,
        start_at: startAt,
        end_at: endAt,
        service_type: input.service,
        hours: 1,
        hourly_rate_cents: input.priceCents,
        extra_pet_cents: input.extraPetCents,
        payment_provider: paymentProvider().name,
        cancellation_policy: input.policy,
        series_id: input.seriesId,
        series_day: input.day,
        series_schedule_id: input.scheduleId,
      },
      pets: input.pets,
      card: input.card,
      sitterFree,
    },
  );
  if (!made.ok) return null;
  if (made.booking.status === "confirmed" && input.service !== "day_care") await bookSlot(trx, made.booking);
  return made.booking;
}

async function hasRoom(trx: Transaction<Database>, input: OccurrenceInput, startAt: string, endAt: string) {
  if (input.service === "day_care") {
    const sitter = await trx
      .selectFrom("users")
      .select(["id", "time_zone", "max_pets"])
      .where("id", "=", input.sitterId)
      .executeTakeFirstOrThrow();
    const stay = { id: input.id, service: "day_care", start_at: startAt, end_at: endAt, pets: input.pets.length };
    return stayFits(trx, sitter, stay);
  }
  const clash = await trx
    .selectFrom("bookings")
    .select("id")
    .where("sitter_id", "=", input.sitterId)
    .where("status", "in", ["confirmed", "in-progress"])
    .where("start_at", "<", endAt)
    .where("end_at", ">", startAt)
    .executeTakeFirst();
  return !clash;
}
