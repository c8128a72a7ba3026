import type { ActionFunctionArgs } from "@remix-run/node";
import { startCardEntry } from "~/features/bookings/payment-entry.server";
import { failureMessage } from "~/features/payments/provider";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";

/**
 * The Stripe card form asks here, when Pay is pressed, for the client secret of a SetupIntent
 * made for this booking and attempt (the same attempt gets the same SetupIntent). JSON in, JSON out.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const attempt = String((await formDataOf(request)).get("attempt") ?? "");
  if (!/^[\w-]{8,64}$/.test(attempt)) return Response.json({ error: "bookings:errors.stale" }, { status: 400 });
  const outcome = await startCardEntry(user, params.bookingId ?? "", attempt);
  const noStore = { "Cache-Control": "no-store" };
  if (outcome.status === "ready") return Response.json({ clientSecret: outcome.clientSecret }, { headers: noStore });
  if (outcome.status === "failed") return Response.json({ error: failureMessage(outcome.code) }, { status: 402, headers: noStore });
  if (outcome.refusal === "notFound") return Response.json({ error: "bookings:payment.initFailed" }, { status: 404, headers: noStore });
  return Response.json({ error: "bookings:payment.initFailed" }, { status: 409, headers: noStore });
}
