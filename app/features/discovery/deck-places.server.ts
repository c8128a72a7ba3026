// The deck's hand-built place index: a circle or ring as rows of latitude (0.1° or 0.01°) and their
// longitude ranges, the values a search's queries carry, and closeness from degrees.

import { sql, type AliasedRawBuilder, type RawBuilder } from "kysely";
import { numberRowsOf, numberRowsValues } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { closenessAt, rowStretches, type Coordinates } from "~/features/geo/index.server";
import type { Search } from "./deck-search";

/**
 * Closeness (as geo's closenessSql) from latitude and longitude: these are in the deck's place indexes,
 * so a circle's candidates are ranked without reading their rows (unit_x/y/z are computed columns that
 * SQLite reads from the row). Plain math that both engines have.
 */
function closenessFromDegrees(centre: Centre, table: "u" | "o"): RawBuilder<number> {
  const radiansPerDegree = sql.lit(Math.PI / 180);
  const latitude = sql`${sql.ref(`${table}.latitude`)} * ${radiansPerDegree}`;
  const longitude = sql`${sql.ref(`${table}.longitude`)} * ${radiansPerDegree}`;
  return sql<number>`(sin(${latitude}) * ${centre.sinLatitude} + cos(${latitude}) * ${centre.cosLatitude} * cos(${longitude} - ${centre.longitude}))`;
}

/** A circle's centre as closeness is computed from it: the sine and cosine of its latitude, its longitude in radians. */
interface Centre {
  sinLatitude: number;
  cosLatitude: number;
  longitude: number;
}

function centreOf(from: Coordinates): Centre {
  const latitude = (from.latitude * Math.PI) / 180;
  return {
    sinLatitude: Math.sin(latitude),
    cosLatitude: Math.cos(latitude),
    longitude: (from.longitude * Math.PI) / 180,
  };
}

/**
 * Every value a search's queries carry, apart from their shape (which conditions, which kind of rows:
 * decided by the Search). Real ones come from valuesOf; a ring read is built once per shape with a
 * prepared query's stand-ins for them and run with each search's own (see ringRead).
 */
export interface SearchValues extends Centre {
  viewerId: string;
  minRating: number;
  maxPriceCents: number | null;
  service: string;
  firstDay: string;
  lastDay: string;
  pets: number;
  /** When premium is tested, as stored. */
  at: string;
  limit: number;
  /** The circle's places as numberRowsValues binds them (named one by one for a prepared query). */
  [range: `range${number}`]: unknown;
}

const PLACE_TYPES = ["integer", "millionths", "millionths", "millionths", "millionths", "real"] as const;
const PLACE_VALUES = numberRowsValues([], PLACE_TYPES).length;

/** Each search's places, worked out once for its query's uses. */
const placeValuesMade = new WeakMap<Search, Record<`range${number}`, unknown>>();

export function valuesOf(search: Search, limit: number): SearchValues {
  const centre = search.from ? centreOf(search.from) : { sinLatitude: 0, cosLatitude: 0, longitude: 0 };
  let places = placeValuesMade.get(search);
  if (!places) {
    const ranges =
      search.sort === "distance" && inCircle(search) ? numberRowsValues(placeRows(search), PLACE_TYPES) : [];
    places = Object.fromEntries(ranges.map((value, i) => [`range${i}`, value]));
    placeValuesMade.set(search, places);
  }
  return {
    ...centre,
    ...places,
    viewerId: search.viewerId,
    minRating: search.filters.minRating,
    maxPriceCents: search.filters.maxPriceCents,
    service: search.filters.service,
    firstDay: search.filters.firstDay ?? "",
    lastDay: search.filters.lastDay ?? "",
    pets: search.filters.pets,
    at: now().toISOString(),
    limit,
  };
}

/**
 * Rows of 0.1° of latitude: the leading key of the deck's place indexes (migration 0025), `floor(latitude * 10)`;
 * and rows of 0.01° (about 1.1 km, migration 0029) for circles up to FINE_UP_TO_KM, where 11 km tall rows
 * would read a ring's hole and a small circle's corners too (a city's dense middle, a heavy swiper's ring).
 */
const ROWS_PER_DEGREE = 10;
const FINE_ROWS_PER_DEGREE = 100;
const FINE_UP_TO_KM = 30;
export const rowsPerDegreeFor = (km: number) => (km <= FINE_UP_TO_KM ? FINE_ROWS_PER_DEGREE : ROWS_PER_DEGREE);

/**
 * A circle (or ring) as a table of index ranges, one or two per row of latitude, joined to the people
 * so each range is one seek of the place index; inside a range's sure part no one needs the exact test.
 */
interface Places {
  table: AliasedRawBuilder<PlaceRange, "r">;
  on: RawBuilder<boolean>;
  inside: RawBuilder<boolean>;
}

interface PlaceRange {
  column1: number;
  column2: number;
  column3: number;
  column4: number;
  column5: number;
  column6: number;
}

/** A circle's (or ring's, or rings' in turn) ranges, in the order a read takes them. */
function placeRows(search: Search): PlaceRow[] {
  const from = search.from!;
  // Stretch edges are whole millionths of a degree already (geo rounds them so): sent as such.
  const millionths = (degrees: number) => Math.round(degrees * 1e6);
  const rowsPerDegree = rowsPerDegreeFor(search.withinKm!);
  const centreRow = from.latitude * rowsPerDegree - 0.5;
  let beyondKm = search.beyondKm;
  return (search.ringsKm ?? [search.withinKm!]).flatMap((km) => {
    // Each ring's ranges hold its own people only (the exact test with its own edge), so a read that
    // stops in one has read those before it whole.
    const within = closenessAt(km);
    const rows = rowStretches(from, km, rowsPerDegree, beyondKm).map(
      ({ row, west, east, sureWest, sureEast }): PlaceRow => [
        row,
        millionths(west),
        millionths(east),
        millionths(sureWest),
        millionths(sureEast),
        within,
      ],
    );
    const ringKm = km - beyondKm;
    beyondKm = km;
    // Rows nearest the centre first: a read that stops after CIRCLE_CAP candidates (in the ranges' order)
    // then holds near ones, whose page-th nearest narrows a crowded ring in one step, not the far south
    // edge's. A capped read of fine rows goes further: nearest pieces first.
    return search.pieces && rowsPerDegree === FINE_ROWS_PER_DEGREE
      ? nearestPiecesFirst(rows, from, rowsPerDegree, ringKm / PIECES_PER_RING)
      : rows.sort((a, b) => Math.abs(a[0] - centreRow) - Math.abs(b[0] - centreRow));
  });
}

/** A search's places as SQL: its rows' size from the search, the ranges and the centre from `values`. */
export function placesOf(search: Search, values: SearchValues, table: "u" | "o"): Places {
  const rowsPerDegree = rowsPerDegreeFor(search.withinKm!);
  const [latitude, longitude] = [sql.ref(`${table}.latitude`), sql.ref(`${table}.longitude`)];
  const ranges = Array.from({ length: PLACE_VALUES }, (_, i) => values[`range${i}`]);
  return {
    table: numberRowsOf<PlaceRange, "r">(ranges, PLACE_TYPES, "r"),
    on: sql<boolean>`floor(${latitude} * ${sql.lit(rowsPerDegree)}) = r.column1 and ${longitude} between r.column2 and r.column3`,
    inside: sql<boolean>`(${longitude} between r.column4 and r.column5 or ${closenessFromDegrees(values, table)} >= r.column6)`,
  };
}

/**
 * A range of a place index, in millionths of a degree: its row, its longitudes, and the part of them
 * surely inside; and the least closeness inside its circle (closenessAt of the edge of its ring).
 */
type PlaceRow = [row: number, west: number, east: number, sureWest: number, sureEast: number, within: number];

/**
 * A ring's fine rows are cut into pieces about half its width wide, at most MOST_PIECES per stretch:
 * quarters cost the empty rings of a deck far from everyone more ranges than they saved.
 */
const PIECES_PER_RING = 2;
const MOST_PIECES = 8;
const KM_PER_DEGREE = 111.195;
const NOTHING_SURE = 181_000_000;

/**
 * A capped read stops after its first candidates in the ranges' order, and within a range the index is
 * read west to east: from the far end of a stretch west of the centre. Cut into pieces about `pieceKm`
 * wide, nearest piece first, the candidates read first are about the nearest there are, and their
 * page-th nearest narrows a crowded ring to about where the page lies (where everyone near has been
 * passed on, in one step instead of two). Pieces share their edges, so together they hold exactly what
 * the stretch holds; someone on an edge is read twice (see nearestFirst). Cheap in fine rows, which
 * capped reads of up to FINE_UP_TO_KM use; wide rings' thousand ranges are left whole.
 */
function nearestPiecesFirst(rows: PlaceRow[], from: Coordinates, rowsPerDegree: number, pieceKm: number): PlaceRow[] {
  const pieces: { range: PlaceRow; distance: number }[] = [];
  for (const [row, west, east, sureWest, sureEast, within] of rows) {
    // Where the piece comes nearest the centre, in flat km: enough to put pieces in order.
    const nearestLatitude = Math.min(Math.max(from.latitude, row / rowsPerDegree), (row + 1) / rowsPerDegree);
    const northSouthKm = Math.abs(nearestLatitude - from.latitude) * KM_PER_DEGREE;
    const kmPerDegree = KM_PER_DEGREE * Math.max(Math.cos((nearestLatitude * Math.PI) / 180), 0.01);
    const count = Math.min(MOST_PIECES, Math.max(1, Math.ceil((((east - west) / 1e6) * kmPerDegree) / pieceKm)));
    const step = Math.ceil((east - west) / count);
    for (let start = west; ; start += step) {
      const end = Math.min(start + step, east);
      const apart = Math.abs(Math.min(Math.max(from.longitude * 1e6, start), end) / 1e6 - from.longitude);
      const eastWestKm = Math.min(apart, 360 - apart) * kmPerDegree;
      const [pieceSureWest, pieceSureEast] = [Math.max(start, sureWest), Math.min(end, sureEast)];
      const sure = pieceSureWest <= pieceSureEast ? [pieceSureWest, pieceSureEast] : [NOTHING_SURE, -NOTHING_SURE];
      pieces.push({
        range: [row, start, end, sure[0]!, sure[1]!, within],
        distance: northSouthKm ** 2 + eastWestKm ** 2,
      });
      if (end === east) break;
    }
  }
  return pieces.sort((a, b) => a.distance - b.distance).map((piece) => piece.range);
}

/** Up to this many rows a circle is read as one longitude range per row; beyond, as one latitude band. */
const MAX_LISTED_ROWS = 40;

/**
 * A circle as a condition on its people (rows of latitude, the widest longitudes, then the exact test),
 * which leaves the planner free to read the circle or to walk a sort's index and test each person
 * (better where a circle holds a good part of everyone and a page is found early in that order).
 */
export function aroundCircle(from: Coordinates, km: number, table: "u" | "o"): RawBuilder<boolean> {
  const stretches = rowStretches(from, km, ROWS_PER_DEGREE);
  const [first, last] = [stretches[0]!.row, stretches.at(-1)!.row];
  const row = sql`floor(${sql.ref(`${table}.latitude`)} * ${sql.lit(ROWS_PER_DEGREE)})`;
  const rows =
    last - first < MAX_LISTED_ROWS
      ? sql`${row} in (${sql.join(Array.from({ length: last - first + 1 }, (_, i) => first + i))})`
      : sql`${row} between ${first} and ${last}`;
  // One stretch per row unless the circle crosses the antimeridian or holds a pole: then every longitude.
  const oneStretchPerRow = stretches.length === last - first + 1;
  const longitude = sql.ref(`${table}.longitude`);
  const longitudes = oneStretchPerRow
    ? sql`${longitude} between ${Math.min(...stretches.map((stretch) => stretch.west))} and ${Math.max(...stretches.map((stretch) => stretch.east))}`
    : sql`1 = 1`;
  return sql<boolean>`${rows} and ${longitudes} and ${closenessFromDegrees(centreOf(from), table)} >= ${closenessAt(km)}`;
}

export const inCircle = (search: Search) => search.withinKm !== null && search.from !== null;

export function nearness(search: Search, values: SearchValues, table: "u" | "o"): RawBuilder<number | null> {
  return search.from ? closenessFromDegrees(values, table) : sql<null>`null`;
}
