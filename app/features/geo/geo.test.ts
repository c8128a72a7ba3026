import { describe, expect, it } from "vitest";
import { boundingBox, closenessAt, coarsen, greatCircleKm, kilometresFor, sameCell, shownKilometres, storedPosition, unitVector, type Coordinates } from "./geo.server";
import { offset, randomFrom, travel } from "~/testing/places";

const MADRID: Coordinates = { latitude: 40.4168, longitude: -3.7038 };
const BARCELONA: Coordinates = { latitude: 41.3874, longitude: 2.1686 };
const PARIS: Coordinates = { latitude: 48.8566, longitude: 2.3522 };
const LONDON: Coordinates = { latitude: 51.5074, longitude: -0.1278 };

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

describe("the position grid", () => {
  it("keeps every position within 0.8 km of the true one, on cells at least 1.1 km wide, at every latitude", () => {
    const random = randomFrom(7);
    for (let i = 0; i < 2000; i += 1) {
      const at = { latitude: -84 + random() * 168, longitude: -180 + random() * 360 };
      const stored = coarsen(at);
      expect(greatCircleKm(at, stored)).toBeLessThanOrEqual(0.79);
      expect(coarsen(stored)).toEqual(stored);
      expect(stored.longitude).toBeGreaterThanOrEqual(-180);
      expect(stored.longitude).toBeLessThan(180);
      // A neighbouring column's centre, and the next row's: each at least 1.11 km away.
      const east = coarsen(offset(stored, 0, 1.112));
      expect(east).not.toEqual(stored);
      expect(greatCircleKm(stored, east)).toBeGreaterThanOrEqual(1.11);
      expect(greatCircleKm(stored, coarsen(offset(stored, 1.112, 0)))).toBeGreaterThanOrEqual(1.11);
    }
  });

  it("stores rows of 0.01° and columns scaled to their latitude", () => {
    expect(coarsen({ latitude: 40.41681234, longitude: -3.70379876 }).latitude).toBe(40.42);
    // In Oslo a column is 0.02° of longitude (a fixed 0.01° would be 0.56 km wide).
    const oslo = coarsen({ latitude: 59.9139, longitude: 10.7522 });
    expect(oslo.latitude).toBe(59.91);
    expect(coarsen({ latitude: 59.91, longitude: oslo.longitude + 0.02 }).longitude - oslo.longitude).toBeCloseTo(0.02, 3);
    expect(coarsen({ latitude: 59.91, longitude: oslo.longitude + 0.0095 })).toEqual(oslo);
    // Across the antimeridian and at the poles there is still one stored position per cell.
    expect(coarsen({ latitude: 0, longitude: 179.999 })).toEqual({ latitude: 0, longitude: -180 });
    expect(coarsen({ latitude: 0, longitude: -179.999 })).toEqual({ latitude: 0, longitude: -180 });
    expect(coarsen({ latitude: 90, longitude: 123 })).toEqual({ latitude: 90, longitude: 0 });
    expect(coarsen({ latitude: -0.001, longitude: -0.001 })).toEqual({ latitude: 0, longitude: 0 });
    expect(storedPosition(null)).toEqual({ latitude: null, longitude: null });
    expect(sameCell({ latitude: 40.4168, longitude: -3.7038 }, { latitude: 40.4191, longitude: -3.7049 })).toBe(true);
    expect(sameCell({ latitude: 40.4168, longitude: -3.7038 }, { latitude: 40.4268, longitude: -3.7038 })).toBe(false);
  });

  it("shows whole kilometres, and 'less than one' below 1 km", () => {
    expect([0, 0.3, 0.999, 1, 1.49, 1.5, 9.51, 67.46].map(shownKilometres)).toEqual([0, 0, 0, 1, 1, 2, 10, 67]);
  });
});
