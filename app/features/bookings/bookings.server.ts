import type { Kysely, Transaction } from "kysely";
import type { Booking, Database } from "~db/schema";
import { db } from "~/platform/db.server";
import { now, nowIso } from "~/platform/clock.server";
import { serialized } from "~/platform/lock.server";
import { instantAt } from "~/platform/time";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { notify } from "~/features/notifications/notifications.server";
import { ensureConversation } from "~/features/messages/messages.server";
import { isOwner, isSitter } from "~/features/profiles/profiles.server";
import { paymentProvider, paysOutThroughStripe } from "~/features/payments/payments.server";
import { payerCustomer, storedCustomer } from "~/features/payments/customers.server";
import type { CardInput, PaymentFailureCode, PaymentProvider, PaymentResult } from "~/features/payments/provider";
import { decide, isAuthorised, priceOf, type Actor, type BookingEvent, type Change, type Party, type Refusal } from "./machine";
import { bookingNoticeEmail } from "./emails.server";

/**
 * Bookings: creating requests, and applying the rules of machine.ts. Each transition writes the
 * booking, the sitter's slots and the notifications in one transaction; the payment provider is
 * called after it commits, with an idempotency key, and its answer is applied as a transition of
 * its own. A crash between the two leaves a payment task on the booking that the scheduler
 * finishes (runPaymentTask is safe to repeat).
 */

export type TransitionResult = { ok: true; booking: Booking } | { ok: false; refusal: Refusal | "notFound" | "slotTaken" };

type Tx = Transaction<Database> | Kysely<Database>;

export async function findBooking(id: string, database: Tx = db): Promise<Booking | undefined> {
  return database.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A booking the person takes part in; anyone else gets nothing (as if it did not exist). */
export async function bookingOf(userId: string, id: string): Promise<Booking | undefined> {
  const booking = await findBooking(id);
  return booking && (booking.owner_id === userId || booking.sitter_id === userId) ? booking : undefined;
}

export async function transition(id: string, actor: Actor, event: BookingEvent): Promise<TransitionResult> {
  const outcome = await db.transaction().execute(async (trx) => {
    const result = await applyInTransaction(trx, id, actor, event);
    if (!result.ok) return { result, tasks: [] as string[] };
    const tasks = result.booking.payment_task ? [result.booking.id] : [];
    if (event.type === "accept") tasks.push(...(await cancelOverlappingRequests(trx, result.booking)));
    return { result, tasks };
  });
  if (outcome.result.ok) deliverSoon();
  for (const taskId of outcome.tasks) await runPaymentTask(taskId);
  if (!outcome.result.ok) return outcome.result;
  return { ok: true, booking: (await findBooking(id))! };
}

async function applyInTransaction(trx: Transaction<Database>, id: string, actor: Actor, event: BookingEvent): Promise<TransitionResult> {
  const booking = await findBooking(id, trx);
  if (!booking) return { ok: false, refusal: "notFound" };
  if (actor.kind !== "system" && actor.userId !== booking.owner_id && actor.userId !== booking.sitter_id) return { ok: false, refusal: "notFound" };
  const at = now();
  const decision = decide(booking, actor, event, at);
  if (!decision.ok) return decision;
  const { change } = decision;
  if (change.bookSlot && !(await bookSlot(trx, booking))) return { ok: false, refusal: "slotTaken" };
  if (change.freeSlot) await freeSlot(trx, booking.id);
  await trx
    .updateTable("bookings")
    .set({ ...change.set, updated_at: at.toISOString() })
    .where("id", "=", id)
    .execute();
  const updated = (await findBooking(id, trx))!;
  await tellParties(trx, updated, change.notify);
  return { ok: true, booking: updated };
}

/** When one request is accepted, the others for overlapping time with that sitter are cancelled and their holds given back. */
async function cancelOverlappingRequests(trx: Transaction<Database>, accepted: Booking): Promise<string[]> {
  const rivals = await trx
    .selectFrom("bookings")
    .select("id")
    .where("sitter_id", "=", accepted.sitter_id)
    .where("status", "=", "requested")
    .where("id", "!=", accepted.id)
    .where("start_at", "<", accepted.end_at)
    .where("end_at", ">", accepted.start_at)
    .execute();
  const tasks: string[] = [];
  for (const rival of rivals) {
    const result = await applyInTransaction(trx, rival.id, { kind: "system" }, { type: "slot-taken" });
    if (result.ok && result.booking.payment_task) tasks.push(rival.id);
  }
  return tasks;
}

/**
 * Marks the booked time in the sitter's availability: the available slot holding it is split
 * into the part before, the booked part and the part after. False when no available slot holds
 * it any more, or a confirmed booking already overlaps it.
 */
async function bookSlot(trx: Transaction<Database>, booking: Booking): Promise<boolean> {
  const clash = await trx
    .selectFrom("bookings")
    .select("id")
    .where("sitter_id", "=", booking.sitter_id)
    .where("status", "in", ["confirmed", "in-progress"])
    .where("id", "!=", booking.id)
    .where("start_at", "<", booking.end_at)
    .where("end_at", ">", booking.start_at)
    .executeTakeFirst();
  if (clash) return false;
  const slot = await coveringSlot(trx, booking.sitter_id, booking.start_at, booking.end_at);
  if (!slot) return false;
  const created = nowIso();
  await trx.deleteFrom("availability_slots").where("id", "=", slot.id).execute();
  const pieces = [
    { start_at: slot.start_at, end_at: booking.start_at, status: "available" as const, booking_id: null },
    { start_at: booking.start_at, end_at: booking.end_at, status: "booked" as const, booking_id: booking.id },
    { start_at: booking.end_at, end_at: slot.end_at, status: "available" as const, booking_id: null },
  ].filter((piece) => piece.start_at < piece.end_at);
  await trx
    .insertInto("availability_slots")
    .values(pieces.map((piece) => ({ ...piece, id: crypto.randomUUID(), sitter_id: booking.sitter_id, created_at: created })))
    .execute();
  return true;
}

/** The booked time becomes available again and joins the available time around it, so the sitter's day is whole again. */
async function freeSlot(trx: Transaction<Database>, bookingId: string): Promise<void> {
  const booked = await trx.selectFrom("availability_slots").selectAll().where("booking_id", "=", bookingId).executeTakeFirst();
  if (!booked) return;
  const neighbours = await trx
    .selectFrom("availability_slots")
    .selectAll()
    .where("sitter_id", "=", booked.sitter_id)
    .where("status", "=", "available")
    .where((eb) => eb.or([eb("end_at", "=", booked.start_at), eb("start_at", "=", booked.end_at)]))
    .execute();
  const startAt = neighbours.find((slot) => slot.end_at === booked.start_at)?.start_at ?? booked.start_at;
  const endAt = neighbours.find((slot) => slot.start_at === booked.end_at)?.end_at ?? booked.end_at;
  if (neighbours.length) await trx.deleteFrom("availability_slots").where("id", "in", neighbours.map((slot) => slot.id)).execute();
  await trx.updateTable("availability_slots").set({ status: "available", booking_id: null, start_at: startAt, end_at: endAt }).where("id", "=", booked.id).execute();
}

/** The sitter's available slot that holds the whole of [start, end), if any. */
export function coveringSlot(database: Tx, sitterId: string, startAt: string, endAt: string) {
  return database
    .selectFrom("availability_slots")
    .selectAll()
    .where("sitter_id", "=", sitterId)
    .where("status", "=", "available")
    .where("start_at", "<=", startAt)
    .where("end_at", ">=", endAt)
    .executeTakeFirst();
}

async function tellParties(trx: Transaction<Database>, booking: Booking, notices: Change["notify"]) {
  if (notices.length === 0) return;
  const people = await trx.selectFrom("users").select(["id", "name", "email", "language", "time_zone"]).where("id", "in", [booking.owner_id, booking.sitter_id]).execute();
  const personOf = (party: Party) => people.find((person) => person.id === (party === "owner" ? booking.owner_id : booking.sitter_id))!;
  for (const notice of notices) {
    const to = personOf(notice.to);
    const other = personOf(notice.to === "owner" ? "sitter" : "owner");
    await notify(
      {
        userId: to.id,
        type: notice.message === "requested" ? "booking_request" : "booking_status_update",
        data: { kind: notice.message, name: other.name, pet: booking.pet_name, start: booking.start_at },
        link: "/bookings",
      },
      trx,
    );
    await enqueueEmail(await bookingNoticeEmail(to, notice.message, { other: other.name, pet: booking.pet_name, startAt: booking.start_at, totalCents: booking.total_cents }), trx);
  }
}

/* ------------------------------------------------------------------ requests and payment */

export interface RequestInput {
  /** Made by the request form, so sending the same form twice makes one booking. */
  id: string;
  sitterId: string;
  petId: string;
  day: string;
  startTime: string;
  hours: number;
  notes: string;
}

export type RequestResult =
  | { status: "created"; booking: Booking }
  | { status: "refused"; reason: "sitterNotFound" | "sitterNotPayable" | "self" | "petNotFound" | "past" | "outsideAvailability" | "duplicate" };

/** `provider` is the one the booking will be paid with: the configured one, unless a test says otherwise. */
export async function requestBooking(owner: { id: string; role: Database["users"]["role"] }, input: RequestInput, provider: PaymentProvider = paymentProvider()): Promise<RequestResult> {
  if (input.sitterId === owner.id) return { status: "refused", reason: "self" };
  return db.transaction().execute(async (trx): Promise<RequestResult> => {
    const existing = await findBooking(input.id, trx);
    if (existing) return existing.owner_id === owner.id && existing.sitter_id === input.sitterId ? { status: "created", booking: existing } : { status: "refused", reason: "duplicate" };
    const sitter = await trx
      .selectFrom("users")
      .select(["id", "role", "hourly_rate_cents", "time_zone", "stripe_account_id", "payouts_enabled"])
      .where("id", "=", input.sitterId)
      .where("email_verified_at", "is not", null)
      .executeTakeFirst();
    if (!sitter || !isSitter(sitter.role) || sitter.hourly_rate_cents === null) return { status: "refused", reason: "sitterNotFound" };
    // With Stripe the sitter is paid through their connected account: no booking before it can receive money.
    if (paysOutThroughStripe(provider) && (!sitter.stripe_account_id || !sitter.payouts_enabled)) return { status: "refused", reason: "sitterNotPayable" };
    const pet = await trx.selectFrom("pets").select(["id", "name"]).where("id", "=", input.petId).where("owner_id", "=", owner.id).executeTakeFirst();
    if (!pet || !isOwner(owner.role)) return { status: "refused", reason: "petNotFound" };

    const start = instantAt(sitter.time_zone, input.day, input.startTime);
    const end = new Date(start.getTime() + input.hours * 3600_000);
    const at = now();
    if (Number.isNaN(start.getTime()) || start <= at) return { status: "refused", reason: "past" };
    if (!(await coveringSlot(trx, sitter.id, start.toISOString(), end.toISOString()))) return { status: "refused", reason: "outsideAvailability" };

    const price = priceOf(sitter.hourly_rate_cents, input.hours);
    const booking = await trx
      .insertInto("bookings")
      .values({
        id: input.id,
        owner_id: owner.id,
        sitter_id: sitter.id,
        pet_id: pet.id,
        pet_name: pet.name,
        notes: input.notes,
        start_at: start.toISOString(),
        end_at: end.toISOString(),
        hours: input.hours,
        hourly_rate_cents: sitter.hourly_rate_cents,
        subtotal_cents: price.subtotal,
        fee_cents: price.fee,
        total_cents: price.total,
        payment_provider: provider.name,
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // A booking opens the pair's conversation.
    await ensureConversation(owner.id, sitter.id, trx);
    return { status: "created", booking };
  });
}

export type PaymentOutcome = { status: "held" } | { status: "card-saved" } | { status: "failed"; code: PaymentFailureCode } | { status: "refused"; refusal: Refusal | "notFound" | "slotTaken" };

/**
 * The owner authorises the card on the payment page: the card is saved, then (for bookings
 * within six days) the total is held. `attempt` comes from the page, so a double submit is one payment.
 */
export async function payForBooking(owner: { id: string; email: string }, bookingId: string, card: CardInput, attempt: string): Promise<PaymentOutcome> {
  // One payment per booking at a time: a double-clicked Pay gets the first click's outcome.
  return serialized(`pay:${bookingId}`, async () => {
    const booking = await findBooking(bookingId);
    if (!booking || booking.owner_id !== owner.id) return { status: "refused", refusal: "notFound" };
    if (booking.status === "requested" && isAuthorised(booking)) return { status: booking.payment_status === "held" ? "held" : "card-saved" };
    const precheck = decide(booking, { kind: "owner", userId: owner.id }, { type: "card-saved", cardRef: "", cardLabel: "" }, now());
    if (!precheck.ok) return { status: "refused", refusal: precheck.refusal };

    const customerRef = await storedCustomer(owner.id);
    const saved = await providerCall("save a card", () =>
      paymentProvider(booking.payment_provider).saveCard({
        card,
        email: owner.email,
        customerRef,
        purpose: { kind: "booking", userId: owner.id, bookingId: booking.id },
        idempotencyKey: `${booking.id}:card:${attempt}`,
      }),
    );
    // Someone else's card entry (or one made for another booking) changes nothing here.
    if (!saved.ok && saved.code === "foreign_card") return { status: "failed", code: saved.code };
    if (!saved.ok) {
      await db
        .updateTable("bookings")
        .set({ payment_status: "failed", payment_error: saved.code, updated_at: nowIso() })
        .where("id", "=", booking.id)
        .where("status", "=", "requested")
        .where("card_ref", "is", null)
        .execute();
      return { status: "failed", code: saved.code };
    }
    const result = await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "card-saved", cardRef: saved.cardRef, cardLabel: saved.label });
    if (!result.ok) return { status: "refused", refusal: result.refusal };
    const after = result.booking;
    if (after.payment_status === "held") return { status: "held" };
    if (after.payment_status === "failed") return { status: "failed", code: (after.payment_error as PaymentFailureCode | null) ?? "processing_error" };
    if (after.payment_task === "hold") return { status: "failed", code: "processing_error" };
    return { status: "card-saved" };
  });
}

export type CardEntryOutcome = { status: "ready"; clientSecret: string } | { status: "failed"; code: PaymentFailureCode } | { status: "refused"; refusal: Refusal | "notFound" };

/**
 * For processors whose card field runs in the browser (Stripe): prepares the card entry of one
 * payment attempt, on the payer's customer record (made once and kept on their account first).
 */
export async function startCardEntry(owner: { id: string; email: string; name: string }, bookingId: string, attempt: string): Promise<CardEntryOutcome> {
  const booking = await findBooking(bookingId);
  if (!booking || booking.owner_id !== owner.id) return { status: "refused", refusal: "notFound" };
  const precheck = decide(booking, { kind: "owner", userId: owner.id }, { type: "card-saved", cardRef: "", cardLabel: "" }, now());
  if (!precheck.ok) return { status: "refused", refusal: precheck.refusal };
  let provider: PaymentProvider;
  try {
    provider = paymentProvider(booking.payment_provider);
  } catch (error) {
    console.error(`The payment provider of booking ${booking.id} is not available`, error);
    return { status: "failed", code: "processing_error" };
  }
  const startEntry = provider.startCardEntry?.bind(provider);
  if (!startEntry) return { status: "refused", refusal: "wrongState" };
  const customer = await providerCall("make the payer's customer", () => payerCustomer(provider, owner));
  if (!customer.ok) return { status: "failed", code: customer.code };
  const started = await providerCall("start a card entry", () =>
    startEntry({
      customerRef: customer.customerRef,
      purpose: { kind: "booking", userId: owner.id, bookingId: booking.id },
      // One card entry per attempt.
      idempotencyKey: `${booking.id}:entry:${attempt}`,
    }),
  );
  if (!started.ok) return { status: "failed", code: started.code };
  return { status: "ready", clientSecret: started.clientSecret };
}

/**
 * A provider call that throws (a provider left unconfigured, or a bug) is an outage like a
 * timeout: the person is asked to try again, never shown an error page; the reason goes to the log.
 */
async function providerCall<T extends object>(what: string, call: () => Promise<PaymentResult<T>>): Promise<PaymentResult<T>> {
  try {
    return await call();
  } catch (error) {
    console.error(`The payment provider could not ${what}`, error);
    return { ok: false, code: "processing_error" };
  }
}

/* ------------------------------------------------------------------ payment tasks and the scheduler */

const MAX_TASK_ATTEMPTS = 8;

/** Does the payment work a booking is waiting for, and records the answer. Safe to call any number of times. */
export async function runPaymentTask(id: string): Promise<void> {
  const booking = await findBooking(id);
  if (!booking?.payment_task || booking.payment_task_attempts >= MAX_TASK_ATTEMPTS) return;
  const system: Actor = { kind: "system" };
  let event: BookingEvent | null = null;
  let failure: PaymentFailureCode | null = null;
  try {
    ({ event, failure } = await askProvider(booking));
  } catch (error) {
    // A provider that throws (misconfigured, or a bug) must not stop the scheduler's round or fail
    // the request whose change is already saved: the task waits for the next round like any outage.
    console.error(`Payment task ${booking.payment_task} of booking ${booking.id} failed`, error);
    failure = "processing_error";
  }
  if (event) {
    await transition(id, system, event);
    return;
  }
  // The provider could not answer: try again on the scheduler's next round.
  await db
    .updateTable("bookings")
    .set((eb) => ({ payment_task_attempts: eb("payment_task_attempts", "+", 1), payment_error: failure ?? "processing_error", updated_at: nowIso() }))
    .where("id", "=", id)
    .where("payment_task", "=", booking.payment_task)
    .execute();
}

/** The provider's answer to the payment work a booking waits for, as the event it causes or the failure to retry. */
async function askProvider(booking: Booking): Promise<{ event: BookingEvent | null; failure: PaymentFailureCode | null }> {
  const provider = paymentProvider(booking.payment_provider);
  let event: BookingEvent | null = null;
  let failure: PaymentFailureCode | null = null;
  if (booking.payment_task === "hold" && booking.card_ref) {
    const payee = await db.selectFrom("users").select("stripe_account_id").where("id", "=", booking.sitter_id).executeTakeFirst();
    const held = await provider.hold({
      cardRef: booking.card_ref,
      amountCents: booking.total_cents,
      feeCents: booking.fee_cents,
      payeeRef: payee?.stripe_account_id ?? null,
      // A delayed hold is placed by the scheduler, days after the owner saved the card.
      offSession: booking.hold_due_at !== null,
      description: `Booking ${booking.id}`,
      reference: booking.id,
      idempotencyKey: `${booking.id}:hold:${booking.card_ref}`,
    });
    if (held.ok) event = { type: "hold-placed", holdRef: held.holdRef };
    else if (held.code === "processing_error") failure = held.code;
    else event = { type: "hold-failed", error: held.code };
  } else if (booking.payment_task === "capture" && booking.hold_ref) {
    const captured = await provider.capture({ holdRef: booking.hold_ref, amountCents: booking.total_cents, idempotencyKey: `${booking.id}:capture:${booking.hold_ref}` });
    if (captured.ok) event = { type: "captured" };
    else failure = captured.code;
  } else if (booking.payment_task === "void" && booking.hold_ref) {
    const voided = await provider.voidHold({ holdRef: booking.hold_ref, idempotencyKey: `${booking.id}:void:${booking.hold_ref}` });
    if (voided.ok) event = { type: "voided" };
    else failure = voided.code;
  }
  return { event, failure };
}

/**
 * Everything that happens because time passed: lapsed unpaid requests, delayed holds, starts,
 * ends, automatic releases, and payment work left unfinished. Each step is a transition that
 * re-checks the booking, so running this twice at once changes nothing twice.
 */
export async function runDueBookingWork(): Promise<number> {
  const at = now();
  const iso = at.toISOString();
  const system: Actor = { kind: "system" };
  let changed = 0;
  const run = async (ids: { id: string }[], event: BookingEvent) => {
    for (const { id } of ids) if ((await transition(id, system, event)).ok) changed += 1;
  };
  const lapse = new Date(at.getTime() - 15 * 60_000).toISOString();
  await run(
    await db
      .selectFrom("bookings")
      .select("id")
      .where("status", "=", "requested")
      .where("payment_task", "is", null)
      .where((eb) => eb.or([eb("created_at", "<=", lapse), eb("start_at", "<=", iso)]))
      .execute(),
    { type: "expire" },
  );
  await run(await db.selectFrom("bookings").select("id").where("status", "in", ["requested", "confirmed"]).where("payment_task", "is", null).where("hold_due_at", "<=", iso).execute(), { type: "hold-due" });
  await run(await db.selectFrom("bookings").select("id").where("status", "=", "confirmed").where("start_at", "<=", iso).execute(), { type: "start" });
  await run(await db.selectFrom("bookings").select("id").where("status", "in", ["in-progress", "confirmed"]).where("end_at", "<=", iso).execute(), { type: "finish" });
  const releaseBefore = new Date(at.getTime() - 72 * 3600_000).toISOString();
  await run(await db.selectFrom("bookings").select("id").where("status", "=", "completed").where("payment_status", "=", "held").where("payment_task", "is", null).where("completed_at", "<=", releaseBefore).execute(), { type: "release" });
  for (const { id } of await db.selectFrom("bookings").select("id").where("payment_task", "is not", null).execute()) await runPaymentTask(id);
  return changed;
}

/** A sitter who can be booked: confirmed, with a sitter profile and a rate. */
export async function bookableSitter(id: string) {
  const sitter = await db
    .selectFrom("users")
    .select(["id", "name", "role", "hourly_rate_cents", "time_zone"])
    .where("id", "=", id)
    .where("email_verified_at", "is not", null)
    .executeTakeFirst();
  if (!sitter || !isSitter(sitter.role) || sitter.hourly_rate_cents === null) return null;
  return { id: sitter.id, name: sitter.name, hourly_rate_cents: sitter.hourly_rate_cents, time_zone: sitter.time_zone };
}
