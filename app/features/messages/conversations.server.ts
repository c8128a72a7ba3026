// Who may talk to whom, the conversation rows between two people, and the conversation list a page at a time.
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { db, preparedQuery } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { photoUrl, profilePhotoKey } from "~/features/media/index.server";
import { hasBlocked, isInactive } from "~/features/safety/index.server";

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

export async function membership(viewerId: string, conversationId: string) {
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
