import type { Kysely, Transaction } from "kysely";
import type { Booking, Database } from "~db/schema";
import {
  db,
  isExclusionViolation,
  jsonObject,
  lockedForDecision,
  lockPeople,
  transactionRetryingDeadlocks,
} from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { notify } from "~/features/notifications/index.server";
import { bookSlot, freeSlot } from "~/features/availability/index.server";
import {
  MAX_TASK_ATTEMPTS,
  decide,
  type AccountClosure,
  type Actor,
  type BookingEvent,
  type Change,
  type Party,
  type Refusal,
} from "./machine";
import { bookingNoticeEmail, REFUND_NOTICES } from "./emails.server";
import { bookingMoney } from "./money";
import { bookedPetNames } from "./booked-pets.server";
import { listOf } from "~/platform/format";
import { providerAnswer } from "./payment-tasks.server";
import { acceptedStayFits, SHARED_STAYS, sharesDays } from "./stay-capacity.server";
import { isStayService } from "~/features/profiles";

/* The provider is called after the transaction commits, with an idempotency key; a crash between
 * leaves a payment task the scheduler finishes. */

export type TransitionResult =
  { ok: true; booking: Booking } | { ok: false; refusal: Refusal | "notFound" | "slotTaken" };

type Tx = Transaction<Database> | Kysely<Database>;

export async function findBooking(id: string, database: Tx = db): Promise<Booking | undefined> {
  return database.selectFrom("bookings").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * A booking read for a decision: its sitter is locked first (every booking decision reads the sitter's
 * calendar, so decisions about one sitter take turns, other sitters' go side by side), then its own row.
 */
export async function lockedBooking(trx: Transaction<Database>, id: string): Promise<Booking | undefined> {
  const seen = await findBooking(id, trx);
  if (!seen) return undefined;
  if (!(await lockPeople(trx, seen.sitter_id))) return seen;
  return trx.selectFrom("bookings").selectAll().where("id", "=", id).$call(lockedForDecision).executeTakeFirst();
}

/** A booking the person takes part in; anyone else gets nothing (as if it did not exist). */
export async function bookingOf(userId: string, id: string): Promise<Booking | undefined> {
  const booking = await findBooking(id);
  return booking && (booking.owner_id === userId || booking.sitter_id === userId) ? booking : undefined;
}

export async function transition(id: string, actor: Actor, event: BookingEvent): Promise<TransitionResult> {
  const outcome = await transactionRetryingDeadlocks(async (trx) => {
    const result = await applyEvent(trx, id, actor, event);
    if (!result.ok) return { result, tasks: [] as string[] };
    const tasks = hasPaymentWork(result.booking) && event.type !== "task-failed" ? [result.booking.id] : [];
    if (event.type === "accept") tasks.push(...(await cancelOverlappingRequests(trx, result.booking)));
    return { result, tasks };
  }).catch((error: unknown) => {
    // The sitter's time taken by a booking that no check of this decision saw (PostgreSQL's exclusion constraint).
    if (isExclusionViolation(error)) return { result: { ok: false, refusal: "slotTaken" } as const, tasks: [] };
    throw error;
  });
  if (outcome.result.ok) deliverSoon();
  for (const taskId of outcome.tasks) await runPaymentTask(taskId);
  if (!outcome.result.ok) return outcome.result;
  return { ok: true, booking: (await findBooking(id))! };
}

export async function applyEvent(
  trx: Transaction<Database>,
  id: string,
  actor: Actor,
  event: BookingEvent,
): Promise<TransitionResult> {
  if (event.type === "requested" || event.type === "occurrence") await lockPeople(trx, event.booking.sitter_id);
  const booking = await lockedBooking(trx, id);
  if (!booking && event.type !== "requested" && event.type !== "occurrence") return { ok: false, refusal: "notFound" };
  if (
    booking &&
    actor.kind !== "system" &&
    actor.kind !== "operator" &&
    actor.userId !== booking.owner_id &&
    actor.userId !== booking.sitter_id
  )
    return { ok: false, refusal: "notFound" };
  const at = now();
  const decision = decide(booking ?? null, actor, event, at);
  if (!decision.ok) return decision;
  const { change } = decision;
  if (booking && change.bookSlot && !(await bookTime(trx, booking))) return { ok: false, refusal: "slotTaken" };
  if (change.freeSlot) await freeSlot(trx, id);
  const stamp = at.toISOString();
  if (change.create)
    await trx
      .insertInto("bookings")
      .values({ ...change.create, created_at: stamp, updated_at: stamp })
      .execute();
  if (change.create && change.pets?.length)
    await trx
      .insertInto("booking_pets")
      .values(change.pets.map((pet, position) => ({ booking_id: id, position, pet_id: pet.id, pet_name: pet.name })))
      .execute();
  else
    await trx
      .updateTable("bookings")
      .set({ ...change.set, updated_at: stamp })
      .where("id", "=", id)
      .execute();
  const written = (await findBooking(id, trx))!;
  await recordHistory(trx, booking ?? null, written, actor, event, stamp);
  await tellParties(trx, written, change.notify);
  return { ok: true, booking: written };
}

export const hasPaymentWork = (booking: Pick<Booking, "payment_task" | "refund_due_cents">) =>
  booking.payment_task !== null || booking.refund_due_cents !== null;

/** What an event carried that the booking's history shows: reasons and amounts, never card or provider references. */
function detailOf(event: BookingEvent): Record<string, unknown> {
  switch (event.type) {
    case "cancel":
    case "sitter-cancel":
      return { reason: event.reason.trim() };
    case "resolve-dispute":
      return {
        settlement: event.settlement.kind,
        ...(event.settlement.kind === "partial" ? { refundCents: event.settlement.refundCents } : {}),
      };
    case "operator-refund":
      return { amountCents: event.amountCents };
    case "task-failed":
      return { task: event.task, error: event.error };
    case "hold-failed":
    case "card-failed":
      return { error: event.error };
    case "account-closed":
      return { party: event.party, closure: event.closure };
    default:
      return {};
  }
}

async function recordHistory(
  trx: Transaction<Database>,
  before: Booking | null,
  after: Booking,
  actor: Actor,
  event: BookingEvent,
  stamp: string,
) {
  await trx
    .insertInto("booking_history")
    .values({
      booking_id: after.id,
      event: event.type,
      actor_kind: actor.kind,
      actor_id: actor.kind === "system" ? null : actor.userId,
      status_from: before?.status ?? null,
      status_to: after.status,
      payment_from: before?.payment_status ?? null,
      payment_to: after.payment_status,
      detail: jsonObject.write(detailOf(event)),
      created_at: stamp,
    })
    .execute();
}

async function bookTime(trx: Transaction<Database>, booking: Booking): Promise<boolean> {
  if (isStayService(booking.service_type)) return acceptedStayFits(trx, booking);
  const clash = await trx
    .selectFrom("bookings")
    .select("id")
    .where("sitter_id", "=", booking.sitter_id)
    .where("status", "in", ["confirmed", "in-progress"])
    .where("id", "!=", booking.id)
    .where("start_at", "<", booking.end_at)
    .where("end_at", ">", booking.start_at)
    .executeTakeFirst();
  return !clash && bookSlot(trx, booking);
}

async function cancelOverlappingRequests(trx: Transaction<Database>, accepted: Booking): Promise<string[]> {
  const rivals = await trx
    .selectFrom("bookings")
    .select("id")
    .where("sitter_id", "=", accepted.sitter_id)
    .where("status", "=", "requested")
    .where("id", "!=", accepted.id)
    // Boarding and day care share the sitter's days: other such requests stay open and are checked when accepted.
    .$if(sharesDays(accepted.service_type), (query) => query.where("service_type", "not in", SHARED_STAYS))
    .where("start_at", "<", accepted.end_at)
    .where("end_at", ">", accepted.start_at)
    .execute();
  const tasks: string[] = [];
  for (const rival of rivals) {
    const result = await applyEvent(trx, rival.id, { kind: "system" }, { type: "slot-taken" });
    if (result.ok && hasPaymentWork(result.booking)) tasks.push(rival.id);
  }
  return tasks;
}

async function tellParties(trx: Transaction<Database>, booking: Booking, notices: Change["notify"]) {
  if (notices.length === 0) return;
  const people = await trx
    .selectFrom("users")
    .select(["id", "name", "email", "language", "time_zone"])
    .where("id", "in", [booking.owner_id, booking.sitter_id])
    .execute();
  const personOf = (party: Party) =>
    people.find((person) => person.id === (party === "owner" ? booking.owner_id : booking.sitter_id))!;
  // As the change left it: a settlement or refund is told with its amounts before the provider confirms it.
  const money = bookingMoney(booking);
  const petNames = (await bookedPetNames([booking.id], trx)).get(booking.id) ?? [booking.pet_name];
  for (const notice of notices) {
    const to = personOf(notice.to);
    // Every booked pet, named as the reader's language lists things.
    const pets = listOf(to.language, petNames);
    const other = personOf(notice.to === "owner" ? "sitter" : "owner");
    await notify(
      {
        userId: to.id,
        type: notice.message === "requested" ? "booking_request" : "booking_status_update",
        data: {
          kind: notice.message,
          name: other.name,
          pet: pets,
          start: booking.start_at,
          ...(REFUND_NOTICES.has(notice.message) ? { refundedCents: money.refundedCents } : {}),
        },
        link: "/bookings",
      },
      trx,
    );
    await enqueueEmail(
      await bookingNoticeEmail(
        to,
        notice.message,
        { other: other.name, pet: pets, startAt: booking.start_at, money },
        notice.to,
      ),
      trx,
    );
  }
}

/**
 * Ends every booking of a suspended or deleted person that has not finished, inside the caller's
 * transaction. `tasks` are the bookings with a hold to give back: pass them to `runPaymentTasks`
 * once that transaction has committed.
 */
export async function closeOpenBookingsIn(
  trx: Transaction<Database>,
  userId: string,
  closure: AccountClosure,
  actor: Actor = { kind: "system" },
): Promise<{ closed: string[]; tasks: string[] }> {
  const open = await trx
    .selectFrom("bookings")
    .select(["id", "owner_id"])
    .where((eb) => eb.or([eb("owner_id", "=", userId), eb("sitter_id", "=", userId)]))
    .where("status", "in", ["requested", "confirmed", "in-progress"])
    .orderBy("start_at")
    .execute();
  const closed: string[] = [];
  const tasks: string[] = [];
  for (const booking of open) {
    const party: Party = booking.owner_id === userId ? "owner" : "sitter";
    const result = await applyEvent(trx, booking.id, actor, { type: "account-closed", party, closure });
    if (!result.ok) continue;
    closed.push(booking.id);
    if (hasPaymentWork(result.booking)) tasks.push(booking.id);
  }
  return { closed, tasks };
}

export async function runPaymentTasks(ids: string[]): Promise<void> {
  for (const id of ids) await runPaymentTask(id);
}

/** `closeOpenBookingsIn` in a transaction of its own, then the holds given back. Returns the ended bookings' ids. */
export async function closeOpenBookingsOf(
  userId: string,
  closure: AccountClosure,
  actor: Actor = { kind: "system" },
): Promise<string[]> {
  const { closed, tasks } = await transactionRetryingDeadlocks((trx) =>
    closeOpenBookingsIn(trx, userId, closure, actor),
  );
  if (closed.length > 0) deliverSoon();
  await runPaymentTasks(tasks);
  return closed;
}

export async function runPaymentTask(id: string): Promise<void> {
  const booking = await findBooking(id);
  if (!booking || !hasPaymentWork(booking) || booking.payment_task_attempts >= MAX_TASK_ATTEMPTS) return;
  await transition(id, { kind: "system" }, await providerAnswer(booking));
}
