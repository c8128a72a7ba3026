import type { PushNews } from "~/features/push/index.server";
import { connectedUserIds } from "~/platform/events/hub.server";
import { translatorFor } from "~/platform/i18n.server";
import { keyOf, notificationText } from "./notification-item";
import type { NewNotification } from "./notifications.server";

/** Booking news that cannot wait for the person to open the app: pushed to their devices. */
const PUSHED_BOOKING_KINDS = new Set([
  "accepted",
  "declined",
  "cancelledByOwner",
  "cancelledBySitter",
  "cancelledPayment",
  "holdFailed",
  "visitStarted",
  "visitReport",
  "problemReported",
  "disputeOpened",
  "notFree",
  "series_requested",
  "series_skipped",
  "series_changeProposed",
  "series_ended",
]);

/**
 * The push that goes with a notification, if its kind is pushed: booking requests and the booking
 * news above follow the person's "bookings" choice, messages and matches their "messages" one (the
 * choices their emails follow). The words are the notification's own, in the person's language.
 */
export function pushOf(notification: NewNotification): PushNews | null {
  const kind = String(notification.data?.kind ?? "");
  const preference =
    notification.type === "booking_request" ||
    (notification.type === "booking_status_update" && PUSHED_BOOKING_KINDS.has(kind))
      ? "bookings"
      : notification.type === "message" || notification.type === "match"
        ? "messages"
        : null;
  if (!preference) return null;
  // Someone reading the app now sees a message arrive there (streams of this instance).
  if (notification.type === "message" && connectedUserIds().includes(notification.userId)) return null;
  return {
    userId: notification.userId,
    preference,
    sourceUserId: notification.sourceUserId ?? null,
    link: notification.link ?? "/notifications",
    async render({ language, timeZone }) {
      const shown = notificationText(
        { id: "", type: notification.type, data: notification.data ?? {}, read: false, at: new Date().toISOString() },
        { language, timeZone },
      );
      const t = await translatorFor(language, "notifications");
      const values = {
        ...shown.data,
        when: shown.text.when,
        date: shown.text.date,
        refunded: shown.text.refunded,
        interpolation: { escapeValue: false },
      };
      const key = keyOf(shown);
      return {
        title: t(`${key}.title`, values),
        body: t(`${key}.${shown.text.refunded ? "messageWithAmount" : "message"}`, values),
      };
    },
  };
}
