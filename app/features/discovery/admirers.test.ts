import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { person } from "~/testing/people";
import { admirersOf } from "./admirers.server";

describe("who liked you", () => {
  it("lists who liked me and I have not answered yet", async () => {
    const me = await person("sitter");
    const fan = await person("owner");
    const answered = await person("owner");
    const at = now().toISOString();
    await db
      .insertInto("swipes")
      .values([
        { swiper_id: fan.id, target_user_id: me.id, target_pet_id: null, decision: "like", created_at: at },
        { swiper_id: answered.id, target_user_id: me.id, target_pet_id: null, decision: "like", created_at: at },
      ])
      .execute();
    const answeredPet = await db
      .insertInto("pets")
      .values({
        id: randomUUID(),
        owner_id: answered.id,
        name: "Bo",
        pet_type: "dog",
        age: "2",
        created_at: at,
        updated_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("swipes")
      .values({
        swiper_id: me.id,
        target_user_id: answered.id,
        target_pet_id: answeredPet.id,
        decision: "pass",
        created_at: at,
      })
      .execute();
    expect((await admirersOf(me.id)).map((admirer) => admirer.userId)).toEqual([fan.id]);
  });
});
