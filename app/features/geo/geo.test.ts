import { describe, expect, it } from "vitest";
import {
  closenessAt,
  coarsen,
  greatCircleKm,
  kilometresFor,
  rowStretches,
  sameCell,
  shownKilometres,
  storedPosition,
  unitVector,
  type Coordinates,
  type RowStretch,
} from "./geo.server";
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
      [
        { latitude: -33.87, longitude: 151.21 },
        { latitude: 40.71, longitude: -74.01 },
      ],
      [
        { latitude: 0, longitude: 179.9 },
        { latitude: 0, longitude: -179.9 },
      ],
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

describe("a circle as stretches of rows", () => {
  const ROWS_PER_DEGREE = 10;
  const centres: Coordinates[] = [
    MADRID,
    { latitude: 0, longitude: 0 },
    { latitude: 70, longitude: 25 },
    { latitude: -70, longitude: -60 },
    { latitude: 60, longitude: 179.9 },
    { latitude: -10, longitude: -179.9 },
    { latitude: 89.5, longitude: 10 },
    { latitude: -89.9, longitude: 0 },
  ];
  const rowOf = (point: Coordinates) => Math.floor(point.latitude * ROWS_PER_DEGREE);
  const holds = (stretches: RowStretch[], point: Coordinates) =>
    stretches.some(
      (stretch) => stretch.row === rowOf(point) && point.longitude >= stretch.west && point.longitude <= stretch.east,
    );

  it("holds every point of the circle, in every direction and on its edge", () => {
    const random = randomFrom(11);
    for (const centre of centres) {
      for (const km of [1, 10, 50, 200, 1000, 3000]) {
        const stretches = rowStretches(centre, km, ROWS_PER_DEGREE);
        for (let i = 0; i < 400; i += 1) {
          const distance = i < 64 ? km : km * Math.sqrt(random());
          const point = travel(centre, distance, i < 64 ? i * 5.625 : random() * 360);
          expect(
            holds(stretches, point),
            `${distance.toFixed(3)} km from ${centre.latitude},${centre.longitude}: ${point.latitude},${point.longitude}`,
          ).toBe(true);
        }
      }
    }
  });

  it("is sure only of points inside the circle, and is sure of most of a circle away from the poles", () => {
    const random = randomFrom(12);
    for (const centre of centres) {
      for (const km of [10, 50, 200, 1000]) {
        let sure = 0;
        for (const stretch of rowStretches(centre, km, ROWS_PER_DEGREE)) {
          if (stretch.sureWest > stretch.sureEast) continue;
          sure += 1;
          for (let i = 0; i < 20; i += 1) {
            const point = {
              latitude: (stretch.row + random()) / ROWS_PER_DEGREE,
              longitude: stretch.sureWest + random() * (stretch.sureEast - stretch.sureWest),
            };
            expect(
              greatCircleKm(centre, point),
              `${point.latitude},${point.longitude} from ${centre.latitude},${centre.longitude}`,
            ).toBeLessThanOrEqual(km);
          }
        }
        // Rows are about 11 km tall: a circle holds whole rows from a radius of about 11 km.
        if (Math.abs(centre.latitude) < 80 && km >= 50) expect(sure).toBeGreaterThan(0);
      }
    }
  });

  it("reads little more than the circle: the stretches' area is close to the circle's", () => {
    const area = (stretches: RowStretch[]) =>
      stretches.reduce((sum, stretch) => {
        const middle = ((stretch.row + 0.5) / ROWS_PER_DEGREE) * (Math.PI / 180);
        return sum + (stretch.east - stretch.west) * Math.cos(middle) * 111.195 * (111.195 / ROWS_PER_DEGREE);
      }, 0);
    for (const km of [50, 200, 1000]) {
      const ratio = area(rowStretches(MADRID, km, ROWS_PER_DEGREE)) / (Math.PI * km * km);
      expect(ratio).toBeGreaterThan(0.95);
      expect(ratio).toBeLessThan(km === 50 ? 1.15 : 1.05);
    }
    // A 50 km circle around Madrid stays out of Barcelona's row and longitudes.
    expect(holds(rowStretches(MADRID, 50, ROWS_PER_DEGREE), BARCELONA)).toBe(false);
  });

  it("a ring holds every point between its two circles and leaves out the middle of the hole", () => {
    const random = randomFrom(13);
    for (const centre of centres) {
      for (const [hole, km] of [
        [5, 10],
        [50, 200],
        [1000, 1500],
        [200, 201],
      ] as const) {
        const ring = rowStretches(centre, km, ROWS_PER_DEGREE, hole);
        for (let i = 0; i < 300; i += 1) {
          const point = travel(centre, hole + (km - hole) * random(), random() * 360);
          expect(
            holds(ring, point),
            `${hole}–${km} km from ${centre.latitude},${centre.longitude}: ${point.latitude},${point.longitude}`,
          ).toBe(true);
        }
        if (Math.abs(centre.latitude) < 80 && hole >= 50) expect(holds(ring, travel(centre, hole / 2, 90))).toBe(false);
      }
    }
  });

  it("splits stretches at the antimeridian and takes whole parallels around a pole", () => {
    const across = rowStretches({ latitude: 10, longitude: 179.9 }, 50, ROWS_PER_DEGREE);
    expect(across.some((stretch) => stretch.east === 180)).toBe(true);
    expect(across.some((stretch) => stretch.west === -180)).toBe(true);
    expect(
      across.every((stretch) => stretch.west >= -180 && stretch.east <= 180 && stretch.east - stretch.west < 2),
    ).toBe(true);
    const pole = rowStretches({ latitude: 89.9, longitude: 10 }, 50, ROWS_PER_DEGREE);
    expect(pole.some((stretch) => stretch.west === -180 && stretch.east === 180)).toBe(true);
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
    expect(coarsen({ latitude: 59.91, longitude: oslo.longitude + 0.02 }).longitude - oslo.longitude).toBeCloseTo(
      0.02,
      3,
    );
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
