import type { NotificationType } from "~db/schema";

/** The seed's tabs: everything, messages (and the matches that open conversations), bookings (and their reviews). */
export const NOTIFICATION_TABS = {
  all: null,
  messages: ["message", "match"],
  bookings: ["booking_request", "booking_status_update", "review"],
} as const satisfies Record<string, readonly NotificationType[] | null>;

export type NotificationTab = keyof typeof NOTIFICATION_TABS;
