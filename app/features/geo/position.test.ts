import { describe, expect, it } from "vitest";
import { up as coarsenStoredPositions } from "~db/migrations/0013-coarse-positions";
import { db } from "~/platform/db.server";
import { advanceClock, resetClockAfterEach, startOfAFreshDay } from "~/testing/clock";
import { coarsen, unitVector } from "./geo.server";
import { positionChange, positionChangeLimit, positionForCity, TOO_OFTEN } from "./position.server";
import { person } from "~/testing/people";

const DAY = 24 * 60 * 60 * 1000;
const IN_VALENCIA = { name: "Olga", city: "Valencia", postalCode: "46001" };

const positionOf = async (id: string) =>
  db.selectFrom("users").select(["latitude", "longitude"]).where("id", "=", id).executeTakeFirstOrThrow();

resetClockAfterEach();

describe("positions already stored", () => {
  it("the migration moves each one to its cell's centre, and the deck's unit vectors follow", async () => {
    const precise = { latitude: 39.469907, longitude: -0.376288 };
    const { id: owner } = await person("owner", { ...IN_VALENCIA, at: precise });
    const { id: nowhere } = await person("owner", { ...IN_VALENCIA, at: null });
    await coarsenStoredPositions(db as never);
    expect(await positionOf(owner)).toEqual(coarsen(precise));
    const [x, y, z] = unitVector(coarsen(precise));
    const vector = await db
      .selectFrom("users")
      .select(["unit_x", "unit_y", "unit_z"])
      .where("id", "=", owner)
      .executeTakeFirstOrThrow();
    expect(vector.unit_x).toBeCloseTo(x, 12);
    expect(vector.unit_y).toBeCloseTo(y, 12);
    expect(vector.unit_z).toBeCloseTo(z, 12);
    expect(await positionOf(nowhere)).toEqual({ latitude: null, longitude: null });
    // A second pass finds nothing left to move.
    await coarsenStoredPositions(db as never);
    expect(await positionOf(owner)).toEqual(coarsen(precise));
  });
});

describe("position changes", () => {
  it("a city's position is coarse, and over the day's limit a new city is refused", async () => {
    startOfAFreshDay();
    const { id } = await person("owner", IN_VALENCIA);
    const seville = await positionForCity(id, "Sevilla", null);
    expect(seville).not.toBe(TOO_OFTEN);
    if (seville === TOO_OFTEN) return;
    expect(coarsen({ latitude: seville.latitude!, longitude: seville.longitude! })).toEqual({
      latitude: seville.latitude,
      longitude: seville.longitude,
    });
    for (let move = 1; move < positionChangeLimit.max; move += 1) {
      expect(await positionChange(id, { latitude: 40 + move * 0.1, longitude: -3 })).not.toBe(TOO_OFTEN);
    }
    expect(await positionForCity(id, "Zaragoza", null)).toBe(TOO_OFTEN);
    advanceClock(DAY);
    expect(await positionForCity(id, "Zaragoza", null)).not.toBe(TOO_OFTEN);
  });

  it("staying in the same cell or having no position costs nothing", async () => {
    startOfAFreshDay();
    const here = coarsen({ latitude: 39.4699, longitude: -0.3763 });
    const { id } = await person("owner", { ...IN_VALENCIA, at: here });
    for (let visit = 0; visit < positionChangeLimit.max * 2; visit += 1) {
      expect(await positionChange(id, { latitude: here.latitude + 0.001, longitude: here.longitude })).toEqual(here);
      expect(await positionChange(id, null)).toEqual({ latitude: null, longitude: null });
    }
  });

  it("leaves the position alone while the device's is in use", async () => {
    const { id } = await person("owner", {
      ...IN_VALENCIA,
      at: coarsen({ latitude: 39.4699, longitude: -0.3763 }),
      columns: { location_enabled: 1 },
    });
    expect(await positionForCity(id, "Sevilla", null)).toEqual({});
  });
});
