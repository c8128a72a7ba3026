import { randomUUID } from "node:crypto";
import type { Role, SlotStatus } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { instantAt, wallClockIn } from "~/platform/time";
import type { CardInput } from "~/features/payments";
import { checkout } from "~/features/subscriptions/index.server";
import { requestBooking, type RequestInput } from "./requests.server";

/** Shared helpers for the bookings tests: people, pets, slots, cards and counts, written straight to SQLite. */

export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

export const CARDS = {
  ok: "4242424242424242",
  declined: "4000000000000002",
  noFunds: "4000000000009995",
  luhnInvalid: "4242424242424241",
} as const;

export const card = (number: string = CARDS.ok): CardInput => ({ kind: "digits", number, expMonth: 12, expYear: 2030, cvc: "123", name: "Olga" });

export interface Person {
  id: string;
  email: string;
  role: Role;
  time_zone: string;
}

export async function person(role: Role, options: { timeZone?: string; rateCents?: number | null; verified?: boolean } = {}): Promise<Person> {
  const id = randomUUID();
  const at = new Date().toISOString();
  const timeZone = options.timeZone ?? "Europe/Madrid";
  const email = `${id}@example.com`;
  await db
    .insertInto("users")
    .values({
      id,
      email,
      password_hash: "x",
      email_verified_at: options.verified === false ? null : at,
      name: `${role} ${id.slice(0, 4)}`,
      phone: "600",
      city: "Madrid",
      postal_code: "28004",
      role,
      bio: "",
      time_zone: timeZone,
      hourly_rate_cents: role === "owner" ? null : options.rateCents === undefined ? 1500 : options.rateCents,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return { id, email, role, time_zone: timeZone };
}

export const sitter = (options: { timeZone?: string; rateCents?: number | null; verified?: boolean } = {}) => person("sitter", options);

export async function petOf(ownerId: string, name = "Rex"): Promise<string> {
  const id = randomUUID();
  const at = new Date().toISOString();
  await db.insertInto("pets").values({ id, owner_id: ownerId, name, pet_type: "dog", age: "3", temperament: "[]", energy_level: "medium", created_at: at, updated_at: at }).execute();
  return id;
}

/** An owner with a pet. */
export async function ownerWithPet(): Promise<Person & { petId: string }> {
  const owner = await person("owner");
  return { ...owner, petId: await petOf(owner.id) };
}

export async function slot(sitterId: string, start: Date, end: Date, status: SlotStatus = "available"): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("availability_slots")
    .values({ id, sitter_id: sitterId, start_at: start.toISOString(), end_at: end.toISOString(), status, booking_id: null, created_at: new Date().toISOString() })
    .execute();
  return id;
}

/** The sitter's calendar day `daysAhead` days from the app's now, in their time zone. */
export const dayAhead = (timeZone: string, daysAhead: number) => wallClockIn(timeZone, new Date(now().getTime() + daysAhead * DAY)).day;

/** A wall-clock time on a day in the sitter's zone, as an instant. */
export const at = (who: { time_zone: string }, day: string, time: string) => instantAt(who.time_zone, day, time);

/** A sitter with one available slot, by default 09:00–17:00 on the day after tomorrow-ish (`daysAhead` = 1 is tomorrow). */
export async function sitterWithSlot(options: { daysAhead?: number; from?: string; to?: string; rateCents?: number } = {}) {
  const who = await sitter({ rateCents: options.rateCents });
  const day = dayAhead(who.time_zone, options.daysAhead ?? 1);
  const slotId = await slot(who.id, at(who, day, options.from ?? "09:00"), at(who, day, options.to ?? "17:00"));
  return { ...who, day, slotId };
}

export function requestInput(sitterId: string, petId: string, day: string, startTime: string, hours: number, id: string = randomUUID()): RequestInput {
  return { id, sitterId, petId, day, startTime, hours, notes: "" };
}

/** A created request (throws when refused). */
export async function requested(owner: Person & { petId: string }, sitterOf: { id: string; day: string }, startTime = "10:00", hours = 2) {
  const result = await requestBooking(owner, requestInput(sitterOf.id, owner.petId, sitterOf.day, startTime, hours));
  if (result.status !== "created") throw new Error(`request refused: ${result.reason}`);
  return result.booking;
}

export const slotsOf = (sitterId: string) =>
  db.selectFrom("availability_slots").select(["start_at", "end_at", "status", "booking_id"]).where("sitter_id", "=", sitterId).orderBy("start_at").execute();

export const notificationsOf = (userId: string) => db.selectFrom("notifications").select(["type", "data"]).where("user_id", "=", userId).orderBy("created_at").execute();

/** The kinds of booking notices a person got, in order ("requested", "accepted", …). */
export async function noticesOf(userId: string): Promise<string[]> {
  const rows = await notificationsOf(userId);
  return rows.map((row) => (JSON.parse(row.data) as { kind?: string }).kind ?? row.type);
}

export const emailsTo = (email: string) => db.selectFrom("email_outbox").select(["subject", "text_body"]).where("to_address", "=", email).execute();

export const paymentRow = (ref: string | null) => db.selectFrom("test_payments").selectAll().where("ref", "=", ref ?? "").executeTakeFirst();

export async function countPayments(kind: "card" | "hold", amountCents?: number): Promise<number> {
  let query = db.selectFrom("test_payments").select((eb) => eb.fn.countAll<number>().as("count")).where("kind", "=", kind);
  if (amountCents !== undefined) query = query.where("amount_cents", "=", amountCents);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

export const bookingsOf = (ownerId: string) => db.selectFrom("bookings").selectAll().where("owner_id", "=", ownerId).execute();

export const bookingRow = (id: string) => db.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** A profile photo of someone's, as a row only (no image files behind it). */
export async function profilePhoto(userId: string): Promise<string> {
  const photoId = randomUUID();
  await db
    .insertInto("photos")
    .values({ id: photoId, user_id: userId, pet_id: null, position: 0, card_key: `${photoId}-card.webp`, full_key: `${photoId}-full.webp`, width: 10, height: 10, created_at: new Date().toISOString() })
    .execute();
  return photoId;
}

/** A monthly premium subscription paid with the test card, and that card, now saved. */
export async function premiumWithCard(who: { id: string; email: string }): Promise<{ subscriptionId: string; paymentMethodId: string }> {
  const subscribed = await checkout(who, "monthly", card(), randomUUID());
  if (subscribed.status !== "active") throw new Error(`checkout: ${subscribed.status}`);
  const paymentMethod = await db.selectFrom("payment_methods").select("id").where("user_id", "=", who.id).executeTakeFirstOrThrow();
  return { subscriptionId: subscribed.subscription.id, paymentMethodId: paymentMethod.id };
}
