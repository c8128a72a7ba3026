import { describe, expect, it } from "vitest";
import { placeKey } from "~db/places";
import { activeFilterCount, DEFAULT_FILTERS, filtersSchema, type DeckFilters } from "./filters";
import { boundingBox, closenessAt, greatCircleKm, kilometresFor, unitVector, type Coordinates } from "./geo.server";
import { coordinatesOfCity } from "./places.server";

const MADRID: Coordinates = { latitude: 40.4168, longitude: -3.7038 };
const BARCELONA: Coordinates = { latitude: 41.3874, longitude: 2.1686 };
const PARIS: Coordinates = { latitude: 48.8566, longitude: 2.3522 };
const LONDON: Coordinates = { latitude: 51.5074, longitude: -0.1278 };

const EARTH_RADIUS_KM = 6371.0088;
const rad = (degrees: number) => (degrees * Math.PI) / 180;
const deg = (radians: number) => (radians * 180) / Math.PI;

/** The point `km` away from `from`, setting off at `bearing` degrees (0 = north, 90 = east). */
function travel(from: Coordinates, km: number, bearing: number): Coordinates {
  const angle = km / EARTH_RADIUS_KM;
  const φ1 = rad(from.latitude);
  const θ = rad(bearing);
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(angle) + Math.cos(φ1) * Math.sin(angle) * Math.cos(θ));
  const λ2 = rad(from.longitude) + Math.atan2(Math.sin(θ) * Math.sin(angle) * Math.cos(φ1), Math.cos(angle) - Math.sin(φ1) * Math.sin(φ2));
  const longitude = ((deg(λ2) + 540) % 360) - 180;
  return { latitude: deg(φ2), longitude };
}

const dot = (a: Coordinates, b: Coordinates) => {
  const [ax, ay, az] = unitVector(a);
  const [bx, by, bz] = unitVector(b);
  return ax * bx + ay * by + az * bz;
};

describe("great-circle distance", () => {
  it("measures known city pairs", () => {
    expect(Math.abs(greatCircleKm(MADRID, BARCELONA) - 505)).toBeLessThanOrEqual(3);
    expect(Math.abs(greatCircleKm(BARCELONA, MADRID) - 505)).toBeLessThanOrEqual(3);
    expect(Math.abs(greatCircleKm(PARIS, LONDON) - 344)).toBeLessThanOrEqual(3);
    expect(greatCircleKm(MADRID, MADRID)).toBe(0);
  });

  it("the unit-vector closeness used in SQL gives the same kilometres, also for short hops", () => {
    const pairs: [Coordinates, Coordinates][] = [
      [MADRID, BARCELONA],
      [PARIS, LONDON],
      [MADRID, travel(MADRID, 1, 0)],
      [MADRID, travel(MADRID, 1, 90)],
      [LONDON, travel(LONDON, 1, 225)],
      [{ latitude: 70, longitude: 25 }, travel({ latitude: 70, longitude: 25 }, 1, 45)],
      [{ latitude: -33.87, longitude: 151.21 }, { latitude: 40.71, longitude: -74.01 }],
      [{ latitude: 0, longitude: 179.9 }, { latitude: 0, longitude: -179.9 }],
    ];
    for (const [a, b] of pairs) {
      expect(Math.abs(kilometresFor(dot(a, b)) - greatCircleKm(a, b))).toBeLessThan(0.01);
    }
    expect(kilometresFor(dot(MADRID, travel(MADRID, 1, 0)))).toBeCloseTo(1, 2);
    expect(kilometresFor(dot(MADRID, MADRID))).toBeCloseTo(0, 3);
  });

  it("closenessAt falls as the distance grows, and turns back into the same distance", () => {
    const distances = [0, 0.5, 1, 2, 10, 50, 200, 1000, 5000, 10_000, 20_000];
    const closeness = distances.map(closenessAt);
    for (let i = 1; i < closeness.length; i += 1) expect(closeness[i]!).toBeLessThan(closeness[i - 1]!);
    expect(closenessAt(0)).toBe(1);
    for (const km of distances) expect(Math.abs(kilometresFor(closenessAt(km)) - km)).toBeLessThan(0.01);
    // A point 10 km away is inside a 50 km circle and outside a 5 km one.
    const tenKm = dot(MADRID, travel(MADRID, 10, 30));
    expect(tenKm).toBeGreaterThanOrEqual(closenessAt(50));
    expect(tenKm).toBeLessThan(closenessAt(5));
  });
});

describe("bounding box", () => {
  const centres: Coordinates[] = [
    MADRID,
    { latitude: 0, longitude: 0 },
    { latitude: 70, longitude: 25 },
    { latitude: -70, longitude: -60 },
    { latitude: 60, longitude: 179.9 },
    { latitude: -10, longitude: -179.9 },
    { latitude: 89.5, longitude: 10 },
  ];
  const bearings = Array.from({ length: 16 }, (_, i) => i * 22.5);
  const slack = 1e-9;

  it("holds every point at exactly the radius, in every direction", () => {
    for (const centre of centres) {
      for (const km of [1, 10, 50, 200, 1000]) {
        const box = boundingBox(centre, km);
        for (const bearing of bearings) {
          const point = travel(centre, km, bearing);
          expect(greatCircleKm(centre, point)).toBeCloseTo(km, 6);
          const where = `${km} km at ${bearing}° from ${centre.latitude},${centre.longitude}: ${point.latitude},${point.longitude}`;
          expect(point.latitude, where).toBeGreaterThanOrEqual(box.minLatitude - slack);
          expect(point.latitude, where).toBeLessThanOrEqual(box.maxLatitude + slack);
          if (box.minLongitude !== null && box.maxLongitude !== null) {
            expect(point.longitude, where).toBeGreaterThanOrEqual(box.minLongitude - slack);
            expect(point.longitude, where).toBeLessThanOrEqual(box.maxLongitude + slack);
          } else {
            expect(box.minLongitude, where).toBeNull();
            expect(box.maxLongitude, where).toBeNull();
          }
        }
      }
    }
  });

  it("is a real cut away from poles and the antimeridian, and gives up longitude where it must", () => {
    const madrid = boundingBox(MADRID, 50);
    expect(madrid.minLongitude).not.toBeNull();
    expect(madrid.maxLongitude! - madrid.minLongitude!).toBeLessThan(2);
    expect(madrid.maxLatitude - madrid.minLatitude).toBeLessThan(1);
    // Barcelona is 500 km away: outside a 50 km box around Madrid.
    expect(BARCELONA.longitude).toBeGreaterThan(madrid.maxLongitude!);

    const nearPole = boundingBox({ latitude: 89.5, longitude: 10 }, 100);
    expect(nearPole.minLongitude).toBeNull();
    expect(nearPole.maxLongitude).toBeNull();
    expect(nearPole.maxLatitude).toBe(90);
    const southPole = boundingBox({ latitude: -89.9, longitude: 0 }, 50);
    expect(southPole.minLongitude).toBeNull();
    expect(southPole.minLatitude).toBe(-90);

    const acrossAntimeridian = boundingBox({ latitude: 10, longitude: 179.9 }, 50);
    expect(acrossAntimeridian.minLongitude).toBeNull();
    expect(acrossAntimeridian.maxLongitude).toBeNull();
  });
});

describe("places", () => {
  it("placeKey ignores case, accents, punctuation and extra spaces", () => {
    expect(placeKey("  KRAKÓW ")).toBe("krakow");
    expect(placeKey("Kraków")).toBe(placeKey("krakow"));
    expect(placeKey("Saint-Étienne")).toBe("saint etienne");
    expect(placeKey("A Coruña")).toBe("a coruna");
    expect(placeKey("São  Paulo")).toBe("sao paulo");
    expect(placeKey("  ")).toBe("");
  });

  it("finds a typed city in the gazetteer, whatever its spelling", async () => {
    const madrid = await coordinatesOfCity("Madrid", "Europe/Madrid");
    expect(madrid).not.toBeNull();
    expect(madrid!.latitude).toBeCloseTo(40.4, 1);
    expect(madrid!.longitude).toBeCloseTo(-3.7, 1);

    const accented = await coordinatesOfCity("kraków", "Europe/Warsaw");
    const plain = await coordinatesOfCity("Krakow", "Europe/Warsaw");
    expect(accented).not.toBeNull();
    expect(accented!.latitude).toBeCloseTo(50.06, 1);
    expect(accented!.longitude).toBeCloseTo(19.94, 1);
    expect(plain).toEqual(accented);
    // Someone in Spain typing a Polish city still finds it.
    expect(await coordinatesOfCity("Krakow", "Europe/Madrid")).toEqual(accented);

    expect(await coordinatesOfCity("  saint-etienne ", "Europe/Paris")).not.toBeNull();
    expect(await coordinatesOfCity("Atlantis-nowhere-xyz", "Europe/Madrid")).toBeNull();
    expect(await coordinatesOfCity("", "Europe/Madrid")).toBeNull();
  });

  it("'Valencia, Spain' and plain 'Valencia' are the Spanish Valencia for someone in Spain", async () => {
    for (const typed of ["Valencia, Spain", "Valencia", "valencia (spain)"]) {
      const valencia = await coordinatesOfCity(typed, "Europe/Madrid");
      expect(valencia, typed).not.toBeNull();
      expect(valencia!.latitude, typed).toBeCloseTo(39.47, 1);
      expect(valencia!.longitude, typed).toBeCloseTo(-0.38, 1);
    }
    // In Venezuela's time zone, Valencia is the Venezuelan one.
    expect((await coordinatesOfCity("Valencia", "America/Caracas"))!.latitude).toBeCloseTo(10.16, 1);
  });

  it("'Valencia, Spain' is the Spanish Valencia even for someone whose time zone is elsewhere", async () => {
    const valencia = await coordinatesOfCity("Valencia, Spain", "Europe/London");
    expect(valencia).not.toBeNull();
    expect(valencia!.latitude).toBeCloseTo(39.47, 1);
  });

  it("finds cities for time zones without a country (UTC) or without a time zone", async () => {
    for (const timeZone of ["UTC", "Etc/UTC", "Not/AZone", null]) {
      const madrid = await coordinatesOfCity("Madrid", timeZone);
      expect(madrid, String(timeZone)).not.toBeNull();
      expect(madrid!.latitude, String(timeZone)).toBeCloseTo(40.4, 1);
    }
  });
});

describe("filter badge", () => {
  const filters = (changes: Partial<DeckFilters>): DeckFilters => ({ ...DEFAULT_FILTERS, ...changes });

  it("counts nothing for the defaults, whoever looks", () => {
    expect(activeFilterCount(DEFAULT_FILTERS, true)).toBe(0);
    expect(activeFilterCount(DEFAULT_FILTERS, false)).toBe(0);
  });

  it("counts each narrowing filter once for owners", () => {
    expect(activeFilterCount(filters({ petType: "dog" }), true)).toBe(1);
    expect(activeFilterCount(filters({ petType: "cat" }), true)).toBe(1);
    expect(activeFilterCount(filters({ maxDistanceKm: 100 }), true)).toBe(1);
    expect(activeFilterCount(filters({ maxDistanceKm: 5 }), true)).toBe(1);
    expect(activeFilterCount(filters({ minRating: 4 }), true)).toBe(1);
    expect(activeFilterCount(filters({ maxPriceCents: 2000 }), true)).toBe(1);
    expect(activeFilterCount(filters({ maxPriceCents: 0 }), true)).toBe(1);
    expect(activeFilterCount(filters({ petType: "dog", maxDistanceKm: 20, minRating: 3, maxPriceCents: 1500 }), true)).toBe(4);
  });

  it("does not count rating or price for sitters, who never see those filters", () => {
    expect(activeFilterCount(filters({ minRating: 4 }), false)).toBe(0);
    expect(activeFilterCount(filters({ maxPriceCents: 2000 }), false)).toBe(0);
    expect(activeFilterCount(filters({ petType: "cat" }), false)).toBe(1);
    expect(activeFilterCount(filters({ maxDistanceKm: 100 }), false)).toBe(1);
    expect(activeFilterCount(filters({ petType: "dog", maxDistanceKm: 20, minRating: 3, maxPriceCents: 1500 }), false)).toBe(2);
  });

  it("never counts the sort order", () => {
    for (const sortBy of ["distance", "rating", "price", "newest"] as const) {
      expect(activeFilterCount(filters({ sortBy }), true)).toBe(0);
      expect(activeFilterCount(filters({ sortBy }), false)).toBe(0);
    }
  });
});

describe("filter form", () => {
  const form = { petType: "all", maxDistanceKm: "50", sortBy: "distance" };
  const accepts = (changes: Record<string, unknown>) => filtersSchema.safeParse({ ...form, ...changes }).success;

  it("accepts the defaults as posted, with numbers as text", () => {
    const parsed = filtersSchema.safeParse({ ...form, minRating: "4", maxPrice: "25" });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual({ petType: "all", maxDistanceKm: 50, minRating: 4, maxPrice: 25, sortBy: "distance" });
  });

  it("takes distances from 5 to 200 km in steps of 5, and nothing else", () => {
    for (let km = 5; km <= 200; km += 5) expect(accepts({ maxDistanceKm: String(km) }), `${km} km`).toBe(true);
    for (const km of ["3", "0", "201", "205", "52", "47.5", "abc", "-5"]) expect(accepts({ maxDistanceKm: km }), `${km} km`).toBe(false);
  });

  it("takes a maximum price from 0 to 100 euros, or none", () => {
    for (const price of ["0", "1", "12.5", "50", "100"]) expect(accepts({ maxPrice: price }), `${price} €`).toBe(true);
    expect(accepts({})).toBe(true);
    for (const price of ["-1", "101", "abc"]) expect(accepts({ maxPrice: price }), `${price} €`).toBe(false);
  });

  it("takes ratings 0 to 5", () => {
    for (const rating of ["0", "3", "5"]) expect(accepts({ minRating: rating })).toBe(true);
    for (const rating of ["-1", "6", "4.5"]) expect(accepts({ minRating: rating })).toBe(false);
  });

  it("takes only the known pet types and sorts", () => {
    for (const petType of ["all", "dog", "cat"]) expect(accepts({ petType })).toBe(true);
    for (const sortBy of ["distance", "rating", "price", "newest"]) expect(accepts({ sortBy })).toBe(true);
    expect(accepts({ petType: "lizard" })).toBe(false);
    expect(accepts({ sortBy: "random" })).toBe(false);
    expect(accepts({ petType: undefined })).toBe(false);
  });
});
