import type { Coordinates } from "~/features/geo/index.server";

const KM_PER_DEGREE = 111.195;
const EARTH_RADIUS_KM = 6371.0088;
const rad = (degrees: number) => (degrees * Math.PI) / 180;
const deg = (radians: number) => (radians * 180) / Math.PI;

/** A point `north` and `east` kilometres from `from` (flat steps, exact enough over a few km). */
export function offset(from: Coordinates, north: number, east: number): Coordinates {
  return {
    latitude: from.latitude + north / KM_PER_DEGREE,
    longitude: from.longitude + east / (KM_PER_DEGREE * Math.cos((from.latitude * Math.PI) / 180)),
  };
}

/** Deterministic, so a failure can be replayed. */
export function randomFrom(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

/** The point `km` away from `from` on the sphere, setting off at `bearing` degrees (0 = north, 90 = east). */
export function travel(from: Coordinates, km: number, bearing = 0): Coordinates {
  const angle = km / EARTH_RADIUS_KM;
  const lat1 = rad(from.latitude);
  const heading = rad(bearing);
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(heading));
  const lon2 =
    rad(from.longitude) +
    Math.atan2(Math.sin(heading) * Math.sin(angle) * Math.cos(lat1), Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2));
  return { latitude: deg(lat2), longitude: ((deg(lon2) + 540) % 360) - 180 };
}
