import type { Coordinates } from "~/features/geo/index.server";

const KM_PER_DEGREE = 111.195;

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
