import type { ActionFunctionArgs } from "@remix-run/node";
import { failureMessage } from "~/features/payments/provider";
import { startSubscriptionCardEntry } from "~/features/subscriptions/cards.server";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";

/**
 * Stripe's card form on the subscription checkout (`?plan=<plan>`) and on 'Add a payment method'
 * (no plan) asks here, when Pay (or Save) is pressed, for the client secret of a SetupIntent on the
 * asker's own customer, made for that use only (the same attempt gets the same SetupIntent). JSON in, JSON out.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const attempt = String((await formDataOf(request)).get("attempt") ?? "");
  const planId = new URL(request.url).searchParams.get("plan");
  const noStore = { "Cache-Control": "no-store" };
  if (!/^[\w-]{8,64}$/.test(attempt) || (planId !== null && !/^[\w-]{1,64}$/.test(planId))) return Response.json({ error: "subscription:errors.stale" }, { status: 400, headers: noStore });
  const outcome = await startSubscriptionCardEntry(user, attempt, planId);
  if (outcome.status === "ready") return Response.json({ clientSecret: outcome.clientSecret }, { headers: noStore });
  if (outcome.status === "failed") return Response.json({ error: failureMessage(outcome.code) }, { status: 402, headers: noStore });
  if (outcome.status === "notFound") return Response.json({ error: "bookings:payment.initFailed" }, { status: 404, headers: noStore });
  return Response.json({ error: "bookings:payment.cardUnavailable" }, { status: 409, headers: noStore });
}
