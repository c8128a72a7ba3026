import { data } from "@remix-run/node";
import { longDay } from "~/platform/format";
import { redirectWithToast } from "~/platform/toast.server";
import type { CheckoutOutcome } from "./subscriptions.server";

const refusalToast = {
  samePlan: "subscription:errors.samePlan",
  pastDue: "subscription:errors.pastDue",
  chargePending: "subscription:errors.chargePending",
  switchAtPeriodEnd: "subscription:errors.switchAtPeriodEnd",
} as const;

/** A plan that cannot be bought now: a 404 for one that does not exist, else back to the plans saying why. */
export function checkoutRefused(reason: keyof typeof refusalToast | "notFound") {
  if (reason === "notFound") throw data("Not found", { status: 404 });
  return redirectWithToast("/subscription", { type: "error", title: refusalToast[reason] });
}

/**
 * Where a checkout that is settled leads: to the person's subscription with a toast saying until when it runs, or
 * back to the plans saying why not. Null when the page itself shows the answer (a refused card, a stale form).
 */
export function checkoutRedirect(outcome: CheckoutOutcome, timeZone: string, language: string) {
  const day = longDay(language, timeZone);
  switch (outcome.status) {
    case "active":
      return redirectWithToast("/subscription?tab=mine", {
        type: "success",
        title: "subscription:toasts.subscribed",
        description: "subscription:toasts.subscribedBody",
        values: { date: day(outcome.subscription.current_period_end) },
      });
    case "switched":
      return redirectWithToast("/subscription?tab=mine", {
        type: "success",
        title: "subscription:toasts.switched",
        description: "subscription:toasts.switchedBody",
        values: { date: day(outcome.subscription.current_period_end) },
      });
    case "refused":
      return outcome.reason === "stale" ? null : checkoutRefused(outcome.reason);
    default:
      return null;
  }
}
