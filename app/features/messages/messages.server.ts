import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "~db/schema";
import { db, lockedForDecision, preparedQuery } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { recordEvents } from "~/platform/events/events.server";
import { deliverSoon } from "~/platform/email.server";
import {
  enqueueNewsEmail,
  markMessageNotificationsRead,
  notify,
  replaceMessagePreview,
} from "~/features/notifications/index.server";
import { isLanguage } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { photoUrl, profilePhotoKey } from "~/features/media/index.server";
import { hasBlocked, isInactive } from "~/features/safety/index.server";

import type { StoredAttachment } from "./attachments.server";
import { MESSAGE_MAX } from "./schema";

const pair = (one: string, two: string) => (one < two ? [one, two] : [two, one]) as [string, string];

export async function mayTalk(one: string, two: string, database: Kysely<Database> = db): Promise<boolean> {
  if (one === two) return false;
  const [a, b] = pair(one, two);
  const match = await database
    .selectFrom("matches")
    .select("id")
    .where("user_a_id", "=", a)
    .where("user_b_id", "=", b)
    .executeTakeFirst();
  if (match) return true;
  const booking = await database
    .selectFrom("bookings")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("owner_id", "=", one), eb("sitter_id", "=", two)]),
        eb.and([eb("owner_id", "=", two), eb("sitter_id", "=", one)]),
      ]),
    )
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
  const row = await database
    .selectFrom("conversations")
    .select("id")
    .where("user_a_id", "=", a)
    .where("user_b_id", "=", b)
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * "gone": the other person blocked the viewer, so the chat is not there for the viewer at all.
 * "closed": the viewer blocked them, or they are suspended: the history stays, nothing new is sent.
 */
export type ChatState = "open" | "closed" | "gone";

export async function chatState(viewerId: string, otherId: string): Promise<ChatState> {
  if (await hasBlocked(otherId, viewerId)) return "gone";
  if ((await hasBlocked(viewerId, otherId)) || (await isInactive(otherId))) return "closed";
  return "open";
}

export async function conversationWith(viewerId: string, otherId: string): Promise<string | null> {
  if (!(await mayTalk(viewerId, otherId))) return null;
  const state = await chatState(viewerId, otherId);
  if (state === "gone") return null;
  if (state === "closed") {
    const [a, b] = pair(viewerId, otherId);
    const existing = await db
      .selectFrom("conversations")
      .select("id")
      .where("user_a_id", "=", a)
      .where("user_b_id", "=", b)
      .executeTakeFirst();
    return existing?.id ?? null;
  }
  return ensureConversation(viewerId, otherId);
}

async function membership(viewerId: string, conversationId: string) {
  const conversation = await db
    .selectFrom("conversations")
    .selectAll()
    .where("id", "=", conversationId)
    .executeTakeFirst();
  if (!conversation || (conversation.user_a_id !== viewerId && conversation.user_b_id !== viewerId)) return null;
  return {
    ...conversation,
    otherId: conversation.user_a_id === viewerId ? conversation.user_b_id : conversation.user_a_id,
  };
}

export interface ConversationSummary {
  id: string;
  activityAt: string;
  other: { id: string; name: string; photo: string | null; label: "owner" | "companion" };
  lastMessage: { body: string; at: string; mine: boolean; removed: boolean } | null;
  unread: number;
  bookingStatus: string | null;
}

/** Where a page of the conversation list ends: the last row's activity time and id (the list is newest first). */
export interface ConversationCursor {
  at: string;
  id: string;
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z)~([\w-]{1,64})$/;

export const cursorText = (cursor: ConversationCursor) => `${cursor.at}~${cursor.id}`;

/** A cursor from a URL; anything else (edited, truncated, hostile) is no cursor: the first page. */
export function parseCursor(text: string | null): ConversationCursor | null {
  const match = text && text.length <= 100 ? CURSOR.exec(text) : null;
  return match ? { at: match[1]!, id: match[2]! } : null;
}

export const CONVERSATION_PAGE = 30;

/** A page of the list, newest first, and the cursor of the next (older) page when there is one. */
export async function conversationPage(
  userId: string,
  after: ConversationCursor | null,
  size = CONVERSATION_PAGE,
): Promise<{ conversations: ConversationSummary[]; earlier: string | null }> {
  const rows = await listConversations(userId, { after, limit: size + 1 });
  const conversations = rows.slice(0, size);
  const last = conversations.at(-1);
  return {
    conversations,
    earlier: rows.length > size && last ? cursorText({ at: last.activityAt, id: last.id }) : null,
  };
}

interface ListArgs {
  userId: string;
  limit: number;
  afterAt: string;
  afterId: string;
}

// One query: the page is chosen first, so the details are looked up for those only, each through an index.
// Two shapes (the first page, and a page after a cursor), each built once.
function conversationListQuery(after: boolean) {
  return preparedQuery(({ userId, limit, afterAt, afterId }: ListArgs) =>
    db
      .with("page", (qb) => {
        // Each side of the pair read newest first from its own index (a page's worth each), then merged.
        const side = (mine: "user_a_id" | "user_b_id", theirs: "user_a_id" | "user_b_id") => {
          let page = qb
            .selectFrom("conversations")
            .select((eb) => [
              "id",
              eb.ref(theirs).as("other_id"),
              eb.fn.coalesce("last_message_at", "created_at").as("activity_at"),
            ])
            .where(mine, "=", userId)
            // A conversation with someone who blocked the viewer is gone from their list.
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom("blocks")
                    .select("blocks.blocker_id")
                    .where("blocks.blocked_id", "=", userId)
                    .whereRef("blocks.blocker_id", "=", `conversations.${theirs}`),
                ),
              ),
            );
          if (after) {
            page = page.where((eb) => {
              const activity = eb.fn.coalesce("last_message_at", "created_at");
              return eb.or([eb(activity, "<", afterAt), eb.and([eb(activity, "=", afterAt), eb("id", "<", afterId)])]);
            });
          }
          return page
            .orderBy((eb) => eb.fn.coalesce("last_message_at", "created_at"), "desc")
            .orderBy("id", "desc")
            .limit(limit);
        };
        return qb
          .selectFrom((eb) =>
            eb
              .selectFrom(side("user_a_id", "user_b_id").as("a"))
              .selectAll()
              .unionAll(eb.selectFrom(side("user_b_id", "user_a_id").as("b")).selectAll())
              .as("both"),
          )
          .selectAll()
          .orderBy("activity_at", "desc")
          .orderBy("id", "desc")
          .limit(limit);
      })
      .selectFrom("page as c")
      .innerJoin("users as o", "o.id", "c.other_id")
      .leftJoin("conversation_reads as r", (join) =>
        join.onRef("r.conversation_id", "=", "c.id").on("r.user_id", "=", userId),
      )
      .leftJoin("messages as last", (join) =>
        join.on((eb) =>
          eb(
            "last.id",
            "=",
            eb
              .selectFrom("messages as m")
              .select((m) => m.fn.max("m.id").as("id"))
              .whereRef("m.conversation_id", "=", "c.id"),
          ),
        ),
      )
      .select((eb) => [
        "c.id",
        "c.activity_at",
        "o.id as other_id",
        "o.name as other_name",
        "o.role as other_role",
        "last.body as last_body",
        "last.created_at as last_at",
        "last.sender_id as last_sender_id",
        "last.hidden_at as last_hidden_at",
        // Kept as messages are sent and read, as the unread total in the navigation is.
        "r.unread_count as unread",
        profilePhotoKey("o.id").as("photo_key"),
        // The pair's latest booking, whichever of the two booked: each direction read from the pair's index.
        eb
          .selectFrom((inner) =>
            inner
              .selectFrom("bookings as b")
              .select(["b.status", "b.created_at"])
              .where("b.owner_id", "=", userId)
              .whereRef("b.sitter_id", "=", "o.id")
              .unionAll(
                inner
                  .selectFrom("bookings as b")
                  .select(["b.status", "b.created_at"])
                  .whereRef("b.owner_id", "=", "o.id")
                  .where("b.sitter_id", "=", userId),
              )
              .as("pair"),
          )
          .select("pair.status")
          .orderBy("pair.created_at", "desc")
          .limit(1)
          .as("booking_status"),
      ])
      .orderBy("c.activity_at", "desc")
      .orderBy("c.id", "desc"),
  );
}

const firstConversations = conversationListQuery(false);
const laterConversations = conversationListQuery(true);

export async function listConversations(
  userId: string,
  { after = null, limit = 100 }: { after?: ConversationCursor | null; limit?: number } = {},
): Promise<ConversationSummary[]> {
  const rows = after
    ? await laterConversations.all({ userId, limit, afterAt: after.at, afterId: after.id })
    : await firstConversations.all({ userId, limit, afterAt: "", afterId: "" });
  return rows.map((row) => ({
    id: row.id,
    activityAt: row.activity_at,
    other: {
      id: row.other_id,
      name: row.other_name,
      photo: row.photo_key ? photoUrl(row.photo_key) : null,
      label: row.other_role === "owner" ? "owner" : "companion",
    },
    lastMessage:
      row.last_body !== null && row.last_at !== null
        ? {
            body: row.last_hidden_at ? "" : row.last_body,
            at: row.last_at,
            mine: row.last_sender_id === userId,
            removed: Boolean(row.last_hidden_at),
          }
        : null,
    unread: Number(row.unread ?? 0),
    bookingStatus: row.booking_status ?? null,
  }));
}

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

async function lockedConversation(trx: Transaction<Database>, conversationId: string) {
  await trx
    .selectFrom("conversations")
    .select("id")
    .where("id", "=", conversationId)
    .$call(lockedForDecision)
    .execute();
}

export async function markConversationRead(viewerId: string, conversationId: string): Promise<void> {
  const conversation = await membership(viewerId, conversationId);
  if (!conversation) return;
  await db.transaction().execute(async (trx) => {
    // Read after the conversation is locked: a message sent meanwhile is either read here or counted as unread.
    await lockedConversation(trx, conversationId);
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
    await lockedConversation(trx, conversationId);
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

/** A card in the pair's conversation (a visit report), written in the caller's transaction. */
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

/**
 * An operator hides a message; false when it was already hidden. The notification that announced it quoted
 * it: its preview now says it was removed, in the recipient's language.
 */
export async function hideMessage(trx: Kysely<Database>, id: number, operatorId: string, at: string): Promise<boolean> {
  const hidden = await trx
    .updateTable("messages")
    .set({ hidden_at: at, hidden_by: operatorId })
    .where("id", "=", id)
    .where("hidden_at", "is", null)
    .executeTakeFirst();
  const message = await trx
    .selectFrom("messages as m")
    .innerJoin("conversations as c", "c.id", "m.conversation_id")
    .select(["m.sender_id", "m.body", "c.user_a_id", "c.user_b_id"])
    .where("m.id", "=", id)
    .executeTakeFirst();
  if (message) {
    const recipientId = message.user_a_id === message.sender_id ? message.user_b_id : message.user_a_id;
    const recipient = await trx.selectFrom("users").select("language").where("id", "=", recipientId).executeTakeFirst();
    const t = await translatorFor(isLanguage(recipient?.language) ? recipient.language : "en", "safety");
    await replaceMessagePreview(trx, { recipientId, senderId: message.sender_id, body: message.body }, t("removed"));
  }
  return Number(hidden.numUpdatedRows) > 0;
}
