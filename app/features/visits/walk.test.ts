import { describe, expect, it } from "vitest";
import { ROUTE_POINTS_MAX, metresBetween, routeOutline, walkFromRoute, walkFromTyped } from "./walk";

// About 44 m north per step, a minute apart: a calm walk in Madrid.
const walk = Array.from({ length: 6 }, (_, index) => [40.41651234 + index * 0.0004, -3.70381234, index * 60]);

describe("a recorded walk", () => {
  it("is stored rounded to about 11 m, timed from its first position, with the distance measured on the server", () => {
    const result = walkFromRoute(JSON.stringify(walk.map(([lat, lng, t]) => [lat, lng, t! + 1000])));
    expect(result).not.toBeNull();
    expect(result!.route![0]).toEqual([40.4165, -3.7038, 0]);
    expect(
      result!.route!.every(
        ([lat, lng]) =>
          Number.isInteger(Math.round(lat * 1e4 * 1e6) / 1e6) && Number.isInteger(Math.round(lng * 1e4 * 1e6) / 1e6),
      ),
    ).toBe(true);
    expect(result!.durationS).toBe(300);
    expect(result!.distanceM).toBeGreaterThan(210);
    expect(result!.distanceM).toBeLessThan(235);
  });

  it.each([
    ["not JSON", "walk"],
    ["an object", JSON.stringify({ lat: 1 })],
    ["one position", JSON.stringify([walk[0]])],
    [
      "a latitude beyond the pole",
      JSON.stringify([
        [91, 0, 0],
        [91, 0, 10],
      ]),
    ],
    [
      "a longitude beyond 180",
      JSON.stringify([
        [0, 181, 0],
        [0, 181, 10],
      ]),
    ],
    [
      "text in a position",
      JSON.stringify([
        ["40", "-3", 0],
        ["40", "-3", 10],
      ]),
    ],
    [
      "a missing time",
      JSON.stringify([
        [40, -3],
        [40, -3],
      ]),
    ],
    [
      "time running backwards",
      JSON.stringify([
        [40.4, -3.7, 60],
        [40.4004, -3.7, 0],
      ]),
    ],
    [
      "a jump of 100 km in a minute",
      JSON.stringify([
        [40.4, -3.7, 0],
        [41.3, -3.7, 60],
      ]),
    ],
    // 667 m a minute is 40 km/h: a car or a bicycle, not a walk (30 km/h at most).
    [
      "40 km/h, minute after minute",
      JSON.stringify(Array.from({ length: 6 }, (_, index) => [40.4 + index * 0.006, -3.7, index * 60])),
    ],
    [
      "40 km/h in steps of 50 m",
      JSON.stringify(Array.from({ length: 40 }, (_, index) => [40.4 + index * 0.00045, -3.7, index * 4.5])),
    ],
    [
      "no time passing",
      JSON.stringify([
        [40.4, -3.7, 0],
        [40.4, -3.7, 0],
      ]),
    ],
    [
      "longer than six hours",
      JSON.stringify([
        [40.4, -3.7, 0],
        [40.4, -3.7, 6 * 3600 + 1],
      ]),
    ],
    [
      "too many positions",
      JSON.stringify(Array.from({ length: ROUTE_POINTS_MAX + 1 }, (_, index) => [40.4, -3.7, index])),
    ],
  ])("is refused when it has %s", (_, posted) => {
    expect(walkFromRoute(posted)).toBeNull();
  });

  it("is drawn inside its box, as outline points only", () => {
    const outline = routeOutline(walkFromRoute(JSON.stringify(walk))!.route!);
    const points = outline.split(" ").map((pair) => pair.split(",").map(Number));
    expect(points).toHaveLength(6);
    for (const [x, y] of points) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(320);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(200);
    }
    // North is up: the last position is drawn above the first.
    expect(points.at(-1)![1]).toBeLessThan(points[0]![1]!);
    expect(outline).not.toContain("40.4");
  });
});

describe("a typed walk", () => {
  it("keeps metres and seconds", () => {
    expect(walkFromTyped(1.25, 25)).toEqual({ route: null, distanceM: 1250, durationS: 1500 });
  });

  it.each([
    [0, 10],
    [-1, 10],
    [41, 10],
    [1, 0],
    [1, 361],
    [Number.NaN, 10],
    [1, Number.POSITIVE_INFINITY],
  ])("refuses %s km in %s minutes", (km, minutes) => {
    expect(walkFromTyped(km, minutes)).toBeNull();
  });
});

describe("distances", () => {
  it("measures a degree of latitude as about 111 km", () => {
    expect(Math.round(metresBetween([40, -3], [41, -3]) / 1000)).toBe(111);
  });
});
