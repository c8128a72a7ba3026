import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { transition } from "~/features/bookings/index.server";
import { refusalKey, type BookingEvent } from "~/features/bookings";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";

const events: Record<
  string,
  { event: BookingEvent; as: "owner" | "sitter"; toast: { title: string; description?: string } }
> = {
  accept: {
    event: { type: "accept" },
    as: "sitter",
    toast: { title: "bookings:toast.acceptedTitle", description: "bookings:toast.acceptedBody" },
  },
  decline: {
    event: { type: "decline" },
    as: "sitter",
    toast: { title: "bookings:toast.cancelledTitle", description: "bookings:toast.declinedBody" },
  },
  finish: { event: { type: "finish" }, as: "sitter", toast: { title: "bookings:toast.finishedTitle" } },
  release: {
    event: { type: "release" },
    as: "owner",
    toast: { title: "bookings:toast.releasedTitle", description: "bookings:toast.releasedBody" },
  },
};

export async function loader() {
  return redirect("/bookings");
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const intent = String((await formDataOf(request)).get("intent") ?? "");
  // Only the table's own keys: "__proto__" or "constructor" must not reach the state machine.
  const chosen = Object.hasOwn(events, intent) ? events[intent] : undefined;
  if (!chosen) throw new Response("Bad request", { status: 400 });
  const result = await transition(params.bookingId ?? "", { kind: chosen.as, userId: user.id }, chosen.event);
  if (!result.ok) {
    if (result.refusal === "notFound") throw new Response("Not found", { status: 404 });
    return redirectWithToast("/bookings", { type: "error", title: refusalKey(result.refusal) });
  }
  return redirectWithToast("/bookings", { type: "success", ...chosen.toast });
}
