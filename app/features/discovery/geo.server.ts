import { sql, type RawBuilder } from "kysely";

/**
 * Great-circle geometry for the deck. Distances are computed inside SQLite, so filtering and
 * sorting by distance happen in the query, next to the index.
 */

export interface Coordinates {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;

/**
 * How close a row's person is to `from`, as the cosine of the angle between them seen from the
 * Earth's centre: the dot product of the two unit vectors (users.unit_x/y/z, generated columns).
 * 1 is the same spot, larger is nearer; no trigonometry runs per row.
 */
export function closenessSql(from: Coordinates, table: string): RawBuilder<number> {
  const [x, y, z] = unitVector(from);
  return sql<number>`(${sql.ref(`${table}.unit_x`)} * ${x} + ${sql.ref(`${table}.unit_y`)} * ${y} + ${sql.ref(`${table}.unit_z`)} * ${z})`;
}

/** The closeness of two points `km` apart: rows within `km` are those with at least this closeness. */
export function closenessAt(km: number): number {
  return Math.cos(Math.min(km / EARTH_RADIUS_KM, Math.PI));
}

/** The great-circle distance in kilometres for a closeness computed by closenessSql. */
export function kilometresFor(closeness: number): number {
  return EARTH_RADIUS_KM * Math.acos(Math.max(-1, Math.min(1, closeness)));
}

export function unitVector({ latitude, longitude }: Coordinates): [number, number, number] {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  return [Math.cos(rad(latitude)) * Math.cos(rad(longitude)), Math.cos(rad(latitude)) * Math.sin(rad(longitude)), Math.sin(rad(latitude))];
}

/** The same distance in JavaScript. */
export function greatCircleKm(a: Coordinates, b: Coordinates): number {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const h =
    Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 +
    Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface BoundingBox {
  minLatitude: number;
  maxLatitude: number;
  /** Null when the circle reaches a pole or crosses the antimeridian: every longitude is in. */
  minLongitude: number | null;
  maxLongitude: number | null;
}

/** The smallest latitude/longitude box holding every point within `km` of `center` (lets an index do the first cut). */
export function boundingBox(center: Coordinates, km: number): BoundingBox {
  const latitudeDelta = km / KM_PER_DEGREE;
  const minLatitude = center.latitude - latitudeDelta;
  const maxLatitude = center.latitude + latitudeDelta;
  if (minLatitude <= -90 || maxLatitude >= 90) return { minLatitude: Math.max(minLatitude, -90), maxLatitude: Math.min(maxLatitude, 90), minLongitude: null, maxLongitude: null };
  // At the box's edge nearest a pole a degree of longitude is shortest, so it needs the widest span.
  const widest = Math.max(Math.abs(minLatitude), Math.abs(maxLatitude));
  const longitudeDelta = km / (KM_PER_DEGREE * Math.cos((widest * Math.PI) / 180));
  const minLongitude = center.longitude - longitudeDelta;
  const maxLongitude = center.longitude + longitudeDelta;
  if (minLongitude < -180 || maxLongitude > 180) return { minLatitude, maxLatitude, minLongitude: null, maxLongitude: null };
  return { minLatitude, maxLatitude, minLongitude, maxLongitude };
}
