import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { handleDeckAction } from "./deck-actions.server";
import { coarsen, type Coordinates } from "~/features/geo/index.server";
import { person } from "~/testing/people";

const MADRID: Coordinates = { latitude: 40.4168, longitude: -3.7038 };

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
};

async function statusOf(promise: Promise<Response>): Promise<number> {
  try {
    return (await promise).status;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

const swipesOf = (userId: string) => db.selectFrom("swipes").selectAll().where("swiper_id", "=", userId).execute();
const reload = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("what the deck page accepts", () => {
  it("refuses malformed posts with a 400 and changes nothing", async () => {
    const owner = await person("owner", { at: MADRID });
    const sitter = await person("sitter", { at: MADRID });
    const malformed: Record<string, string>[] = [
      {},
      { intent: "like" },
      { intent: "destroy", userId: sitter.id },
      { intent: "like", userId: "x".repeat(5000) },
      { intent: "location", latitude: "91", longitude: "0" },
      { intent: "location", latitude: "'; drop table users; --", longitude: "2" },
      { intent: "location-error", code: "because" },
    ];
    for (const values of malformed) {
      expect(await statusOf(handleDeckAction(owner, form(values)))).toBe(400);
    }
    expect(await swipesOf(owner.id)).toEqual([]);
    expect((await reload(owner.id)).location_enabled).toBe(0);
  });

  it("a like on someone who does not exist, on oneself, or on another owner's pet id is refused with a toast", async () => {
    const owner = await person("owner", { at: MADRID });
    const otherOwner = await person("owner", { at: MADRID });
    for (const values of [
      { intent: "like", userId: randomUUID() },
      { intent: "like", userId: owner.id },
      { intent: "like", userId: otherOwner.id },
    ]) {
      const response = await handleDeckAction(owner, form({ ...values, tab: "sitters" }));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/dashboard?tab=sitters");
      expect(response.headers.get("Set-Cookie")).toContain("toast=");
    }
    expect(await swipesOf(owner.id)).toEqual([]);
  });

  it("a mutual like sends the second person to the match page", async () => {
    const owner = await person("owner", { at: MADRID });
    const sitter = await person("both", { at: MADRID });
    await db
      .insertInto("pets")
      .values({
        id: `pet-${owner.id}`,
        owner_id: owner.id,
        name: "Rex",
        pet_type: "dog",
        age: "3",
        created_at: owner.created_at,
        updated_at: owner.created_at,
      })
      .execute();
    expect((await handleDeckAction(owner, form({ intent: "like", userId: sitter.id }))).headers.get("Location")).toBe(
      "/dashboard",
    );
    const response = await handleDeckAction(
      sitter,
      form({ intent: "like", userId: owner.id, petId: `pet-${owner.id}`, tab: "pets" }),
    );
    expect(response.headers.get("Location")).toMatch(/^\/dashboard\/match\/[\w-]+\?tab=pets$/);
  });

  it("local mode needs coordinates; a device position turns it on; a refusal falls back to the city", async () => {
    const nowhere = await person("owner", { city: "Atlantis-under-the-sea" });
    await handleDeckAction(nowhere, form({ intent: "browse-local" }));
    expect((await reload(nowhere.id)).browse_mode).toBeNull();

    const owner = await person("owner", { city: "Valencia" });
    await handleDeckAction(owner, form({ intent: "location", latitude: "39.4699", longitude: "-0.3763" }));
    // Stored as the centre of its ~1 km cell, never to the metre.
    expect(await reload(owner.id)).toMatchObject({
      browse_mode: "local",
      location_enabled: 1,
      ...coarsen({ latitude: 39.4699, longitude: -0.3763 }),
    });
    expect((await reload(owner.id)).longitude).not.toBe(-0.3763);

    await handleDeckAction(await reload(owner.id), form({ intent: "location-error", code: "denied" }));
    const after = await reload(owner.id);
    expect(after.location_enabled).toBe(0);
    // Valencia, Spain, from the gazetteer: not the device's exact position any more.
    expect(after.latitude).toBeCloseTo(39.47, 1);
    expect(after.latitude).not.toBe(39.4699);

    await handleDeckAction(after, form({ intent: "browse-global" }));
    expect((await reload(owner.id)).browse_mode).toBe("global");
  });

  it("Start Over forgets likes and passes", async () => {
    const owner = await person("owner", { at: MADRID });
    const sitter = await person("sitter", { at: MADRID });
    await handleDeckAction(owner, form({ intent: "pass", userId: sitter.id }));
    expect(await swipesOf(owner.id)).toHaveLength(1);
    await handleDeckAction(owner, form({ intent: "start-over" }));
    expect(await swipesOf(owner.id)).toEqual([]);
  });
});
