import type { ActionFunctionArgs } from "@remix-run/node";
import { startCardEntry } from "~/features/bookings/index.server";
import { cardEntryAttempt, cardEntryReply } from "~/features/payments/index.server";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const attempt = cardEntryAttempt(await formDataOf(request));
  if (!attempt) return cardEntryReply({ status: "refused", error: "bookings:errors.stale", httpStatus: 400 });
  const outcome = await startCardEntry(user, params.bookingId ?? "", attempt);
  if (outcome.status !== "refused") return cardEntryReply(outcome);
  return cardEntryReply({
    status: "refused",
    error: "bookings:payment.initFailed",
    httpStatus: outcome.refusal === "notFound" ? 404 : 409,
  });
}
