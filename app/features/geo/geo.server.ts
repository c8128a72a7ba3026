import { sql, type RawBuilder } from "kysely";

export interface Coordinates {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;

/** Cosine of the angle between `from` and each row (dot product with users.unit_x/y/z): larger is nearer, and no trigonometry runs per row. */
export function closenessSql(from: Coordinates, table: string): RawBuilder<number> {
  const [x, y, z] = unitVector(from);
  return sql<number>`(${sql.ref(`${table}.unit_x`)} * ${x} + ${sql.ref(`${table}.unit_y`)} * ${y} + ${sql.ref(`${table}.unit_z`)} * ${z})`;
}

export function closenessAt(km: number): number {
  return Math.cos(Math.min(km / EARTH_RADIUS_KM, Math.PI));
}

export function kilometresFor(closeness: number): number {
  return EARTH_RADIUS_KM * Math.acos(Math.max(-1, Math.min(1, closeness)));
}

export function unitVector({ latitude, longitude }: Coordinates): [number, number, number] {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  return [Math.cos(rad(latitude)) * Math.cos(rad(longitude)), Math.cos(rad(latitude)) * Math.sin(rad(longitude)), Math.sin(rad(latitude))];
}

export function greatCircleKm(a: Coordinates, b: Coordinates): number {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const h =
    Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 +
    Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

const GRID_ROWS_PER_DEGREE = 100;

/**
 * The centre of the position's ~1.1 km cell, so nothing computed from stored positions locates
 * anyone more closely. Columns are at least 1.11 km wide at each latitude (a fixed 0.01° would
 * be 0.56 km in Oslo).
 */
export function coarsen({ latitude, longitude }: Coordinates): Coordinates {
  const row = Math.round(latitude * GRID_ROWS_PER_DEGREE);
  const rowLatitude = row / GRID_ROWS_PER_DEGREE || 0;
  const columns = Math.max(1, Math.floor(360 * GRID_ROWS_PER_DEGREE * Math.cos((rowLatitude * Math.PI) / 180)));
  const columnDegrees = 360 / columns;
  let columnLongitude = Math.round(longitude / columnDegrees) * columnDegrees;
  if (columnLongitude >= 180) columnLongitude -= 360;
  if (columnLongitude < -180) columnLongitude += 360;
  // Six decimals (0.1 m) keep the stored figure short and the same on every pass.
  return { latitude: rowLatitude, longitude: Number(columnLongitude.toFixed(6)) || 0 };
}

export function storedPosition(at: Coordinates | null): { latitude: number | null; longitude: number | null } {
  if (!at) return { latitude: null, longitude: null };
  return coarsen(at);
}

export function sameCell(a: Coordinates | null, b: Coordinates | null): boolean {
  if (!a || !b) return a === b;
  const [x, y] = [coarsen(a), coarsen(b)];
  return x.latitude === y.latitude && x.longitude === y.longitude;
}

/** The only distance sent to the browser: whole kilometres, 0 for "less than 1 km", as coarse as the positions. */
export function shownKilometres(km: number): number {
  return km < 1 ? 0 : Math.round(km);
}

export interface BoundingBox {
  minLatitude: number;
  maxLatitude: number;
  /** Null when the circle reaches a pole or crosses the antimeridian: every longitude is in. */
  minLongitude: number | null;
  maxLongitude: number | null;
}

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
