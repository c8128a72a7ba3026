import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { advanceClock, resetClockAfterEach, startOfAFreshDay } from "~/testing/clock";
import { takeToast } from "~/platform/toast.server";
import { signUp } from "~/features/auth/index.server";
import { updateProfile } from "~/features/profiles/index.server";
import { handleDeckAction } from "./deck-actions.server";
import { deckFor } from "./deck.server";
import { deckCardText } from "./deck-card";
import {
  coarsen,
  greatCircleKm,
  shownKilometres,
  type Coordinates,
  positionChangeLimit,
} from "~/features/geo/index.server";
import { person } from "~/testing/people";
import { offset, randomFrom } from "~/testing/places";

const DAY = 24 * 60 * 60 * 1000;
const IN_VALENCIA = { city: "Valencia", postalCode: "46001", columns: { browse_mode: "global" } } as const;

const reload = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const positionOf = async (id: string) => {
  const { latitude, longitude } = await reload(id);
  return { latitude, longitude };
};

async function postPosition(userId: string, at: Coordinates) {
  const form = new FormData();
  for (const [key, value] of Object.entries({
    intent: "location",
    latitude: String(at.latitude),
    longitude: String(at.longitude),
    tab: "sitters",
  }))
    form.set(key, value);
  const response = await handleDeckAction(await reload(userId), form);
  const cookie = response.headers.get("Set-Cookie");
  const { toast } = await takeToast(
    new Request("http://localhost/", { headers: cookie ? { Cookie: cookie.split(";")[0]! } : {} }),
  );
  return { status: response.status, location: response.headers.get("Location"), toast };
}

resetClockAfterEach();

describe("every writer stores the coarse position", () => {
  it("sign-up, a device's position, a city on the profile and location turned off", async () => {
    const email = `${randomUUID()}@example.com`;
    const created = await signUp(
      {
        role: "owner",
        name: "Olga",
        city: "Valencia",
        postalCode: "46001",
        phone: "600",
        email,
        password: "walkies-at-dawn-42",
      },
      "en",
    );
    expect(created.status).toBe("created");
    const id = created.status === "created" ? created.user.id : "";
    const isCoarse = async () => {
      const { latitude, longitude } = await positionOf(id);
      expect(latitude).not.toBeNull();
      expect(coarsen({ latitude: latitude!, longitude: longitude! })).toEqual({ latitude, longitude });
      return { latitude, longitude };
    };
    const atSignUp = await isCoarse();
    await postPosition(id, { latitude: 39.4812345, longitude: -0.3598765 });
    expect(await isCoarse()).toEqual(coarsen({ latitude: 39.4812345, longitude: -0.3598765 }));
    const denied = new FormData();
    denied.set("intent", "location-error");
    denied.set("code", "denied");
    await handleDeckAction(await reload(id), denied);
    expect(await isCoarse()).toEqual(atSignUp);
    await updateProfile(id, {
      name: "Olga",
      phone: "600",
      city: "Zaragoza",
      postalCode: "50001",
      bio: "",
      timeZone: "Europe/Madrid",
    });
    expect(await isCoarse()).not.toEqual(atSignUp);
  });
});

describe("how often a person may move", () => {
  const VALENCIA: Coordinates = { latitude: 39.4699, longitude: -0.3763 };

  it(`allows ${positionChangeLimit.max} moves a day; the next is refused with a message and the deck keeps the last position`, async () => {
    expect(positionChangeLimit.max).toBe(10);
    startOfAFreshDay();
    const sitter = await person("sitter", { ...IN_VALENCIA, at: coarsen(offset(VALENCIA, 0, 30)) });
    const owner = await person("owner", IN_VALENCIA);
    const places = Array.from({ length: positionChangeLimit.max + 1 }, (_, index) => offset(VALENCIA, index * 2, 0));
    for (const place of places.slice(0, -1)) {
      expect(await postPosition(owner.id, place)).toMatchObject({ status: 302, toast: { type: "success" } });
      expect(await positionOf(owner.id)).toEqual(coarsen(place));
    }
    const last = coarsen(places.at(-2)!);

    const refused = await postPosition(owner.id, places.at(-1)!);
    expect(refused).toMatchObject({
      status: 302,
      location: "/dashboard?tab=sitters",
      toast: {
        type: "error",
        title: "discovery:location.tooOften",
        description: "discovery:location.tooOftenBody",
        values: { limit: "10" },
      },
    });
    expect(await positionOf(owner.id)).toEqual(last);
    const deck = await deckFor(await reload(owner.id), "sitters");
    expect(deck.status === "cards" ? deck.cards.map((card) => [card.userId, card.distanceKm]) : []).toEqual([
      [sitter.id, shownKilometres(greatCircleKm(last, coarsen(offset(VALENCIA, 0, 30))))],
    ]);

    // Posting the place it is already in again (a phone on every visit) costs nothing, even now.
    for (let visit = 0; visit < 3; visit += 1) {
      expect(await postPosition(owner.id, offset(last, 0.1, -0.1))).toMatchObject({
        status: 302,
        toast: { type: "success" },
      });
    }
    expect(await positionOf(owner.id)).toEqual(last);

    // The next day the budget is back.
    advanceClock(DAY);
    expect(await postPosition(owner.id, places.at(-1)!)).toMatchObject({ toast: { type: "success" } });
    expect(await positionOf(owner.id)).toEqual(coarsen(places.at(-1)!));
  });

  it("the same cell posted again and again never uses the budget", async () => {
    startOfAFreshDay();
    const owner = await person("owner", IN_VALENCIA);
    for (let visit = 0; visit < positionChangeLimit.max * 3; visit += 1) {
      // Jitter of a few metres, as a phone's fixes have.
      const fix = offset(VALENCIA, (visit % 3) * 0.01, (visit % 2) * 0.01);
      expect(await postPosition(owner.id, fix)).toMatchObject({ toast: { type: "success" } });
    }
    expect(await positionOf(owner.id)).toEqual(coarsen(VALENCIA));
    expect(await postPosition(owner.id, offset(VALENCIA, 5, 5))).toMatchObject({ toast: { type: "success" } });
  });

  it("a new city on the profile is a move too: over the limit the profile is not saved; other edits and forgetting the device still work", async () => {
    startOfAFreshDay();
    const owner = await person("owner", IN_VALENCIA);
    for (let index = 0; index < positionChangeLimit.max; index += 1) {
      expect((await postPosition(owner.id, offset(VALENCIA, index * 2 + 2, 0))).toast?.type).toBe("success");
    }
    // Location turned off past the limit: never refused, but the move to the city's position would be
    // one more, so the device's cell is dropped and no position is kept.
    const denied = new FormData();
    denied.set("intent", "location-error");
    denied.set("code", "denied");
    await handleDeckAction(await reload(owner.id), denied);
    const valencia = await reload(owner.id);
    expect(valencia).toMatchObject({ location_enabled: 0, latitude: null, longitude: null });

    const edit = {
      name: "Olga",
      phone: "600",
      city: "Valencia",
      postalCode: "46001",
      bio: "Dogs welcome",
      timeZone: "Europe/Madrid",
    };
    expect(await updateProfile(owner.id, edit)).toBe("saved");
    expect((await reload(owner.id)).bio).toBe("Dogs welcome");

    expect(await updateProfile(owner.id, { ...edit, city: "Sevilla", bio: "Moved" })).toBe("too-often");
    const unchanged = await reload(owner.id);
    expect(unchanged).toMatchObject({
      city: "Valencia",
      bio: "Dogs welcome",
      latitude: valencia.latitude,
      longitude: valencia.longitude,
    });

    advanceClock(DAY);
    expect(await updateProfile(owner.id, { ...edit, city: "Sevilla", bio: "Moved" })).toBe("saved");
    const seville = await reload(owner.id);
    expect(seville.city).toBe("Sevilla");
    expect(coarsen({ latitude: seville.latitude!, longitude: seville.longitude! })).toEqual({
      latitude: seville.latitude,
      longitude: seville.longitude,
    });
    expect(
      greatCircleKm(
        { latitude: 37.39, longitude: -5.99 },
        { latitude: seville.latitude!, longitude: seville.longitude! },
      ),
    ).toBeLessThan(5);
  });

  it("turning location off within the limit goes back to the city's position, and counts as a move", async () => {
    startOfAFreshDay();
    const owner = await person("owner", IN_VALENCIA);
    expect((await postPosition(owner.id, offset(VALENCIA, 20, 0))).toast?.type).toBe("success");
    const denied = new FormData();
    denied.set("intent", "location-error");
    denied.set("code", "denied");
    await handleDeckAction(await reload(owner.id), denied);
    const back = await reload(owner.id);
    expect(back.location_enabled).toBe(0);
    expect(greatCircleKm(coarsen(VALENCIA), { latitude: back.latitude!, longitude: back.longitude! })).toBeLessThan(3);
    const moves = await db
      .selectFrom("rate_limit_hits")
      .select("at")
      .where("key", "=", `position:${owner.id}`)
      .execute();
    expect(moves).toHaveLength(2);
  });
});

describe("what the deck sends", () => {
  it("distances are whole kilometres or 'less than 1 km', never a decimal", async () => {
    const origin: Coordinates = { latitude: 43.2627, longitude: -2.9253 };
    const owner = await person("owner", { ...IN_VALENCIA, at: coarsen(origin) });
    const random = randomFrom(11);
    for (let i = 0; i < 12; i += 1) {
      const angle = random() * 2 * Math.PI;
      const km = i < 2 ? 0.2 : random() * 40;
      await person("sitter", {
        ...IN_VALENCIA,
        at: coarsen(offset(origin, km * Math.cos(angle), km * Math.sin(angle))),
      });
    }
    const deck = deckCardText(await deckFor(await reload(owner.id), "sitters", 50), "en");
    const cards = deck.status === "cards" ? deck.cards : [];
    expect(cards.length).toBeGreaterThanOrEqual(12);
    for (const card of cards) {
      expect(Number.isInteger(card.distanceKm)).toBe(true);
      expect(card.text.distance).toMatch(/^(< 1 km|[1-9]\d* km)$/);
      expect(card.text.distance).toBe(card.distanceKm === 0 ? "< 1 km" : `${card.distanceKm} km`);
    }
    expect(cards.some((card) => card.text.distance === "< 1 km")).toBe(true);
    // Nothing in the data has more than two decimals (coordinates, raw distances).
    expect(JSON.stringify(deck)).not.toMatch(/\d\.\d{3}/);
  });
});
