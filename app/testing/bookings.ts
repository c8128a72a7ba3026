import { randomUUID } from "node:crypto";
import type { SlotStatus } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { instantAt, wallClockIn } from "~/platform/time";
import type { CardInput } from "~/features/payments";
import { checkout } from "~/features/subscriptions/index.server";
import { requestBooking } from "~/features/bookings/index.server";
import type { RequestInput } from "~/features/bookings/requests.server";
import { DAY } from "./clock";
import { person, petOf, type Person } from "./people";

export const CARDS = {
  ok: "4242424242424242",
  declined: "4000000000000002",
  noFunds: "4000000000009995",
  luhnInvalid: "4242424242424241",
} as const;

export const card = (number: string = CARDS.ok): CardInput => ({
  kind: "digits",
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: "123",
  name: "Olga",
});

export type Owner = Person & { petId: string };

export async function ownerWithPet(): Promise<Owner> {
  const owner = await person("owner");
  return { ...owner, petId: await petOf(owner.id) };
}

export async function slot(
  sitterId: string,
  start: Date,
  end: Date,
  status: SlotStatus = "available",
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("availability_slots")
    .values({
      id,
      sitter_id: sitterId,
      start_at: start.toISOString(),
      end_at: end.toISOString(),
      status,
      booking_id: null,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}

/** The sitter's calendar day `daysAhead` days from the app's now, in their time zone. */
export const dayAhead = (timeZone: string, daysAhead: number) =>
  wallClockIn(timeZone, new Date(now().getTime() + daysAhead * DAY)).day;

export const at = (who: { time_zone: string }, day: string, time: string) => instantAt(who.time_zone, day, time);

/** A sitter with one available slot, 09:00–17:00 tomorrow unless told otherwise. */
export async function sitterWithSlot(
  options: { daysAhead?: number; from?: string; to?: string; rateCents?: number } = {},
) {
  const who = await person("sitter", { rateCents: options.rateCents });
  const day = dayAhead(who.time_zone, options.daysAhead ?? 1);
  const slotId = await slot(who.id, at(who, day, options.from ?? "09:00"), at(who, day, options.to ?? "17:00"));
  return { ...who, day, slotId };
}

export function requestInput(
  sitterId: string,
  pets: string | string[],
  day: string,
  startTime: string,
  hours: number,
  id: string = randomUUID(),
): RequestInput {
  return { id, sitterId, petIds: [pets].flat(), day, startTime, hours, notes: "" };
}

/** A created request (throws when refused). */
export async function requested(owner: Owner, sitterOf: { id: string; day: string }, startTime = "10:00", hours = 2) {
  const result = await requestBooking(owner, requestInput(sitterOf.id, owner.petId, sitterOf.day, startTime, hours));
  if (result.status !== "created") throw new Error(`request refused: ${result.reason}`);
  return result.booking;
}

export const slotsOf = (sitterId: string) =>
  db
    .selectFrom("availability_slots")
    .select(["start_at", "end_at", "status", "booking_id"])
    .where("sitter_id", "=", sitterId)
    .orderBy("start_at")
    .execute();

export const paymentRow = (ref: string | null) =>
  db
    .selectFrom("test_payments")
    .selectAll()
    .where("ref", "=", ref ?? "")
    .executeTakeFirst();

export async function countPayments(kind: "card" | "hold", amountCents?: number): Promise<number> {
  let query = db
    .selectFrom("test_payments")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("kind", "=", kind);
  if (amountCents !== undefined) query = query.where("amount_cents", "=", amountCents);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

export const bookingsOf = (ownerId: string) =>
  db.selectFrom("bookings").selectAll().where("owner_id", "=", ownerId).execute();

export const bookingRow = (id: string) =>
  db.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** A monthly premium subscription paid with the test card, and that card, now saved. */
export async function premiumWithCard(who: {
  id: string;
  email: string;
}): Promise<{ subscriptionId: string; paymentMethodId: string }> {
  const subscribed = await checkout(who, "monthly", card(), randomUUID());
  if (subscribed.status !== "active") throw new Error(`checkout: ${subscribed.status}`);
  const paymentMethod = await db
    .selectFrom("payment_methods")
    .select("id")
    .where("user_id", "=", who.id)
    .executeTakeFirstOrThrow();
  return { subscriptionId: subscribed.subscription.id, paymentMethodId: paymentMethod.id };
}
