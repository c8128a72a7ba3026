// Reading a conversation and sending into it: the page of messages, read marks and unread counts, a message
// from a person and a card from the app.
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { db, lockRows, preparedQuery } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { recordEvents } from "~/platform/events/events.server";
import { deliverSoon } from "~/platform/email.server";
import { enqueueNewsEmail, markMessageNotificationsRead, notify } from "~/features/notifications/index.server";
import { photoUrl } from "~/features/media/index.server";

import type { StoredAttachment } from "./attachments.server";
import { chatState, ensureConversation, membership } from "./conversations.server";
import { MESSAGE_MAX } from "./schema";

export interface MessageView {
  id: number;
  mine: boolean;
  body: string;
  media: { url: string; previewUrl: string; type: "image" | "video" } | null;
  /** A card's link inside the app (a visit report), or null. */
  link: string | null;
  at: string;
  /** Removed by an operator: shown as "Removed by Trusted Sitters", its words and file never sent. */
  removed: boolean;
}

export const MESSAGE_PAGE = 50;

export interface OpenConversation {
  id: string;
  other: { id: string; name: string; label: "owner" | "companion" };
  messages: MessageView[];
  /** Older messages exist before the first one shown. */
  earlier: boolean;
  /** The viewer's latest message that the other person has read (their "Seen"), if any. */
  seenId: number | null;
  /** A block between the two: the history stays readable, nothing new can be sent. */
  closed: boolean;
}

/** The newest page of messages, or the page just before message `before` (an "Earlier messages" link). */
export async function readConversation(
  viewerId: string,
  conversationId: string,
  { before = null, limit = MESSAGE_PAGE }: { before?: number | null; limit?: number } = {},
): Promise<OpenConversation | null> {
  const conversation = await membership(viewerId, conversationId);
  if (!conversation) return null;
  const state = await chatState(viewerId, conversation.otherId);
  if (state === "gone") return null;
  let query = db.selectFrom("messages").selectAll().where("conversation_id", "=", conversationId);
  if (before !== null) query = query.where("id", "<", before);
  const rows = await query
    .orderBy("id", "desc")
    .limit(limit + 1)
    .execute();
  const shown = rows.slice(0, limit);
  const messages: MessageView[] = shown.reverse().map((row) => ({
    id: row.id,
    mine: row.sender_id === viewerId,
    body: row.hidden_at ? "" : row.body,
    media:
      row.media_key && row.media_type && !row.hidden_at
        ? {
            url: photoUrl(row.media_key),
            previewUrl: photoUrl(row.media_preview_key ?? row.media_key),
            type: row.media_type,
          }
        : null,
    link: row.card_link ?? null,
    at: row.created_at,
    removed: Boolean(row.hidden_at),
  }));
  const [other, seenId] = await Promise.all([
    db
      .selectFrom("users")
      .select(["id", "name", "role"])
      .where("id", "=", conversation.otherId)
      .executeTakeFirstOrThrow(),
    seenMessageId(conversationId, viewerId, conversation.otherId),
  ]);
  return {
    id: conversation.id,
    other: { id: other.id, name: other.name, label: other.role === "owner" ? "owner" : "companion" },
    messages,
    earlier: rows.length > limit,
    seenId,
    closed: state === "closed",
  };
}

async function seenMessageId(conversationId: string, viewerId: string, otherId: string): Promise<number | null> {
  const row = await db
    .selectFrom("messages as m")
    .innerJoin("conversation_reads as r", (join) =>
      join.onRef("r.conversation_id", "=", "m.conversation_id").on("r.user_id", "=", otherId),
    )
    .select((eb) => eb.fn.max("m.id").as("id"))
    .where("m.conversation_id", "=", conversationId)
    .where("m.sender_id", "=", viewerId)
    .whereRef("m.id", "<=", "r.last_read_message_id")
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function markConversationRead(viewerId: string, conversationId: string): Promise<void> {
  const conversation = await membership(viewerId, conversationId);
  if (!conversation) return;
  await db.transaction().execute(async (trx) => {
    // Read after the conversation is locked: a message sent meanwhile is either read here or counted as unread.
    await lockRows(trx, "conversations", [conversationId]);
    const last = await trx
      .selectFrom("messages")
      .select("id")
      .where("conversation_id", "=", conversationId)
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!last) return;
    const before = await trx
      .selectFrom("conversation_reads")
      .select("last_read_message_id")
      .where("conversation_id", "=", conversationId)
      .where("user_id", "=", viewerId)
      .executeTakeFirst();
    const from = before?.last_read_message_id ?? 0;
    await trx
      .insertInto("conversation_reads")
      .values({ conversation_id: conversationId, user_id: viewerId, last_read_message_id: last.id, unread_count: 0 })
      .onConflict((oc) =>
        oc.columns(["conversation_id", "user_id"]).doUpdateSet({ last_read_message_id: last.id, unread_count: 0 }),
      )
      .execute();
    if (from < last.id) {
      // Only news of the other person's own messages being read reaches them (their "Seen"); a re-read sends nothing.
      const theirs = await trx
        .selectFrom("messages")
        .select("id")
        .where("conversation_id", "=", conversationId)
        .where("sender_id", "=", conversation.otherId)
        .where("id", ">", from)
        .where("id", "<=", last.id)
        .executeTakeFirst();
      if (theirs)
        await recordEvents(
          [{ userId: conversation.otherId, type: "message", payload: { conversationId, seen: last.id } }],
          trx,
        );
    }
    await markMessageNotificationsRead(viewerId, conversation.otherId, trx);
  });
}

// Kept per conversation as messages are sent and read (conversation_reads.unread_count): a sum over the
// few rows with unread messages, not a count of messages on every page.
const unreadSum = preparedQuery((person: { userId: string }) =>
  db
    .selectFrom("conversation_reads")
    .select((eb) => eb.fn.sum<number | null>("unread_count").as("count"))
    .where("user_id", "=", person.userId)
    .where("unread_count", ">", 0),
);

export async function unreadMessageCount(userId: string): Promise<number> {
  return Number((await unreadSum.first({ userId }))?.count ?? 0);
}

export type SendResult =
  { status: "sent"; id: number } | { status: "not-found" } | { status: "empty" } | { status: "closed" };

export async function sendMessage(
  senderId: string,
  conversationId: string,
  text: string,
  media: StoredAttachment | null,
  emptyText: { image: string; video: string },
): Promise<SendResult> {
  const conversation = await membership(senderId, conversationId);
  if (!conversation) return { status: "not-found" };
  const state = await chatState(senderId, conversation.otherId);
  if (state === "gone") return { status: "not-found" };
  if (state === "closed") return { status: "closed" };
  const trimmed = text.trim().slice(0, MESSAGE_MAX);
  if (!trimmed && !media) return { status: "empty" };
  const body = trimmed || (media ? emptyText[media.type] : "");
  const id = await db.transaction().execute(async (trx) => {
    // One sender at a time per conversation, so its messages' ids follow the order they are counted in.
    await lockRows(trx, "conversations", [conversationId]);
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
    await countDelivery(trx, conversationId, senderId, conversation.otherId, message.id);
    const sender = await trx.selectFrom("users").select("name").where("id", "=", senderId).executeTakeFirstOrThrow();
    await notify(
      {
        userId: conversation.otherId,
        type: "message",
        data: { name: sender.name, preview: body.slice(0, 80) },
        link: `/messages?userId=${senderId}`,
        sourceUserId: senderId,
      },
      trx,
    );
    await enqueueNewsEmail(
      conversation.otherId,
      { kind: "messages", template: "message", link: `/messages?userId=${senderId}`, values: { name: sender.name } },
      trx,
    );
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

/** The sender has read up to their own message; the recipient has one more unread (conversation_reads.unread_count). */
async function countDelivery(
  database: Kysely<Database>,
  conversationId: string,
  senderId: string,
  recipientId: string,
  messageId: number,
): Promise<void> {
  await database
    .insertInto("conversation_reads")
    .values({ conversation_id: conversationId, user_id: senderId, last_read_message_id: messageId, unread_count: 0 })
    .onConflict((oc) =>
      oc.columns(["conversation_id", "user_id"]).doUpdateSet({ last_read_message_id: messageId, unread_count: 0 }),
    )
    .execute();
  await database
    .insertInto("conversation_reads")
    .values({ conversation_id: conversationId, user_id: recipientId, last_read_message_id: 0, unread_count: 1 })
    .onConflict((oc) =>
      oc
        .columns(["conversation_id", "user_id"])
        .doUpdateSet((eb) => ({ unread_count: eb("conversation_reads.unread_count", "+", 1) })),
    )
    .execute();
}

/** A card in the pair's conversation (a visit report), written in the caller's transaction. */
export async function postCard(
  database: Kysely<Database>,
  card: { senderId: string; recipientId: string; body: string; link: string },
): Promise<void> {
  const conversationId = await ensureConversation(card.senderId, card.recipientId, database);
  const at = nowIso();
  const message = await database
    .insertInto("messages")
    .values({
      conversation_id: conversationId,
      sender_id: card.senderId,
      body: card.body.slice(0, MESSAGE_MAX),
      media_key: null,
      media_type: null,
      media_preview_key: null,
      card_link: card.link,
      created_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await database.updateTable("conversations").set({ last_message_at: at }).where("id", "=", conversationId).execute();
  await countDelivery(database, conversationId, card.senderId, card.recipientId, message.id);
  const payload = { conversationId, messageId: message.id };
  await recordEvents(
    [
      { userId: card.recipientId, type: "message", payload },
      { userId: card.senderId, type: "message", payload },
    ],
    database,
  );
}
