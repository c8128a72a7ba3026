import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { matchOf, person } from "~/testing/people";
import { conversationWith } from "./conversations.server";
import { markConversationRead, sendMessage, unreadMessageCount } from "./messages.server";

const EMPTY_TEXT = { image: "📷 Image", video: "🎥 Video" };

async function matched(one: string, two: string) {
  await matchOf(one, two);
  return (await conversationWith(one, two))!;
}

/** The count as it was taken before the counters: every message from the other member after the last one read. */
async function countedFromMessages(userId: string): Promise<number> {
  const { rows } = await sql<{ count: number | null }>`
    select sum((select count(*) from messages m where m.conversation_id = c.id and m.sender_id != ${userId}
      and m.id > coalesce(r.last_read_message_id, 0))) as count
    from conversations c left join conversation_reads r on r.conversation_id = c.id and r.user_id = ${userId}
    where c.user_a_id = ${userId} or c.user_b_id = ${userId}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

describe("unread message counters", () => {
  it("agree with a count of the messages after every send and read, across conversations", async () => {
    const owner = await person("owner");
    const sitter = await person("sitter");
    const other = await person("sitter");
    const first = await matched(owner.id, sitter.id);
    const second = await matched(owner.id, other.id);
    const people = [owner.id, sitter.id, other.id];
    const check = async (expected: Record<string, number>) => {
      for (const id of people) {
        expect(await unreadMessageCount(id)).toBe(await countedFromMessages(id));
        if (id in expected) expect(await unreadMessageCount(id)).toBe(expected[id]);
      }
    };

    await check({ [owner.id]: 0, [sitter.id]: 0, [other.id]: 0 });
    for (let i = 0; i < 3; i += 1) await sendMessage(sitter.id, first, `Hello ${i}`, null, EMPTY_TEXT);
    await sendMessage(other.id, second, "Hi there", null, EMPTY_TEXT);
    await check({ [owner.id]: 4, [sitter.id]: 0, [other.id]: 0 });
    // Answering a conversation reads it.
    await sendMessage(owner.id, first, "Hi!", null, EMPTY_TEXT);
    await check({ [owner.id]: 1, [sitter.id]: 1 });
    await markConversationRead(owner.id, second);
    await check({ [owner.id]: 0, [other.id]: 0 });
    // Someone who is not a member reads nothing and changes nothing.
    await markConversationRead(other.id, first);
    await check({ [sitter.id]: 1, [other.id]: 0 });
    await markConversationRead(sitter.id, first);
    await check({ [owner.id]: 0, [sitter.id]: 0, [other.id]: 0 });
  });
});
