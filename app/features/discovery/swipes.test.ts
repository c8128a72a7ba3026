import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { person, petOf } from "~/testing/people";
import { now } from "~/platform/clock.server";
import { advanceClock, resetClockAfterEach } from "~/testing/clock";
import { startOfDayIn } from "~/platform/time";
import { FREE_DAILY_LIKES, matchesOf, startOver, swipe } from "./swipes.server";

const notificationsOf = (userId: string) =>
  db.selectFrom("notifications").select("type").where("user_id", "=", userId).where("type", "=", "match").execute();

resetClockAfterEach();

describe("likes and matches", () => {
  it("an owner likes a sitter, the sitter likes the owner's pet: one match, both told", async () => {
    const owner = await person("owner");
    const sitter = await person("sitter");
    const pet = await petOf(owner.id);
    expect(await swipe(owner, { userId: sitter.id, petId: null }, "like")).toEqual({
      status: "recorded",
      newMatch: null,
    });
    const second = await swipe(sitter, { userId: owner.id, petId: pet }, "like");
    expect(second).toMatchObject({ status: "recorded", newMatch: { otherUserId: owner.id } });
    expect(await matchesOf(owner.id)).toHaveLength(1);
    expect(await notificationsOf(owner.id)).toHaveLength(1);
    expect(await notificationsOf(sitter.id)).toHaveLength(1);

    expect(await swipe(owner, { userId: sitter.id, petId: null }, "like")).toEqual({
      status: "recorded",
      newMatch: null,
    });
    expect(await matchesOf(sitter.id)).toHaveLength(1);
  });

  it("makes exactly one match when both like at the same moment", async () => {
    const owner = await person("owner");
    const sitter = await person("sitter");
    const pet = await petOf(owner.id);
    const results = await Promise.all([
      swipe(owner, { userId: sitter.id, petId: null }, "like"),
      swipe(sitter, { userId: owner.id, petId: pet }, "like"),
    ]);
    expect(results.filter((r) => r.status === "recorded" && r.newMatch)).toHaveLength(1);
    expect(await matchesOf(owner.id)).toHaveLength(1);
  });

  it("a pass never matches", async () => {
    const owner = await person("owner");
    const sitter = await person("sitter");
    const pet = await petOf(owner.id);
    await swipe(owner, { userId: sitter.id, petId: null }, "pass");
    expect(await swipe(sitter, { userId: owner.id, petId: pet }, "like")).toEqual({
      status: "recorded",
      newMatch: null,
    });
    expect(await matchesOf(owner.id)).toHaveLength(0);
  });

  it("refuses cards that are not in anyone's deck: oneself, owner to owner, a pet of someone else", async () => {
    const owner = await person("owner");
    const otherOwner = await person("owner");
    const sitter = await person("sitter");
    const strangersPet = await petOf(otherOwner.id);
    const both = await person("both");
    expect(await swipe(both, { userId: both.id, petId: null }, "like")).toEqual({ status: "not-found" });
    expect(await swipe(owner, { userId: otherOwner.id, petId: null }, "like")).toEqual({ status: "not-found" });
    expect(await swipe(sitter, { userId: owner.id, petId: strangersPet }, "like")).toEqual({ status: "not-found" });
    expect(await swipe(owner, { userId: randomUUID(), petId: null }, "like")).toEqual({ status: "not-found" });
    expect(
      await db.selectFrom("swipes").select("id").where("swiper_id", "in", [owner.id, sitter.id, both.id]).execute(),
    ).toHaveLength(0);
  });

  it("'Start Over' forgets likes and passes but keeps matches", async () => {
    const owner = await person("owner");
    const sitter = await person("sitter");
    const pet = await petOf(owner.id);
    await swipe(owner, { userId: sitter.id, petId: null }, "like");
    await swipe(sitter, { userId: owner.id, petId: pet }, "like");
    await startOver(owner.id);
    expect(await db.selectFrom("swipes").select("id").where("swiper_id", "=", owner.id).execute()).toHaveLength(0);
    expect(await matchesOf(owner.id)).toHaveLength(1);
  });
});

describe("daily like limit", () => {
  it(`allows ${FREE_DAILY_LIKES} likes a day on a free account, passes always, and resets at local midnight`, async () => {
    const owner = await person("owner", { timeZone: "Europe/Warsaw" });
    const sitters = await Promise.all(Array.from({ length: FREE_DAILY_LIKES + 2 }, () => person("sitter")));
    // Start right after local midnight so the whole test stays in one calendar day.
    const midnight = startOfDayIn(owner.time_zone, now()).getTime() + 24 * 3600_000;
    advanceClock(midnight - now().getTime() + 60_000);
    for (const sitter of sitters.slice(0, FREE_DAILY_LIKES)) {
      expect((await swipe(owner, { userId: sitter.id, petId: null }, "like")).status).toBe("recorded");
    }
    const extra = sitters[FREE_DAILY_LIKES]!;
    expect(await swipe(owner, { userId: extra.id, petId: null }, "like")).toEqual({ status: "limit-reached" });
    expect((await swipe(owner, { userId: extra.id, petId: null }, "pass")).status).toBe("recorded");
    expect((await swipe(owner, { userId: extra.id, petId: null }, "like", { unlimitedLikes: true })).status).toBe(
      "recorded",
    );
    // Forgetting the swipes with 'Start Over' gives no likes back.
    await startOver(owner.id);
    expect(await swipe(owner, { userId: sitters[0]!.id, petId: null }, "like")).toEqual({ status: "limit-reached" });
    advanceClock(24 * 3600_000);
    expect((await swipe(owner, { userId: sitters[FREE_DAILY_LIKES + 1]!.id, petId: null }, "like")).status).toBe(
      "recorded",
    );
  });
});

describe("startOfDayIn", () => {
  it("finds local midnight, also on the days clocks change", () => {
    expect(startOfDayIn("Europe/Madrid", new Date("2026-07-01T10:00:00Z")).toISOString()).toBe(
      "2026-06-30T22:00:00.000Z",
    );
    expect(startOfDayIn("Europe/Madrid", new Date("2026-01-15T23:30:00Z")).toISOString()).toBe(
      "2026-01-15T23:00:00.000Z",
    );
    expect(startOfDayIn("Europe/Madrid", new Date("2026-03-29T12:00:00Z")).toISOString()).toBe(
      "2026-03-28T23:00:00.000Z",
    );
    expect(startOfDayIn("Europe/Madrid", new Date("2026-10-25T12:00:00Z")).toISOString()).toBe(
      "2026-10-24T22:00:00.000Z",
    );
    expect(startOfDayIn("UTC", new Date("2026-05-05T05:05:05Z")).toISOString()).toBe("2026-05-05T00:00:00.000Z");
  });
});
