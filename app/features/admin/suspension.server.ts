import type { Transaction } from "kysely";
import type { Database } from "~db/schema";
import { db, lockPeople, transactionRetryingDeadlocks } from "~/platform/db.server";
import { recordAudit } from "~/platform/audit.server";
import { nowIso } from "~/platform/clock.server";
import { deliverSoon, enqueueEmail } from "~/platform/email.server";
import { endStreamsOf } from "~/platform/events/hub.server";
import { closeOpenBookingsIn, runPaymentTasks } from "~/features/bookings/index.server";
import { accountNoticeEmail } from "./emails.server";
import { endAllSessions } from "~/platform/session.server";

export type SuspendResult =
  { status: "suspended"; closedBookings: string[] } | { status: "not-found" | "self" | "already" };
export type LiftResult = "lifted" | "not-found" | "not-suspended";

/**
 * Inside the caller's transaction: marks the person suspended, ends their sessions, cancels their
 * open bookings through the booking machine (the holds are given back once the transaction has
 * committed: run `finishSuspension` with the answer), writes the email and the audit row.
 */
export async function suspendIn(
  trx: Transaction<Database>,
  operatorId: string,
  userId: string,
  reason: string,
  details: Record<string, unknown> = {},
): Promise<
  { status: "suspended"; closedBookings: string[]; tasks: string[] } | { status: "not-found" | "self" | "already" }
> {
  if (userId === operatorId) return { status: "self" };
  await lockPeople(trx, userId);
  const person = await trx
    .selectFrom("users")
    .select(["id", "email", "name", "language", "time_zone", "suspended_at", "deleted_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
  // A deleted member has nothing left to suspend (and no address to write to).
  if (!person || person.deleted_at) return { status: "not-found" };
  if (person.suspended_at) return { status: "already" };
  const at = nowIso();
  await trx
    .updateTable("users")
    .set({ suspended_at: at, suspension_reason: reason, updated_at: at })
    .where("id", "=", userId)
    .execute();
  await endAllSessions(userId, trx);
  const { closed, tasks } = await closeOpenBookingsIn(trx, userId, "suspended", {
    kind: "operator",
    userId: operatorId,
  });
  await enqueueEmail(await accountNoticeEmail(person, "suspended", reason), trx);
  await recordAudit(trx, {
    operatorId,
    action: "user.suspend",
    subjectType: "user",
    subjectId: userId,
    reason,
    details: { ...details, cancelledBookings: closed },
  });
  return { status: "suspended", closedBookings: closed, tasks };
}

/** After the transaction of `suspendIn` committed: streams end now, holds are given back, emails go. */
export async function finishSuspension(userId: string, tasks: string[]): Promise<void> {
  endStreamsOf(userId);
  deliverSoon();
  await runPaymentTasks(tasks);
}

export async function suspendPerson(operatorId: string, userId: string, reason: string): Promise<SuspendResult> {
  const outcome = await transactionRetryingDeadlocks((trx) => suspendIn(trx, operatorId, userId, reason));
  if (outcome.status !== "suspended") return outcome;
  await finishSuspension(userId, outcome.tasks);
  return { status: "suspended", closedBookings: outcome.closedBookings };
}

/** Access comes back; the bookings cancelled by the suspension stay cancelled. */
export async function liftSuspension(operatorId: string, userId: string, reason: string): Promise<LiftResult> {
  const result = await db.transaction().execute(async (trx): Promise<LiftResult> => {
    await lockPeople(trx, userId);
    const person = await trx
      .selectFrom("users")
      .select(["id", "email", "name", "language", "time_zone", "suspended_at"])
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!person) return "not-found";
    if (!person.suspended_at) return "not-suspended";
    await trx
      .updateTable("users")
      .set({ suspended_at: null, suspension_reason: null, updated_at: nowIso() })
      .where("id", "=", userId)
      .execute();
    await enqueueEmail(await accountNoticeEmail(person, "restored", reason), trx);
    await recordAudit(trx, {
      operatorId,
      action: "user.lift",
      subjectType: "user",
      subjectId: userId,
      reason,
      details: { suspendedAt: person.suspended_at },
    });
    return "lifted";
  });
  if (result === "lifted") deliverSoon();
  return result;
}
