import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { person, photoOf } from "~/testing/people";
import { recentMatches } from "./swipes.server";

describe("recent matches", () => {
  it("are the newest twelve, newest first, each with the other person and their first profile photo", async () => {
    const owner = await person("owner");
    const sitters = [];
    for (let i = 0; i < 15; i += 1) {
      const sitter = await person("sitter", { name: `Sitter ${i}` });
      sitters.push(sitter);
      // Pairs are stored in id order, so the owner is first in some and second in others.
      const [a, b] = owner.id < sitter.id ? [owner.id, sitter.id] : [sitter.id, owner.id];
      await db
        .insertInto("matches")
        .values({
          id: randomUUID(),
          user_a_id: a,
          user_b_id: b,
          created_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
        })
        .execute();
    }
    const photo = await photoOf(sitters[14]!.id, { position: 1 });
    await photoOf(sitters[14]!.id, { position: 2 });
    const stranger = await person("owner");
    await db
      .insertInto("matches")
      .values({
        id: randomUUID(),
        user_a_id: stranger.id < sitters[0]!.id ? stranger.id : sitters[0]!.id,
        user_b_id: stranger.id < sitters[0]!.id ? sitters[0]!.id : stranger.id,
        created_at: new Date(Date.UTC(2026, 1, 1)).toISOString(),
      })
      .execute();

    const recent = await recentMatches(owner.id);
    expect(recent.map((match) => match.name)).toEqual(
      sitters
        .slice(3)
        .reverse()
        .map((sitter) => sitter.name),
    );
    expect(recent.map((match) => match.userId)).toEqual(
      sitters
        .slice(3)
        .reverse()
        .map((sitter) => sitter.id),
    );
    expect(recent[0]!.photoKey).toBe(`${photo}-card.webp`);
    expect(recent[1]!.photoKey).toBeNull();
    expect(await recentMatches(owner.id, 2)).toHaveLength(2);
  });
});
