import type { ActionFunctionArgs } from "@remix-run/node";
import { failureMessage } from "~/features/payments/provider";
import { startSubscriptionCardEntry } from "~/features/subscriptions/subscriptions.server";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";

/**
 * Stripe's card form on the subscription checkout and on 'Add a payment method' asks here, when
 * Pay (or Save) is pressed, for the client secret of a SetupIntent on the asker's own customer
 * (the same attempt gets the same SetupIntent). JSON in, JSON out.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const attempt = String((await formDataOf(request)).get("attempt") ?? "");
  const noStore = { "Cache-Control": "no-store" };
  if (!/^[\w-]{8,64}$/.test(attempt)) return Response.json({ error: "subscription:errors.stale" }, { status: 400, headers: noStore });
  const outcome = await startSubscriptionCardEntry(user, attempt);
  if (outcome.status === "ready") return Response.json({ clientSecret: outcome.clientSecret }, { headers: noStore });
  if (outcome.status === "failed") return Response.json({ error: failureMessage(outcome.code) }, { status: 402, headers: noStore });
  return Response.json({ error: "bookings:payment.cardUnavailable" }, { status: 409, headers: noStore });
}
