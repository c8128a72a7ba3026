import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { matchOf, person } from "~/testing/people";
import { CONVERSATION_PAGE, conversationPage, ensureConversation, parseCursor } from "./conversations.server";
import { markConversationRead, readConversation, sendMessage } from "./messages.server";

const EMPTY_TEXT = { image: "📷 Image", video: "🎥 Video" };

async function matched() {
  const owner = await person("owner");
  const sitter = await person("sitter");
  await matchOf(owner.id, sitter.id);
  return { owner, sitter, conversationId: await ensureConversation(owner.id, sitter.id) };
}

const eventsOf = async (userId: string) =>
  (
    await db.selectFrom("live_events").select(["type", "payload"]).where("user_id", "=", userId).orderBy("id").execute()
  ).map((event) => ({ type: event.type, payload: JSON.parse(event.payload) as Record<string, unknown> }));

describe("the conversation list, a page at a time", () => {
  it("pages newest first with a cursor, 30 to a page by default, and every conversation appears exactly once, ties included", async () => {
    expect(CONVERSATION_PAGE).toBe(30);
    const me = await person("owner");
    const ids: string[] = [];
    for (let index = 0; index < 7; index += 1) ids.push(await ensureConversation(me.id, (await person("sitter")).id));
    // Three started in the same millisecond: the id decides their order, so none is skipped or repeated.
    await db
      .updateTable("conversations")
      .set({ created_at: "2026-01-01T10:00:00.000Z" })
      .where("id", "in", ids.slice(0, 3))
      .execute();
    const elsewhere = await matched();

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof conversationPage>> = await conversationPage(me.id, parseCursor(cursor), 3);
      expect(page.conversations.length).toBeLessThanOrEqual(3);
      seen.push(...page.conversations.map((conversation) => conversation.id));
      cursor = page.earlier;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual([...ids].sort());
    expect(seen).not.toContain(elsewhere.conversationId);
  });

  it("a message moves its conversation to the top of the first page", async () => {
    const me = await person("owner");
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) ids.push(await ensureConversation(me.id, (await person("sitter")).id));
    const oldest = (await conversationPage(me.id, null, 4)).conversations.at(-1)!;
    await sendMessage(oldest.other.id, oldest.id, "Back again", null, EMPTY_TEXT);
    expect((await conversationPage(me.id, null, 2)).conversations[0]).toMatchObject({
      id: oldest.id,
      lastMessage: { body: "Back again" },
    });
  });

  it("takes only well-formed cursors: anything else is the first page", () => {
    expect(parseCursor("2026-01-01T10:00:00.000Z~3f0c2f0e-1b1b-4c4c-9d9d-0123456789ab")).toEqual({
      at: "2026-01-01T10:00:00.000Z",
      id: "3f0c2f0e-1b1b-4c4c-9d9d-0123456789ab",
    });
    for (const bad of [
      null,
      "",
      "nonsense",
      "2026-01-01~x'; drop table conversations; --",
      `2026-01-01T10:00:00.000Z~${"a".repeat(200)}`,
      "<script>~1",
    ])
      expect(parseCursor(bad)).toBeNull();
  });
});

describe("earlier messages", () => {
  it("a page of the newest, then the page before a message, until the first", async () => {
    const { owner, sitter, conversationId } = await matched();
    for (let index = 1; index <= 7; index += 1)
      await sendMessage(index % 2 ? owner.id : sitter.id, conversationId, `Message ${index}`, null, EMPTY_TEXT);
    const bodies = (open: Awaited<ReturnType<typeof readConversation>>) =>
      open!.messages.map((message) => message.body);

    const newest = await readConversation(owner.id, conversationId, { limit: 3 });
    expect(bodies(newest)).toEqual(["Message 5", "Message 6", "Message 7"]);
    expect(newest!.earlier).toBe(true);
    const middle = await readConversation(owner.id, conversationId, { limit: 3, before: newest!.messages[0]!.id });
    expect(bodies(middle)).toEqual(["Message 2", "Message 3", "Message 4"]);
    expect(middle!.earlier).toBe(true);
    const first = await readConversation(owner.id, conversationId, { limit: 3, before: middle!.messages[0]!.id });
    expect(bodies(first)).toEqual(["Message 1"]);
    expect(first!.earlier).toBe(false);
    expect(newest!.other).toEqual({ id: sitter.id, name: sitter.name, label: "companion" });
    // Paging never reaches into another conversation or lets a stranger in.
    expect(await readConversation((await person("owner")).id, conversationId, { before: 999999 })).toBeNull();
  });
});

describe("Seen", () => {
  it("marks the viewer's latest message the other person has read, and tells the sender live only when their messages are newly read", async () => {
    const { owner, sitter, conversationId } = await matched();
    await sendMessage(owner.id, conversationId, "Are you free on Saturday?", null, EMPTY_TEXT);
    const first = (await readConversation(owner.id, conversationId))!.messages.at(-1)!.id;
    expect((await readConversation(owner.id, conversationId))!.seenId).toBeNull();

    await db.deleteFrom("live_events").execute();
    await markConversationRead(sitter.id, conversationId);
    expect((await readConversation(owner.id, conversationId))!.seenId).toBe(first);
    expect(await eventsOf(owner.id)).toEqual([{ type: "message", payload: { conversationId, seen: first } }]);
    // The reader's own view has no "Seen" of theirs: they have sent nothing.
    expect((await readConversation(sitter.id, conversationId))!.seenId).toBeNull();

    // Reading again, or the owner reading their own messages, tells nobody anything.
    await db.deleteFrom("live_events").execute();
    await markConversationRead(sitter.id, conversationId);
    await markConversationRead(owner.id, conversationId);
    expect(await eventsOf(owner.id)).toEqual([]);
    expect(await eventsOf(sitter.id)).toEqual([]);

    // A newer message not yet read: "Seen" stays on the one that was.
    await sendMessage(owner.id, conversationId, "Or Sunday?", null, EMPTY_TEXT);
    expect((await readConversation(owner.id, conversationId))!.seenId).toBe(first);
    await sendMessage(sitter.id, conversationId, "Saturday works", null, EMPTY_TEXT);
    await markConversationRead(sitter.id, conversationId);
    const second = (await readConversation(owner.id, conversationId))!.messages.find(
      (message) => message.body === "Or Sunday?",
    )!.id;
    expect((await readConversation(owner.id, conversationId))!.seenId).toBe(second);
  });
});
