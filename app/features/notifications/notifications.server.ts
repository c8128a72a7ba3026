import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, NotificationType } from "~db/schema";
import { db, flag, jsonObject, jsonText, jsonWithText, preparedQuery } from "~/platform/db.server";
import { now, nowIso } from "~/platform/clock.server";
import { recordEvents } from "~/platform/events/events.server";
import { enqueuePush } from "~/features/push/index.server";
import { daysAgoIn } from "~/platform/time";
import { NOTIFICATION_TABS, type NotificationTab } from "./tabs";
import { pushOf } from "./push-news.server";

export interface NewNotification {
  userId: string;
  type: NotificationType;
  data?: Record<string, string | number>;
  link?: string;
  /** Whose act this tells of (a message's sender): a push about it is withheld once they are blocked or suspended. */
  sourceUserId?: string;
}

export async function notify(notification: NewNotification, database: Kysely<Database> = db): Promise<void> {
  await database
    .insertInto("notifications")
    .values({
      id: randomUUID(),
      user_id: notification.userId,
      type: notification.type,
      data: jsonObject.write(notification.data ?? {}),
      link: notification.link ?? null,
      created_at: nowIso(),
    })
    .execute();
  await recordEvents(
    [{ userId: notification.userId, type: "notification", payload: { type: notification.type } }],
    database,
  );
  const push = pushOf(notification);
  if (push) await enqueuePush(push, database);
}

const unreadCount = preparedQuery((person: { userId: string }) =>
  db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", person.userId)
    .where("is_read", "=", 0),
);

export async function countUnread(userId: string): Promise<number> {
  return Number((await unreadCount.first({ userId }))?.count ?? 0);
}

export type NotificationGroup = "today" | "yesterday" | "earlier";

export interface NotificationView {
  id: string;
  type: NotificationType;
  data: Record<string, string | number>;
  read: boolean;
  at: string;
}

const LIST_LIMIT = 100;

export async function listNotifications(user: { id: string; time_zone: string }, tab: NotificationTab) {
  const types = NOTIFICATION_TABS[tab];
  let query = db.selectFrom("notifications").selectAll().where("user_id", "=", user.id);
  if (types) query = query.where("type", "in", types);
  const rows = await query.orderBy("created_at", "desc").orderBy("id").limit(LIST_LIMIT).execute();
  const reference = now();
  const groups: { group: NotificationGroup; items: NotificationView[] }[] = [];
  for (const row of rows) {
    const days = daysAgoIn(user.time_zone, new Date(row.created_at), reference);
    const group: NotificationGroup = days <= 0 ? "today" : days === 1 ? "yesterday" : "earlier";
    if (groups.at(-1)?.group !== group) groups.push({ group, items: [] });
    groups.at(-1)!.items.push({
      id: row.id,
      type: row.type,
      data: parseData(row.data),
      read: flag.read(row.is_read),
      at: row.created_at,
    });
  }
  return groups;
}

function parseData(json: string): Record<string, string | number> {
  try {
    return jsonObject.read(json) as Record<string, string | number>;
  } catch {
    return {};
  }
}

export async function openNotification(userId: string, id: string): Promise<{ link: string } | null> {
  const row = await db
    .selectFrom("notifications")
    .select(["id", "link"])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  await db
    .updateTable("notifications")
    .set({ is_read: flag.write(true) })
    .where("id", "=", row.id)
    .execute();
  await recordEvents([{ userId, type: "notification", payload: { read: row.id } }]);
  return { link: safeLink(row.link) };
}

// Links are written by the server, but only paths inside the app are ever followed.
function safeLink(link: string | null): string {
  return link && link.startsWith("/") && !link.startsWith("//") ? link : "/notifications";
}

export async function markAllRead(userId: string, tab: NotificationTab = "all"): Promise<number> {
  const types = NOTIFICATION_TABS[tab];
  let query = db
    .updateTable("notifications")
    .set({ is_read: 1 })
    .where("user_id", "=", userId)
    .where("is_read", "=", 0);
  if (types) query = query.where("type", "in", types);
  const result = await query.executeTakeFirst();
  const changed = Number(result.numUpdatedRows);
  if (changed > 0) await recordEvents([{ userId, type: "notification", payload: { read: "all" } }]);
  return changed;
}

export async function markMessageNotificationsRead(
  userId: string,
  fromUserId: string,
  database: Kysely<Database> = db,
): Promise<void> {
  await database
    .updateTable("notifications")
    .set({ is_read: 1 })
    .where("user_id", "=", userId)
    .where("type", "=", "message")
    .where("is_read", "=", 0)
    .where("link", "=", `/messages?userId=${fromUserId}`)
    .execute();
}

export async function setSounds(userId: string, enabled: boolean): Promise<void> {
  await db
    .updateTable("users")
    .set({ sounds_enabled: flag.write(enabled) })
    .where("id", "=", userId)
    .execute();
}

/** The preview of a message in its recipient's notifications replaced (an operator hid the message). */
export async function replaceMessagePreview(
  trx: Kysely<Database>,
  message: { recipientId: string; senderId: string; body: string },
  preview: string,
): Promise<void> {
  await trx
    .updateTable("notifications")
    .set({ data: jsonWithText("data", "preview", preview) })
    .where("user_id", "=", message.recipientId)
    .where("type", "=", "message")
    .where("link", "=", `/messages?userId=${message.senderId}`)
    .where(jsonText("data", "preview"), "=", message.body.slice(0, 80))
    .execute();
}
