import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { premiumWithCard } from "~/testing/bookings";
import { person, petOf } from "~/testing/people";
import { connectionWith, likeBack } from "./like-back.server";

const like = (from: string, to: string, petId: string | null = null) =>
  db
    .insertInto("swipes")
    .values({
      swiper_id: from,
      target_user_id: to,
      target_pet_id: petId,
      decision: "like",
      created_at: now().toISOString(),
    })
    .execute();
const swipesBy = async (id: string) =>
  (await db.selectFrom("swipes").select("id").where("swiper_id", "=", id).execute()).length;

describe("like back", () => {
  it("a premium owner likes back a sitter who liked their pet: a match, once, whatever the double submissions", async () => {
    const owner = await person("owner");
    const pet = await petOf(owner.id);
    const fan = await person("sitter");
    await premiumWithCard(owner);
    await like(fan.id, owner.id, pet);
    expect(await connectionWith(owner, fan.id)).toBe("liked-you");

    const first = await likeBack(owner, fan.id);
    expect(first.status).toBe("matched");
    expect(await likeBack(owner, fan.id)).toEqual(first);
    expect(await swipesBy(owner.id)).toBe(1);
    expect(await connectionWith(owner, fan.id)).toBe("matched");
    expect(await connectionWith(fan, owner.id)).toBe("matched");
  });

  it("a premium sitter likes back an owner through one of their pets", async () => {
    const me = await person("sitter");
    const owner = await person("owner");
    const pet = await petOf(owner.id, { name: "Bo" });
    await premiumWithCard(me);
    await like(owner.id, me.id);
    expect((await likeBack(me, owner.id)).status).toBe("matched");
    const mine = await db
      .selectFrom("swipes")
      .select("target_pet_id")
      .where("swiper_id", "=", me.id)
      .executeTakeFirstOrThrow();
    expect(mine.target_pet_id).toBe(pet);
  });

  it("refuses and changes nothing: a free account, someone who never liked me, myself, a forged id, one already answered", async () => {
    const owner = await person("owner");
    const pet = await petOf(owner.id);
    const fan = await person("sitter");
    const stranger = await person("sitter");
    await like(fan.id, owner.id, pet);

    expect(await likeBack(owner, fan.id)).toEqual({ status: "locked" });
    expect(await connectionWith(owner, fan.id)).toBeNull();

    await premiumWithCard(owner);
    expect(await likeBack(owner, stranger.id)).toEqual({ status: "not-found" });
    expect(await likeBack(owner, owner.id)).toEqual({ status: "not-found" });
    expect(await likeBack(owner, "no-such-person")).toEqual({
      status: "not-found",
    });
    expect(await connectionWith(owner, stranger.id)).toBeNull();
    expect(await swipesBy(owner.id)).toBe(0);

    await db
      .insertInto("swipes")
      .values({
        swiper_id: owner.id,
        target_user_id: fan.id,
        target_pet_id: null,
        decision: "pass",
        created_at: now().toISOString(),
      })
      .execute();
    expect(await likeBack(owner, fan.id)).toEqual({ status: "already" });
    expect(await connectionWith(owner, fan.id)).toBeNull();
    expect(
      await db
        .selectFrom("matches")
        .select("id")
        .where((eb) => eb.or([eb("user_a_id", "=", owner.id), eb("user_b_id", "=", owner.id)]))
        .execute(),
    ).toEqual([]);
  });
});
