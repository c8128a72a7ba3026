import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, NotificationType } from "~db/schema";
import { db } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { recordEvents } from "~/platform/events/events.server";

export interface NewNotification {
  userId: string;
  type: NotificationType;
  /** Values for the translated title and message (notifications:<type>.title / .message). */
  data?: Record<string, string | number>;
  link?: string;
}

export async function notify(notification: NewNotification, database: Kysely<Database> = db): Promise<void> {
  await database
    .insertInto("notifications")
    .values({
      id: randomUUID(),
      user_id: notification.userId,
      type: notification.type,
      data: JSON.stringify(notification.data ?? {}),
      link: notification.link ?? null,
      created_at: nowIso(),
    })
    .execute();
  // Open tabs refresh the badge and the list.
  await recordEvents([{ userId: notification.userId, type: "notification", payload: { type: notification.type } }], database);
}

export async function countUnread(userId: string): Promise<number> {
  const row = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("is_read", "=", 0)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
