import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { announceNewProfile } from "~/platform/events/deck-news.server";
import { bus } from "~/platform/events/bus.server";
import { joinHub } from "~/platform/events/hub.server";
import { person } from "~/testing/people";
import { offerNewProfiles } from "./deck-news.server";

const limits = { perSession: 5, perPerson: 5 };
const connect = (userId: string) =>
  joinHub(userId, { sessionKey: "s", sentUpTo: Number.MAX_SAFE_INTEGER, write() {}, displace() {} }, limits);
const deckEvents = async (userId: string) =>
  (await db.selectFrom("live_events").select("id").where("user_id", "=", userId).where("type", "=", "deck").execute())
    .length;

const madrid = { latitude: 40.4168, longitude: -3.7038 };
const getafe = { latitude: 40.3057, longitude: -3.7329 }; // 12 km from Madrid
const toledo = { latitude: 39.8628, longitude: -4.0273 }; // 68 km
const oslo = { latitude: 59.9139, longitude: 10.7522 };

let stop: () => void;
beforeAll(() => void (stop = offerNewProfiles()));
afterAll(() => stop());

describe("new profiles on open decks", () => {
  it("a finished sitter setup tells the connected owners near it, within each one's distance, not sitters, not the newcomer, not those away", async () => {
    const newcomer = await person("sitter", { at: madrid });
    const watchingOwner = await person("owner", { at: getafe });
    const watchingBoth = await person("both", { at: madrid });
    const watchingSitter = await person("sitter", { at: madrid });
    const awayOwner = await person("owner", { at: madrid });
    const farOwner = await person("owner", { at: oslo, columns: { browse_mode: "global" } });
    const ownerWithNarrowFilter = await person("owner", { at: toledo, columns: { filter_max_distance_km: 50 } });
    const ownerWithWideFilter = await person("owner", { at: toledo, columns: { filter_max_distance_km: 100 } });
    const ownerWithoutPosition = await person("owner");
    const watching = [
      newcomer,
      watchingOwner,
      watchingBoth,
      watchingSitter,
      farOwner,
      ownerWithNarrowFilter,
      ownerWithWideFilter,
      ownerWithoutPosition,
    ];
    const leave = watching.map((who) => connect(who.id));
    try {
      await bus.listening();
      // Through the event bus: at once in one process, a NOTIFY round trip away on PostgreSQL. Each
      // instance writes its whole audience in one go, so once one person has the news, all have.
      await announceNewProfile(newcomer.id, "owners");
      await expect.poll(() => deckEvents(watchingOwner.id)).toBe(1);
      expect(await deckEvents(watchingBoth.id)).toBe(1);
      expect(await deckEvents(ownerWithWideFilter.id)).toBe(1);
      for (const untold of [watchingSitter, newcomer, awayOwner, farOwner, ownerWithNarrowFilter, ownerWithoutPosition])
        expect(await deckEvents(untold.id)).toBe(0);

      await announceNewProfile(watchingOwner.id, "sitters");
      await expect.poll(() => deckEvents(watchingSitter.id)).toBe(1);
      expect(await deckEvents(newcomer.id)).toBe(1);
      expect(await deckEvents(watchingOwner.id)).toBe(1);
    } finally {
      for (const done of leave) done();
    }
  });

  it("a newcomer without a position is offered to nobody", async () => {
    const newcomer = await person("sitter");
    const owner = await person("owner", { at: madrid });
    const leave = connect(owner.id);
    try {
      await bus.listening();
      await announceNewProfile(newcomer.id, "owners");
      const nearby = await person("sitter", { at: madrid });
      await announceNewProfile(nearby.id, "owners");
      await expect.poll(() => deckEvents(owner.id)).toBe(1);
    } finally {
      leave();
    }
  });
});
