import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { clockTo, DAY, MINUTE, resetClockAfterEach, startOfAFreshDay } from "~/testing/clock";
import { person } from "~/testing/people";
import { offset } from "~/testing/places";
import { action, loader } from "~/routes/dashboard";
import { action as profileEditAction } from "~/routes/profile-edit";
import { coarsen, greatCircleKm, positionChangeLimit, type Coordinates } from "~/features/geo/index.server";

/**
 * The attack the deck must not allow: someone moves their own position to a few chosen points,
 * reads the distance to a victim on each card and solves for where the victim is. Everything
 * goes through the dashboard's own action and loader, and the attacker reads only what the
 * loader sends to the browser.
 */

/** The centre of one cell of the position grid, near Zaragoza (geo.server's coarsen). */
const CELL_CENTRE: Coordinates = { latitude: 41.65, longitude: -0.883304 };

/** A coordinate cut to three decimals (about 100 m), as any longer copy of it would start. */
const threeDecimals = (degrees: number) =>
  String(degrees).slice(0, String(Math.trunc(degrees)).length + (degrees < 0 && degrees > -1 ? 5 : 4));

const context = { cspNonce: "", clientAddress: "127.0.0.1" };

async function postPosition(cookie: string, at: Coordinates) {
  const body = new URLSearchParams({
    intent: "location",
    latitude: String(at.latitude),
    longitude: String(at.longitude),
    tab: "sitters",
  });
  const request = new Request("http://localhost/dashboard", {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  return (await action({ request, params: {}, context })) as Response;
}

async function postLocationError(cookie: string, code = "denied") {
  const body = new URLSearchParams({ intent: "location-error", code, tab: "sitters" });
  const request = new Request("http://localhost/dashboard", {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  return (await action({ request, params: {}, context })) as Response;
}

/** The profile form as the page posts it, with a new city. */
async function postCity(cookie: string, city: string) {
  const body = new URLSearchParams({
    name: "Mallory",
    phone: "+34 600 111 222",
    city,
    postalCode: "50001",
    bio: "",
    timeZone: "Europe/Madrid",
  });
  const request = new Request("http://localhost/profile/edit", {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
  try {
    const answer = await profileEditAction({ request, params: {}, context });
    return answer instanceof Response ? answer.status : (answer.init?.status ?? 200);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

async function deckData(cookie: string) {
  return loader({
    request: new Request("http://localhost/dashboard?tab=sitters", { headers: { Cookie: cookie } }),
    params: {},
    context,
  });
}

/**
 * The distances a card's figure allows: a whole number n stands for [n - 0.5, n + 0.5), 0 for
 * "less than 1 km"; anything with decimals is taken at its word.
 */
function allowed(observed: number): [number, number] {
  if (!Number.isInteger(observed)) return [observed - 0.002, observed + 0.002];
  return observed === 0 ? [0, 1] : [observed - 0.5, observed + 0.5];
}

interface Observation {
  from: Coordinates;
  km: number;
}

/**
 * The attacker's solver: every point of a 20 m lattice around the area that agrees with every
 * observation; the estimate is their centroid (or, when none agrees, the least-squares point).
 */
function solve(observations: Observation[], around: Coordinates, radiusKm = 5, stepKm = 0.02) {
  const consistent: Coordinates[] = [];
  let best = { at: around, squares: Infinity };
  const steps = Math.round(radiusKm / stepKm);
  for (let i = -steps; i <= steps; i += 1) {
    for (let j = -steps; j <= steps; j += 1) {
      const candidate = offset(around, i * stepKm, j * stepKm);
      let agrees = true;
      let squares = 0;
      for (const { from, km } of observations) {
        const distance = greatCircleKm(from, candidate);
        const [low, high] = allowed(km);
        if (distance < low || distance >= high) agrees = false;
        squares += (distance - (low + high) / 2) ** 2;
      }
      if (agrees) consistent.push(candidate);
      if (squares < best.squares) best = { at: candidate, squares };
    }
  }
  const estimate = consistent.length
    ? {
        latitude: consistent.reduce((sum, point) => sum + point.latitude, 0) / consistent.length,
        longitude: consistent.reduce((sum, point) => sum + point.longitude, 0) / consistent.length,
      }
    : best.at;
  let diameterKm = 0;
  for (const a of [consistent[0], consistent.at(-1)]) {
    for (const b of consistent) if (a) diameterKm = Math.max(diameterKm, greatCircleKm(a, b));
  }
  return { estimate, consistent: consistent.length, diameterKm };
}

describe("locating a member from the deck", () => {
  it("three or more chosen positions and the distances on the cards cannot place a member closer than 1 km", async () => {
    // Two members in the same cell, 1.1 km apart, each about 570 m from its centre.
    const truths = [offset(CELL_CENTRE, 0.4, 0.4), offset(CELL_CENTRE, -0.4, -0.4)];
    const victims = [];
    for (const truth of truths) {
      const victim = await person("sitter", { signedIn: true });
      expect((await postPosition(victim.cookie, truth)).status).toBe(302);
      victims.push(victim.id);
    }

    const attacker = await person("owner", { signedIn: true });
    // Eight points 1.5 to 5 km away in every direction: within a day's budget of position changes.
    const points = Array.from({ length: 8 }, (_, index) => {
      const angle = (index * 3 * Math.PI) / 8;
      const km = 1.5 + index / 2;
      return offset(CELL_CENTRE, km * Math.cos(angle), km * Math.sin(angle));
    });
    const observations: Observation[][] = [[], []];
    for (const point of points) {
      expect((await postPosition(attacker.cookie, point)).status).toBe(302);
      const data = await deckData(attacker.cookie);
      expect(data.deck.status).toBe("cards");
      const cards = data.deck.status === "cards" ? data.deck.cards : [];
      const sent = JSON.stringify(data);
      for (const [index, victim] of victims.entries()) {
        const card = cards.find((item) => item.userId === victim);
        expect(card?.distanceKm, "the victim's card and its distance are on the deck").toEqual(expect.any(Number));
        observations[index]!.push({ from: point, km: card!.distanceKm! });
        // Nothing else on the page carries the victim's position.
        const truth = truths[index]!;
        expect(sent).not.toContain(threeDecimals(truth.latitude));
        expect(sent).not.toContain(threeDecimals(truth.longitude));
      }
    }

    const solved = observations.map((seen) => solve(seen, CELL_CENTRE));
    const errors = solved.map((result, index) => greatCircleKm(result.estimate, truths[index]!));
    // The best the solver can do is off by more than 500 m for at least one of the two...
    expect(Math.max(...errors)).toBeGreaterThan(0.5);
    // ...because it is given exactly the same figures for both, 1.1 km apart: no estimate is within 500 m of both.
    expect(observations[0]!.map((seen) => seen.km)).toEqual(observations[1]!.map((seen) => seen.km));
    expect(greatCircleKm(truths[0]!, truths[1]!)).toBeGreaterThan(1);
    // And the points consistent with the figures span more than a kilometre (or none are).
    for (const result of solved) expect(result.consistent === 0 || result.diameterKm > 1).toBe(true);
  });
});

describe("the limit on moves cannot be walked around", () => {
  resetClockAfterEach();

  const storedCell = async (id: string) => {
    const { latitude, longitude } = await db
      .selectFrom("users")
      .select(["latitude", "longitude"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return latitude === null || longitude === null ? null : `${latitude},${longitude}`;
  };

  it("a city's point reached through a location error, then posted as the device's position, counts as a move", async () => {
    startOfAFreshDay();
    const attacker = await person("owner", { signedIn: true, city: "Zaragoza", at: coarsen(CELL_CENTRE) });
    const cells = new Set([await storedCell(attacker.id)]);
    // The day's moves, spent as an honest phone would.
    for (let index = 0; index < positionChangeLimit.max; index += 1) {
      expect((await postPosition(attacker.cookie, offset(CELL_CENTRE, 2 + 2 * index, 0))).status).toBe(302);
      cells.add(await storedCell(attacker.id));
    }
    expect(cells.size).toBe(positionChangeLimit.max + 1);

    // Then, with the device's location on: a new city (which does not move the position), a refused
    // permission (which moved it to the city's point for free), and that same cell posted as the
    // device's position (free, being the same cell, and it turns the device's location on again).
    const towns = [
      "Delicias",
      "Oliver Valdefierro",
      "Almozara",
      "Montecanal",
      "Utebo",
      "Alagon",
      "Zuera",
      "Fuentes de Ebro",
    ];
    for (const town of towns) {
      expect(await postCity(attacker.cookie, town)).toBeLessThan(500);
      expect((await postLocationError(attacker.cookie)).status).toBe(302);
      cells.add(await storedCell(attacker.id));
      const place = await db
        .selectFrom("places")
        .select(["latitude", "longitude"])
        .where("key", "=", town.toLowerCase())
        .executeTakeFirstOrThrow();
      expect((await postPosition(attacker.cookie, place)).status).toBe(302);
      cells.add(await storedCell(attacker.id));
    }
    cells.delete(null);
    // Not one cell more than the day's moves allow.
    expect(cells.size).toBe(positionChangeLimit.max + 1);
  });

  it("the window slides: ten moves just before midnight and ten just after are not twenty", async () => {
    startOfAFreshDay();
    const attacker = await person("owner", { signedIn: true, city: "Zaragoza", at: coarsen(CELL_CENTRE) });
    const midnight = new Date(Math.ceil(now().getTime() / DAY) * DAY);
    clockTo(midnight, -3 * MINUTE);
    for (let index = 0; index < positionChangeLimit.max; index += 1) {
      expect((await postPosition(attacker.cookie, offset(CELL_CENTRE, 2 + 2 * index, 0))).status).toBe(302);
    }
    const before = await storedCell(attacker.id);
    clockTo(midnight, MINUTE);
    const fresh = offset(CELL_CENTRE, 0, 4);
    expect((await postPosition(attacker.cookie, fresh)).status).toBe(302);
    expect(await storedCell(attacker.id)).toBe(before);
    // A day after those moves, the budget is back.
    clockTo(midnight, DAY - 2 * MINUTE);
    expect((await postPosition(attacker.cookie, fresh)).status).toBe(302);
    expect(await storedCell(attacker.id)).toBe(`${coarsen(fresh).latitude},${coarsen(fresh).longitude}`);
  });
});
