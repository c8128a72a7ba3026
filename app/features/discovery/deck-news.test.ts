import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { announceNewProfile } from "~/platform/events/deck-news.server";
import { bus } from "~/platform/events/bus.server";
import { joinHub } from "~/platform/events/hub.server";
import { person } from "~/testing/people";

const limits = { perSession: 5, perPerson: 5 };
const connect = (userId: string) => joinHub(userId, { sessionKey: "s", sentUpTo: Number.MAX_SAFE_INTEGER, write() {}, displace() {} }, limits);
const deckEvents = async (userId: string) =>
  (await db.selectFrom("live_events").select("id").where("user_id", "=", userId).where("type", "=", "deck").execute()).length;

describe("new profiles on open decks", () => {
  it("a finished sitter setup tells the owners who are connected, not sitters, not the newcomer, not those away", async () => {
    const [newcomer, watchingOwner, watchingBoth, watchingSitter, awayOwner] = [
      await person("sitter"),
      await person("owner"),
      await person("both"),
      await person("sitter"),
      await person("owner"),
    ];
    const leave = [newcomer, watchingOwner, watchingBoth, watchingSitter].map((who) => connect(who.id));
    try {
      await bus.listening();
      // Through the event bus: at once in one process, a NOTIFY round trip away on PostgreSQL. Each
      // instance writes its whole audience in one go, so once one person has the news, all have.
      await announceNewProfile(newcomer.id, "owners");
      await expect.poll(() => deckEvents(watchingOwner.id)).toBe(1);
      expect(await deckEvents(watchingBoth.id)).toBe(1);
      expect(await deckEvents(watchingSitter.id)).toBe(0);
      expect(await deckEvents(newcomer.id)).toBe(0);
      expect(await deckEvents(awayOwner.id)).toBe(0);

      await announceNewProfile(watchingOwner.id, "sitters");
      await expect.poll(() => deckEvents(watchingSitter.id)).toBe(1);
      expect(await deckEvents(newcomer.id)).toBe(1);
      expect(await deckEvents(watchingOwner.id)).toBe(1);
    } finally {
      for (const done of leave) done();
    }
  });
});
