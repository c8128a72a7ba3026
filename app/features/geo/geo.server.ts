import { sql, type RawBuilder } from "kysely";

export interface Coordinates {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_KM = 6371.0088;

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
  return [
    Math.cos(rad(latitude)) * Math.cos(rad(longitude)),
    Math.cos(rad(latitude)) * Math.sin(rad(longitude)),
    Math.sin(rad(latitude)),
  ];
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

/**
 * A stretch of one row of latitude (`row` is floor(latitude × rowsPerDegree)) from `west` to `east`
 * degrees of longitude, and within it `sureWest`..`sureEast`: longitudes inside the circle at every
 * latitude of the row (sureWest > sureEast when there are none), so only the stretch's ends need the
 * exact test.
 */
export interface RowStretch {
  row: number;
  west: number;
  east: number;
  sureWest: number;
  sureEast: number;
}

/** About a centimetre: what rounding may move an edge by. */
const EDGE_SLACK_DEGREES = 1e-7;

/**
 * A circle (or a ring, when `holeKm` is given) as stretches of rows of latitude, so an index on
 * (row, longitude) reads little more than the circle itself. Every point within `km` of `center` lies
 * in a stretch; a ring leaves out what is surely within `holeKm`, and may keep a sliver of it.
 */
export function rowStretches(center: Coordinates, km: number, rowsPerDegree: number, holeKm = 0): RowStretch[] {
  const reach = Math.min(km / EARTH_RADIUS_KM, Math.PI);
  const hole = Math.min(holeKm / EARTH_RADIUS_KM, reach);
  const centreLatitude = radians(center.latitude);
  const south = Math.max(center.latitude - degrees(reach) - EDGE_SLACK_DEGREES, -90);
  const north = Math.min(center.latitude + degrees(reach) + EDGE_SLACK_DEGREES, 90);
  const stretches: RowStretch[] = [];
  const firstRow = Math.floor(south * rowsPerDegree);
  const lastRow = Math.floor(north * rowsPerDegree);
  // Allocation-free apart from the stretches themselves: the deck makes a few thousand rows per search.
  for (let row = firstRow; row <= lastRow; row += 1) {
    const bottom = row / rowsPerDegree;
    const top = (row + 1) / rowsPerDegree;
    const outer = widest(centreLatitude, reach, radians(Math.max(bottom, south)), radians(Math.min(top, north)));
    const sure = narrowest(centreLatitude, reach, radians(bottom), radians(top));
    const inHole = hole > 0 ? narrowest(centreLatitude, hole, radians(bottom), radians(top)) : null;
    const centre = center.longitude;
    const sureFrom = sure === null ? 181 : centre - degrees(sure) + EDGE_SLACK_DEGREES;
    const sureTo = sure === null ? -181 : centre + degrees(sure) - EDGE_SLACK_DEGREES;
    const outerFrom = centre - degrees(outer) - EDGE_SLACK_DEGREES;
    const outerTo = centre + degrees(outer) + EDGE_SLACK_DEGREES;
    if (inHole === null) addStretches(stretches, row, outerFrom, outerTo, sureFrom, sureTo);
    else {
      addStretches(stretches, row, outerFrom, centre - degrees(inHole), sureFrom, sureTo);
      addStretches(stretches, row, centre + degrees(inHole), outerTo, sureFrom, sureTo);
    }
  }
  return stretches;
}

/** Edges to a millionth of a degree (11 cm), rounded outward (inward for the sure part): short to send, and never a point lost. */
const MICRODEGREES = 1e6;
const outward = (value: number, up: boolean) =>
  (up ? Math.ceil(value * MICRODEGREES) : Math.floor(value * MICRODEGREES)) / MICRODEGREES;

const NO_SHIFT = [0];
const SHIFTS = [-360, 0, 360];

/** Longitudes from..to of a row as stretches within -180..180: two where they cross the antimeridian. */
function addStretches(
  stretches: RowStretch[],
  row: number,
  from: number,
  to: number,
  sureFrom: number,
  sureTo: number,
): void {
  if (from > to) return;
  const whole = to - from >= 360;
  for (const shift of whole ? NO_SHIFT : SHIFTS) {
    const west = whole ? -180 : Math.max(outward(from + shift, false), -180);
    const east = whole ? 180 : Math.min(outward(to + shift, true), 180);
    if (west > east) continue;
    const sureWest = Math.max(west, outward(sureFrom + shift, true));
    const sureEast = Math.min(east, outward(sureTo + shift, false));
    stretches.push(
      sureWest <= sureEast
        ? { row, west, east, sureWest, sureEast }
        : { row, west, east, sureWest: 181, sureEast: -181 },
    );
  }
}

const radians = (value: number) => (value * Math.PI) / 180;
const degrees = (value: number) => (value * 180) / Math.PI;

/** Half the longitude span (radians) of a circle of angular radius `reach` at `latitude`: 0 at its edge, π where it holds the whole parallel. */
function halfSpan(centreLatitude: number, reach: number, latitude: number): number {
  const across = Math.cos(latitude) * Math.cos(centreLatitude);
  if (across <= 1e-12) return Math.PI;
  const cosine = (Math.cos(reach) - Math.sin(latitude) * Math.sin(centreLatitude)) / across;
  return cosine >= 1 ? 0 : cosine <= -1 ? Math.PI : Math.acos(cosine);
}

/** The widest half span between two latitudes: the span grows to one latitude and shrinks past it, so it is at that latitude or an end. */
function widest(centreLatitude: number, reach: number, bottom: number, top: number): number {
  if (Math.cos(reach) <= 0) return Math.PI;
  const ratio = Math.sin(centreLatitude) / Math.cos(reach);
  const atEnds = Math.max(halfSpan(centreLatitude, reach, bottom), halfSpan(centreLatitude, reach, top));
  return Math.abs(ratio) < 1
    ? Math.max(atEnds, halfSpan(centreLatitude, reach, Math.min(top, Math.max(bottom, Math.asin(ratio)))))
    : atEnds;
}

/** The half span held at every latitude between two, or null when the circle does not cover them all. */
function narrowest(centreLatitude: number, reach: number, bottom: number, top: number): number | null {
  if (Math.cos(reach) <= 0 || bottom < centreLatitude - reach || top > centreLatitude + reach) return null;
  const span = Math.min(halfSpan(centreLatitude, reach, bottom), halfSpan(centreLatitude, reach, top));
  return span > 0 ? span : null;
}
