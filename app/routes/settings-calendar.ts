import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { renewCalendarFeed, stopCalendarFeed } from "~/features/calendar/index.server";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";

// The settings page's calendar section posts here: make (or replace) the secret address, or turn it off.
export const loader = () => redirect("/settings");

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const intent = (await formDataOf(request)).get("intent");
  if (intent === "renew") {
    await renewCalendarFeed(user.id);
    return redirectWithToast("/settings#calendar", { type: "success", title: "settings:calendar.renewed" });
  }
  if (intent === "stop") {
    await stopCalendarFeed(user.id);
    return redirectWithToast("/settings#calendar", { type: "success", title: "settings:calendar.stopped" });
  }
  return redirectWithToast("/settings#calendar", { type: "error", title: "settings:unknownAction" });
}
