import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { dateTimeFormat, type Reader } from "~/platform/format";
import { formatMoney } from "~/platform/money";
import type { NotificationView } from "./notifications.server";

const BOOKING_KINDS = new Set([
  "accepted",
  "declined",
  "cancelledByOwner",
  "cancelledPayment",
  "expired",
  "started",
  "completed",
  "released",
  "holdFailed",
  "slotTaken",
  "unanswered",
  "accountClosed",
  "notFree",
]);

/** Problems, settlements, refunds and sitter cancellations: their words live in the disputes namespace. */
const DISPUTE_KINDS = new Set([
  "problemReported",
  "disputeReleased",
  "disputePartlyRefunded",
  "disputeRefunded",
  "operatorRefunded",
  "cancelledBySitter",
  "disputeOpened",
  "disputePost",
]);

// Visit news (check-in, the report at check-out) is worded by the care feature.
const VISIT_KINDS = new Set(["visitStarted", "visitReport"]);

const SUBSCRIPTION_KINDS = new Set(["renewalFailed", "unpaid", "ended"]);

export function keyOf(notification: NotificationView): string {
  const kind = String(notification.data.kind ?? "");
  if (notification.type === "review" && kind === "reply") return "disputes:notices.reviewReply";
  if (notification.type === "booking_status_update" && DISPUTE_KINDS.has(kind)) return `disputes:notices.${kind}`;
  if (notification.type === "booking_status_update" && VISIT_KINDS.has(kind)) return `care:notice.${kind}`;
  // Meet & greets are worded by their own feature.
  if (notification.type === "booking_status_update" && kind.startsWith("meetGreet_"))
    return `meetGreets:notice.${kind.slice("meetGreet_".length)}`;
  // Weekly care likewise.
  if (notification.type === "booking_status_update" && kind.startsWith("series_"))
    return `series:notice.${kind.slice("series_".length)}`;
  if (notification.type === "booking_status_update")
    return `types.booking_status_update.${BOOKING_KINDS.has(kind) ? kind : "other"}`;
  if (notification.type === "subscription")
    return `types.subscription.${SUBSCRIPTION_KINDS.has(kind) ? kind : "other"}`;
  return `types.${notification.type}`;
}

function dateOf(value: unknown): Date | null {
  const date = typeof value === "string" && value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

export type ShownNotification = NotificationView & {
  text: { when: string; date: string; time: string; refunded: string };
};

export function notificationText(notification: NotificationView, { language, timeZone }: Reader): ShownNotification {
  const start = dateOf(notification.data.start);
  const date = dateOf(notification.data.date);
  return {
    ...notification,
    text: {
      when: start ? dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone }).format(start) : "",
      date: date ? dateTimeFormat(language, { dateStyle: "medium", timeZone }).format(date) : "",
      time: dateTimeFormat(language, { timeStyle: "short", timeZone }).format(new Date(notification.at)),
      // A refund's amount, as the booking's money stood when the notice was written.
      refunded:
        typeof notification.data.refundedCents === "number"
          ? formatMoney(notification.data.refundedCents, language)
          : "",
    },
  };
}

export function NotificationItem({ notification }: { notification: ShownNotification }) {
  const { t } = useTranslation("notifications");
  const values = {
    ...notification.data,
    when: notification.text.when,
    date: notification.text.date,
    refunded: notification.text.refunded,
    plan: notification.data.plan ? t(`subscription:plans.${notification.data.plan}`) : "",
    // Names and previews are people's own words: shown as text, never as markup.
    interpolation: { escapeValue: false },
  };
  const key = keyOf(notification);
  return (
    <Form method="post">
      <input type="hidden" name="id" value={notification.id} />
      <button
        type="submit"
        name="intent"
        value="open"
        className={`flex w-full items-start gap-3 p-3 text-left hover:bg-stone-50 focus-visible:bg-stone-50 ${notification.read ? "" : "bg-brand-50"}`}
      >
        <span
          aria-hidden
          className={`mt-2 size-2.5 shrink-0 rounded-full ${notification.read ? "bg-transparent" : "bg-accent-500"}`}
        />
        <span className="min-w-0 flex-1">
          <span className="block font-semibold">
            {notification.read ? null : <span className="sr-only">{t("unread")}: </span>}
            {t(`${key}.title`, values)}
          </span>
          <span className="block text-sm break-words text-stone-700">
            {t(`${key}.${notification.text.refunded ? "messageWithAmount" : "message"}`, values)}
          </span>
          <time dateTime={notification.at} className="block text-xs text-stone-600">
            {notification.text.time}
          </time>
        </span>
      </button>
    </Form>
  );
}
