import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { recordEvents } from "~/platform/events/events.server";
import { deliverSoon } from "~/platform/email.server";
import { enqueueNewsEmail, markMessageNotificationsRead, notify } from "~/features/notifications/index.server";
import { photoUrl } from "~/features/media/index.server";

import type { StoredAttachment } from "./attachments.server";
import { MESSAGE_MAX } from "./schema";

const pair = (one: string, two: string) => (one < two ? [one, two] : [two, one]) as [string, string];

export async function mayTalk(one: string, two: string, database: Kysely<Database> = db): Promise<boolean> {
  if (one === two) return false;
  const [a, b] = pair(one, two);
  const match = await database.selectFrom("matches").select("id").where("user_a_id", "=", a).where("user_b_id", "=", b).executeTakeFirst();
  if (match) return true;
  const booking = await database
    .selectFrom("bookings")
    .select("id")
    .where((eb) => eb.or([eb.and([eb("owner_id", "=", one), eb("sitter_id", "=", two)]), eb.and([eb("owner_id", "=", two), eb("sitter_id", "=", one)])]))
    .executeTakeFirst();
  return Boolean(booking);
}

export async function ensureConversation(one: string, two: string, database: Kysely<Database> = db): Promise<string> {
  const [a, b] = pair(one, two);
  await database
    .insertInto("conversations")
    .values({ id: randomUUID(), user_a_id: a, user_b_id: b, created_at: nowIso() })
    .onConflict((oc) => oc.columns(["user_a_id", "user_b_id"]).doNothing())
    .execute();
  const row = await database.selectFrom("conversations").select("id").where("user_a_id", "=", a).where("user_b_id", "=", b).executeTakeFirstOrThrow();
  return row.id;
}

export async function conversationWith(viewerId: string, otherId: string): Promise<string | null> {
  if (!(await mayTalk(viewerId, otherId))) return null;
  return ensureConversation(viewerId, otherId);
}

async function membership(viewerId: string, conversationId: string) {
  const conversation = await db.selectFrom("conversations").selectAll().where("id", "=", conversationId).executeTakeFirst();
  if (!conversation || (conversation.user_a_id !== viewerId && conversation.user_b_id !== viewerId)) return null;
  return { ...conversation, otherId: conversation.user_a_id === viewerId ? conversation.user_b_id : conversation.user_a_id };
}

export interface ConversationSummary {
  id: string;
  other: { id: string; name: string; photo: string | null; label: "owner" | "companion" };
  lastMessage: { body: string; at: string; mine: boolean } | null;
  unread: number;
  bookingStatus: string | null;
}

// One query: the page of 100 is chosen first, so the details are looked up for those only, each through an index.
export async function listConversations(userId: string): Promise<ConversationSummary[]> {
  const rows = await db
    .with("page", (qb) =>
      qb
        .selectFrom("conversations")
        .select((eb) => [
          "id",
          eb.case().when("user_a_id", "=", userId).then(eb.ref("user_b_id")).else(eb.ref("user_a_id")).end().as("other_id"),
          eb.fn.coalesce("last_message_at", "created_at").as("activity_at"),
        ])
        .where((eb) => eb.or([eb("user_a_id", "=", userId), eb("user_b_id", "=", userId)]))
        .orderBy("activity_at", "desc")
        .orderBy("id", "desc")
        .limit(100),
    )
    .selectFrom("page as c")
    .innerJoin("users as o", "o.id", "c.other_id")
    .leftJoin("conversation_reads as r", (join) => join.onRef("r.conversation_id", "=", "c.id").on("r.user_id", "=", userId))
    .leftJoin("messages as last", (join) =>
      join.on((eb) => eb("last.id", "=", eb.selectFrom("messages as m").select((m) => m.fn.max("m.id").as("id")).whereRef("m.conversation_id", "=", "c.id"))),
    )
    .select((eb) => [
      "c.id",
      "o.id as other_id",
      "o.name as other_name",
      "o.role as other_role",
      "last.body as last_body",
      "last.created_at as last_at",
      "last.sender_id as last_sender_id",
      eb
        .selectFrom("photos as p")
        .select("p.card_key")
        .whereRef("p.user_id", "=", "o.id")
        .where("p.pet_id", "is", null)
        .orderBy("p.position")
        .limit(1)
        .as("photo_key"),
      eb
        .selectFrom("messages as u")
        .select((u) => u.fn.countAll<number>().as("count"))
        .whereRef("u.conversation_id", "=", "c.id")
        .where("u.sender_id", "!=", userId)
        .where((u) => u("u.id", ">", u.fn.coalesce("r.last_read_message_id", u.lit(0))))
        .as("unread"),
      eb
        .selectFrom("bookings as b")
        .select("b.status")
        .where((b) =>
          b.or([
            b.and([b("b.owner_id", "=", userId), b("b.sitter_id", "=", b.ref("o.id"))]),
            b.and([b("b.owner_id", "=", b.ref("o.id")), b("b.sitter_id", "=", userId)]),
          ]),
        )
        .orderBy("b.created_at", "desc")
        .limit(1)
        .as("booking_status"),
    ])
    .orderBy("c.activity_at", "desc")
    .orderBy("c.id", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    other: { id: row.other_id, name: row.other_name, photo: row.photo_key ? photoUrl(row.photo_key) : null, label: row.other_role === "owner" ? "owner" : "companion" },
    lastMessage: row.last_body !== null && row.last_at !== null ? { body: row.last_body, at: row.last_at, mine: row.last_sender_id === userId } : null,
    unread: Number(row.unread ?? 0),
    bookingStatus: row.booking_status ?? null,
  }));
}

export interface MessageView {
  id: number;
  mine: boolean;
  body: string;
  media: { url: string; previewUrl: string; type: "image" | "video" } | null;
  at: string;
}

export async function readConversation(viewerId: string, conversationId: string, limit = 100) {
  const conversation = await membership(viewerId, conversationId);
  if (!conversation) return null;
  const rows = await db.selectFrom("messages").selectAll().where("conversation_id", "=", conversationId).orderBy("id", "desc").limit(limit).execute();
  const messages: MessageView[] = rows.reverse().map((row) => ({
    id: row.id,
    mine: row.sender_id === viewerId,
    body: row.body,
    media: row.media_key && row.media_type ? { url: photoUrl(row.media_key), previewUrl: photoUrl(row.media_preview_key ?? row.media_key), type: row.media_type } : null,
    at: row.created_at,
  }));
  return { id: conversation.id, otherId: conversation.otherId, messages };
}

export async function markConversationRead(viewerId: string, conversationId: string): Promise<void> {
  const conversation = await membership(viewerId, conversationId);
  if (!conversation) return;
  const last = await db.selectFrom("messages").select("id").where("conversation_id", "=", conversationId).orderBy("id", "desc").executeTakeFirst();
  if (!last) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("conversation_reads")
      .values({ conversation_id: conversationId, user_id: viewerId, last_read_message_id: last.id })
      .onConflict((oc) => oc.columns(["conversation_id", "user_id"]).doUpdateSet({ last_read_message_id: last.id }))
      .execute();
    await markMessageNotificationsRead(viewerId, conversation.otherId, trx);
  });
}

// Counted per conversation from where the person stopped reading, so the index reads only the unread messages.
export async function unreadMessageCount(userId: string): Promise<number> {
  const row = await db
    .selectFrom("conversations as c")
    .leftJoin("conversation_reads as r", (join) => join.onRef("r.conversation_id", "=", "c.id").on("r.user_id", "=", userId))
    .select((eb) =>
      eb.fn
        .sum<number | null>(
          eb
            .selectFrom("messages as m")
            .select((m) => m.fn.countAll<number>().as("count"))
            .whereRef("m.conversation_id", "=", "c.id")
            .where("m.sender_id", "!=", userId)
            .where((m) => m("m.id", ">", m.fn.coalesce("r.last_read_message_id", m.lit(0)))),
        )
        .as("count"),
    )
    .where((eb) => eb.or([eb("c.user_a_id", "=", userId), eb("c.user_b_id", "=", userId)]))
    .executeTakeFirstOrThrow();
  return Number(row.count ?? 0);
}

export type SendResult = { status: "sent"; id: number } | { status: "not-found" } | { status: "empty" };

export async function sendMessage(
  senderId: string,
  conversationId: string,
  text: string,
  media: StoredAttachment | null,
  emptyText: { image: string; video: string },
): Promise<SendResult> {
  const conversation = await membership(senderId, conversationId);
  if (!conversation) return { status: "not-found" };
  const trimmed = text.trim().slice(0, MESSAGE_MAX);
  if (!trimmed && !media) return { status: "empty" };
  const body = trimmed || (media ? emptyText[media.type] : "");
  const id = await db.transaction().execute(async (trx) => {
    const at = nowIso();
    const message = await trx
      .insertInto("messages")
      .values({
        conversation_id: conversationId,
        sender_id: senderId,
        body,
        media_key: media?.key ?? null,
        media_type: media?.type ?? null,
        media_preview_key: media?.previewKey ?? null,
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.updateTable("conversations").set({ last_message_at: at }).where("id", "=", conversationId).execute();
    await trx
      .insertInto("conversation_reads")
      .values({ conversation_id: conversationId, user_id: senderId, last_read_message_id: message.id })
      .onConflict((oc) => oc.columns(["conversation_id", "user_id"]).doUpdateSet({ last_read_message_id: message.id }))
      .execute();
    const sender = await trx.selectFrom("users").select("name").where("id", "=", senderId).executeTakeFirstOrThrow();
    await notify({ userId: conversation.otherId, type: "message", data: { name: sender.name, preview: body.slice(0, 80) }, link: `/messages?userId=${senderId}` }, trx);
    await enqueueNewsEmail(conversation.otherId, { kind: "messages", template: "message", link: `/messages?userId=${senderId}`, values: { name: sender.name } }, trx);
    const payload = { conversationId, messageId: message.id };
    await recordEvents(
      [
        { userId: conversation.otherId, type: "message", payload },
        { userId: senderId, type: "message", payload },
      ],
      trx,
    );
    return message.id;
  });
  deliverSoon();
  return { status: "sent", id };
}
