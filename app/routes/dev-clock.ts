import { type ActionFunctionArgs } from "@remix-run/node";
import { runDueBookingWork } from "~/features/bookings/index.server";
import { runDueSubscriptionWork } from "~/features/subscriptions/index.server";
import { runDueSeriesWork } from "~/features/series/index.server";
import { formDataOf } from "~/platform/forms.server";
import { advanceClock, now, resetClock } from "~/platform/clock.server";
import { env } from "~/platform/env.server";

// Only in development and tests (TEST_MODE): a demo or production server has no such door.
export async function action({ request }: ActionFunctionArgs) {
  if (!env.clockMovable) throw new Response("Not found", { status: 404 });
  const form = await formDataOf(request);
  if (form.get("reset") === "true") resetClock();
  const minutes = Number(form.get("advanceMinutes") ?? 0);
  if (!Number.isFinite(minutes) || minutes < 0 || minutes > 60 * 24 * 365) {
    return Response.json({ error: "advanceMinutes must be between 0 and 525600" }, { status: 400 });
  }
  advanceClock(minutes * 60_000);
  // What time would have triggered happens now, so a test sees it without waiting for the scheduler.
  const occurrencesMade = await runDueSeriesWork();
  const changed = await runDueBookingWork();
  const subscriptionsChanged = await runDueSubscriptionWork();
  return Response.json({ now: now().toISOString(), bookingsChanged: changed, subscriptionsChanged, occurrencesMade });
}

export function loader() {
  if (!env.clockMovable) throw new Response("Not found", { status: 404 });
  return Response.json({ now: now().toISOString() });
}
