import type { Walk } from "./machine";

/**
 * A walk recorded by the browser: [latitude, longitude, seconds since the walk began] per position.
 * Stored rounded to 4 decimals (about 11 m), and only the positions between the walk's start and end.
 */
export const ROUTE_POINTS_MAX = 1500;
export const WALK_DURATION_MAX_S = 6 * 3600;
export const WALK_DISTANCE_MAX_M = 40_000;
/** Faster than 30 km/h (a running dog's sprint) between two positions or over the whole route: not a walk. */
export const WALK_SPEED_MAX_KM_PER_H = 30;
const SPEED_MAX_M_PER_S = (WALK_SPEED_MAX_KM_PER_H * 1000) / 3600;
/** A walk happens around the booking's place: no position further from it than this. */
export const WALK_PLACE_RADIUS_M = 50_000;
/** Jitter of a phone's position: such a gap counts even when it looks fast. */
const JITTER_M = 60;

const EARTH_RADIUS_M = 6_371_000;
const radians = (degrees: number) => (degrees * Math.PI) / 180;
export const roundPosition = (value: number) => Math.round(value * 10_000) / 10_000;

export function metresBetween([lat1, lng1]: readonly number[], [lat2, lng2]: readonly number[]): number {
  const dLat = radians(lat2! - lat1!);
  const dLng = radians(lng2! - lng1!);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(radians(lat1!)) * Math.cos(radians(lat2!)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** The route as posted (JSON text), checked and rounded; null for nonsense. */
export function walkFromRoute(posted: string): Walk | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(posted);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length < 2 || parsed.length > ROUTE_POINTS_MAX) return null;
  const route: [number, number, number][] = [];
  for (const point of parsed) {
    if (!Array.isArray(point) || point.length !== 3 || !point.every(isNumber)) return null;
    const [latitude, longitude, seconds] = point as [number, number, number];
    if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || seconds < 0 || seconds > WALK_DURATION_MAX_S)
      return null;
    route.push([roundPosition(latitude), roundPosition(longitude), Math.round(seconds)]);
  }
  let distance = 0;
  for (let index = 1; index < route.length; index += 1) {
    const step = metresBetween(route[index - 1]!, route[index]!);
    const elapsed = route[index]![2] - route[index - 1]![2];
    if (elapsed < 0) return null;
    if (step > JITTER_M && step > elapsed * SPEED_MAX_M_PER_S) return null;
    distance += step;
  }
  const duration = route.at(-1)![2] - route[0]![2];
  if (distance > WALK_DISTANCE_MAX_M || duration <= 0) return null;
  // Steps within the jitter are taken at any speed one by one; together they must still be a walk's pace.
  if (distance > JITTER_M && distance > duration * SPEED_MAX_M_PER_S) return null;
  const start = route[0]![2];
  return {
    route: route.map(([lat, lng, seconds]) => [lat, lng, seconds - start]),
    distanceM: Math.round(distance),
    durationS: duration,
  };
}

/** Whether every position of a route lies within WALK_PLACE_RADIUS_M of the place. */
export function routeAround(
  route: readonly (readonly number[])[],
  place: { latitude: number; longitude: number },
): boolean {
  return route.every((point) => metresBetween(point, [place.latitude, place.longitude]) <= WALK_PLACE_RADIUS_M);
}

/** A walk typed in (no JavaScript, or no permission to read the position). */
export function walkFromTyped(distanceKm: number, durationMinutes: number): Walk | null {
  if (!isNumber(distanceKm) || !isNumber(durationMinutes)) return null;
  if (
    distanceKm <= 0 ||
    distanceKm * 1000 > WALK_DISTANCE_MAX_M ||
    durationMinutes < 1 ||
    durationMinutes * 60 > WALK_DURATION_MAX_S
  )
    return null;
  return { route: null, distanceM: Math.round(distanceKm * 1000), durationS: Math.round(durationMinutes * 60) };
}

/** The route drawn in a box of the given size: an SVG polyline's points, never the positions themselves. */
export function routeOutline(route: readonly (readonly number[])[], width = 320, height = 200, margin = 12): string {
  if (route.length < 2) return "";
  const middle = radians(route.reduce((sum, [lat]) => sum + lat!, 0) / route.length);
  const xs = route.map(([, lng]) => lng! * Math.cos(middle));
  const ys = route.map(([lat]) => lat!);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const span = Math.max(maxX - minX, maxY - minY, 1e-9);
  const scale = Math.min(
    (width - 2 * margin) / Math.max(maxX - minX, span / 1000),
    (height - 2 * margin) / Math.max(maxY - minY, span / 1000),
  );
  const offsetX = (width - (maxX - minX) * scale) / 2;
  const offsetY = (height - (maxY - minY) * scale) / 2;
  return xs
    .map(
      (x, index) =>
        `${(offsetX + (x - minX) * scale).toFixed(1)},${(height - offsetY - (ys[index]! - minY) * scale).toFixed(1)}`,
    )
    .join(" ");
}
