import type { ActionFunctionArgs } from "@remix-run/node";
import { cardEntryAttempt, cardEntryReply } from "~/features/payments/index.server";
import { startSubscriptionCardEntry } from "~/features/subscriptions/index.server";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";

/**
 * Stripe's card form asks here for a SetupIntent on the asker's own customer, made for one use
 * only: the checkout of `?plan=<plan>`, or 'Add a payment method' (no plan).
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const attempt = cardEntryAttempt(await formDataOf(request));
  const planId = new URL(request.url).searchParams.get("plan");
  if (!attempt || (planId !== null && !/^[\w-]{1,64}$/.test(planId)))
    return cardEntryReply({ status: "refused", error: "subscription:errors.stale", httpStatus: 400 });
  const outcome = await startSubscriptionCardEntry(user, attempt, planId);
  if (outcome.status === "ready" || outcome.status === "failed") return cardEntryReply(outcome);
  if (outcome.status === "notFound")
    return cardEntryReply({ status: "refused", error: "bookings:payment.initFailed", httpStatus: 404 });
  return cardEntryReply({ status: "refused", error: "bookings:payment.cardUnavailable", httpStatus: 409 });
}
