import type { NotificationType } from "~db/schema";

export const NOTIFICATION_TABS = {
  all: null,
  messages: ["message", "match"],
  bookings: ["booking_request", "booking_status_update", "review"],
} as const satisfies Record<string, readonly NotificationType[] | null>;

export type NotificationTab = keyof typeof NOTIFICATION_TABS;
