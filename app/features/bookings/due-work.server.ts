import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { AUTO_RELEASE_AFTER_MS, UNPAID_REQUEST_TTL_MS, type Actor, type BookingEvent } from "./machine";
import { runPaymentTask, transition } from "./bookings.server";

/** Each step re-checks the booking, so running this twice at once changes nothing twice. */
export async function runDueBookingWork(): Promise<number> {
  const at = now();
  const iso = at.toISOString();
  const system: Actor = { kind: "system" };
  let changed = 0;
  const run = async (ids: { id: string }[], event: BookingEvent) => {
    for (const { id } of ids) if ((await transition(id, system, event)).ok) changed += 1;
  };
  const lapse = new Date(at.getTime() - UNPAID_REQUEST_TTL_MS).toISOString();
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
  await run(
    await db
      .selectFrom("bookings")
      .select("id")
      .where("status", "in", ["requested", "confirmed"])
      .where("payment_task", "is", null)
      .where("hold_due_at", "<=", iso)
      .execute(),
    { type: "hold-due" },
  );
  await run(
    await db
      .selectFrom("bookings")
      .select("id")
      .where("status", "=", "confirmed")
      .where("start_at", "<=", iso)
      .execute(),
    { type: "start" },
  );
  await run(
    await db
      .selectFrom("bookings")
      .select("id")
      .where("status", "in", ["in-progress", "confirmed"])
      .where("end_at", "<=", iso)
      .execute(),
    { type: "finish" },
  );
  const releaseBefore = new Date(at.getTime() - AUTO_RELEASE_AFTER_MS).toISOString();
  await run(
    await db
      .selectFrom("bookings")
      .select("id")
      .where("status", "=", "completed")
      .where("payment_status", "=", "held")
      .where("payment_task", "is", null)
      .where("completed_at", "<=", releaseBefore)
      .execute(),
    { type: "release" },
  );
  const paymentWork = await db
    .selectFrom("bookings")
    .select("id")
    .where((eb) => eb.or([eb("payment_task", "is not", null), eb("refund_due_cents", "is not", null)]))
    .execute();
  for (const { id } of paymentWork) await runPaymentTask(id);
  return changed;
}
