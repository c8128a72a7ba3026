// Written by features/notifications: the in-app notices.

import type { Generated, Selectable } from "kysely";
import type { IsoTime } from "./shared";

export type NotificationType =
  "welcome" | "booking_request" | "booking_status_update" | "message" | "review" | "match" | "subscription";

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: NotificationType;
  data: Generated<string>;
  link: string | null;
  is_read: Generated<number>;
  created_at: IsoTime;
}

export type Notification = Selectable<NotificationsTable>;

export interface NotificationTables {
  notifications: NotificationsTable;
}
