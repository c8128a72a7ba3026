import { sql, type AliasedRawBuilder, type Compilable, type OrderByModifiers, type RawBuilder } from "kysely";
import type { User } from "~db/schema";
import {
  databaseEngine,
  db,
  executeKeepingPlan,
  jsonList,
  numberRowsOf,
  numberRowsValues,
  preparedQuery,
  type PreparedQuery,
} from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { toPhotoView, type PhotoView } from "~/features/media/index.server";
import {
  completedBookingCounts,
  isOwner,
  isSitter,
  masksCaringFor,
  servicesOf,
  type OfferedService,
} from "~/features/profiles/index.server";
import { premiumFilterSql, premiumSql } from "~/features/subscriptions/index.server";
import { shownTo } from "~/features/safety/index.server";
import { SHARED_STAYS, sharesDays } from "~/features/bookings/index.server";
import { OWNER_ONLY_SORTS, earliestFirstDay, serviceChoiceOf, type DeckFilters } from "./filters";
import {
  closenessAt,
  kilometresFor,
  rowStretches,
  shownKilometres,
  type Coordinates,
} from "~/features/geo/index.server";

export type DeckTab = "sitters" | "pets";

export interface SitterCard {
  kind: "sitter";
  userId: string;
  petId: null;
  name: string;
  city: string;
  distanceKm: number | null;
  rating: number | null;
  reviewCount: number;
  /** Null for a sitter who offers no pet sitting by the hour (only other services). */
  hourlyRateCents: number | null;
  /** The services offered besides by the hour, each "from" its price. */
  services: OfferedService[];
  yearsExperience: number | null;
  completedBookings: number;
  bio: string;
  experience: string[];
  caresFor: string[];
  photos: PhotoView[];
}

export interface PetCard {
  kind: "pet";
  userId: string;
  petId: string;
  name: string;
  petType: "dog" | "cat";
  breed: string;
  age: string;
  energyLevel: string;
  temperament: string[];
  ownerName: string;
  city: string;
  distanceKm: number | null;
  photos: PhotoView[];
}

export type DeckCard = SitterCard | PetCard;

export type Viewer = Pick<
  User,
  | "id"
  | "role"
  | "latitude"
  | "longitude"
  | "browse_mode"
  | "filter_pet_type"
  | "filter_max_distance_km"
  | "filter_min_rating"
  | "filter_max_price_cents"
  | "filter_sort"
  | "filter_service"
  | "filter_first_day"
  | "filter_last_day"
  | "filter_pets"
>;

export type DeckResult = { status: "cards"; cards: DeckCard[] } | { status: "needs-location" };

export const DECK_PAGE = 5;

// Nearest first, the deck reads outwards ring by ring, each ring only beyond the last, and stops at the
// first circle that holds a page. A ring is read unordered, at most CIRCLE_CAP candidates at a time: one
// that holds more is narrowed instead (a city 1,200 km away is not read whole to deal 5 cards), and once
// narrowed to NARROWEST_RING_KM (the dense middle of a city, or one ~1.1 km cell that many share) it is
// read in distance order, a page at most. The first ring too is read unordered first: in a crowded city
// centre its first hundred candidates narrow it to a few hundred metres before anything is read whole.
const RINGS_KM = [2, 5, 10, 20, 50, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000];
const CIRCLE_CAP = 100;
const NARROWEST_RING_KM = 3;
const MOST_RINGS = 40;
const EMPTY_GROWTH = 10;
const STRAIGHT_NARROWINGS = 3;
/** A metre: what the closeness of a card read may lose turned back into kilometres. */
const ROUNDING_KM = 0.001;
/**
 * Worldwide, a filter whose range holds at most this many sitters (a top rating, a low price) has its
 * matches read whole from that range's index and ranked by distance: rings would read most of the
 * world's people to find those few.
 */
const FEW_IN_RANGE = 8000;

// The same predicates as the partial indexes of migrations 0025 and 0046 (with shownTo's suspended_at and
// deleted_at), so both engines can read candidates from those indexes alone. A sitter is anyone with a
// price: by the hour or for any other service (from_price_cents, the lowest).
const sitterRow = sql<boolean>`u.role in ('sitter', 'both') and u.from_price_cents is not null and u.email_verified_at is not null`;
const ownerRow = sql<boolean>`o.role in ('owner', 'both') and o.email_verified_at is not null`;

export function tabsFor(role: User["role"]): DeckTab[] {
  return [...(isOwner(role) ? (["sitters"] as const) : []), ...(isSitter(role) ? (["pets"] as const) : [])];
}

export function filtersOf(viewer: Viewer): DeckFilters {
  return {
    petType: viewer.filter_pet_type,
    maxDistanceKm: viewer.filter_max_distance_km,
    minRating: viewer.filter_min_rating,
    maxPriceCents: viewer.filter_max_price_cents,
    sortBy: viewer.filter_sort,
    service: serviceChoiceOf(viewer.filter_service),
    // Dates gone by filter nothing any more.
    ...(viewer.filter_first_day && viewer.filter_last_day && viewer.filter_first_day >= earliestFirstDay(now())
      ? { firstDay: viewer.filter_first_day, lastDay: viewer.filter_last_day }
      : { firstDay: null, lastDay: null }),
    pets: viewer.filter_pets,
  };
}

/** Today's calendar day in UTC, YYYY-MM-DD. */
export const todayUtc = () => now().toISOString().slice(0, 10);

/** The earliest first day the dates filter takes now (see earliestFirstDay). */
export const firstFilterDay = () => earliestFirstDay(now());

function coordinatesOf(viewer: Viewer): Coordinates | null {
  return viewer.latitude === null || viewer.longitude === null
    ? null
    : { latitude: viewer.latitude, longitude: viewer.longitude };
}

interface Search {
  viewerId: string;
  filters: DeckFilters;
  from: Coordinates | null;
  /** Everyone within this many km of `from`, or everyone at all (null). */
  withinKm: number | null;
  /** Beyond what is surely within this many km (read before): a ring instead of a circle. */
  beyondKm: number;
  /** A capped read's: fine rows cut into pieces, nearest first (see nearestPiecesFirst). */
  pieces?: true;
  /** A read of rings in turn (see nearestFirst): each one's outer edge, the last `withinKm`. */
  ringsKm?: number[];
  sort: "distance" | "rating" | "price" | "newest";
}

/** A card found, in deck order; its details are read afterwards, for the page's few cards only. */
interface Found {
  id: string;
  closeness: number | null;
  /** Whether its person is premium, where the query that found it ranked by that (a premium-first page). */
  premium?: boolean;
}

/** A card found with whether its person is premium, to be put in deck order. */
interface Ranked extends Found {
  premium: boolean;
}

/** Which cards a page holds: premium ones only, premium ones first, or all alike. */
type Premium = "only" | "first" | "alike";

/** The two decks' queries: candidates unordered and a page in deck order, both with the rules applied. */
interface Cards {
  card: "sitter" | "pet";
  candidates(search: Search, cap: number): Promise<Ranked[]>;
  page(search: Search, premium: Premium, limit: number): Promise<Found[]>;
  /** Every card a worldwide search whose filters leave few may show (the rules applied), or null when they may leave many. */
  fewMatching(search: Search): Promise<Ranked[] | null>;
}

export async function deckFor(viewer: Viewer, tab: DeckTab, limit = DECK_PAGE): Promise<DeckResult> {
  if (!tabsFor(viewer.role).includes(tab)) return { status: "cards", cards: [] };
  const filters = filtersOf(viewer);
  const from = coordinatesOf(viewer);
  const local = viewer.browse_mode === "local";
  if (local && !from) return { status: "needs-location" };

  let sort = filters.sortBy;
  if (tab === "pets" && OWNER_ONLY_SORTS.includes(sort)) sort = "distance";
  if (sort === "distance" && !from) sort = "newest";
  const search: Search = {
    viewerId: viewer.id,
    filters,
    from,
    withinKm: local ? filters.maxDistanceKm : null,
    beyondKm: 0,
    sort,
  };
  const cards = tab === "sitters" ? sitters : pets;
  const found = sort === "distance" ? await nearestFirst(cards, search, limit) : await boosted(cards, search, limit);
  return { status: "cards", cards: tab === "sitters" ? await sitterCards(found) : await petCards(found) };
}

// Premium cards are found on their own, so the main query can keep an index's order instead of sorting by membership.
async function boosted(cards: Cards, search: Search, limit: number): Promise<Found[]> {
  const premium = await cards.page(search, "only", limit);
  if (premium.length >= limit) return premium;
  const seen = new Set(premium.map((row) => row.id));
  const rest = (await cards.page(search, "alike", limit + premium.length)).filter((row) => !seen.has(row.id));
  return [...premium, ...rest].slice(0, limit);
}

async function nearestFirst(cards: Cards, search: Search, limit: number): Promise<Found[]> {
  if (search.withinKm === null) {
    const few = await cards.fewMatching(search);
    if (few) return nearestPage(few, limit);
  }
  const found = new Map<string, Found>();
  const limitKm = search.withinKm ?? Infinity;
  let inside = 0; // every card within `inside` km is in `found`
  let crowded: number | null = null; // the ring from `inside` to here holds more than CIRCLE_CAP cards
  let enough = Infinity; // the ring from `inside` to here holds a page, as far as cards read show
  let crowdedRings = 0;
  const firstRingCrowded = `first ring crowded ${cards.card} ${search.viewerId}`;
  // The circle the viewer's last page lay in (same place, same filters) is read whole in deck order
  // first: one query where rings took two to six (a crowded ring read and its narrowed page; from 1,200
  // km away, empty rings and narrowings). Every candidate in it was read whole by the rings before, so
  // it costs no more than they did. Fewer than a page are all it holds now, and rings go on beyond it.
  const { petType, minRating, maxPriceCents, service, firstDay, lastDay, pets: petCount } = search.filters;
  const lastPage = `last page ${cards.card} ${search.viewerId} ${search.from?.latitude} ${search.from?.longitude} ${petType} ${minRating} ${maxPriceCents} ${service} ${firstDay} ${lastDay} ${petCount}`;
  const lastPageKm = knownAnswer<number>(lastPage);
  if (lastPageKm !== undefined && lastPageKm <= limitKm) {
    const nearest = await cards.page({ ...search, withinKm: lastPageKm, beyondKm: 0 }, "first", limit);
    if (nearest.length >= limit) return nearest;
    for (const card of nearest) found.set(card.id, card);
    inside = lastPageKm;
  }
  const pageWithin = (km: number) => keepAnswer(lastPage, km);
  for (let ring = 1; found.size < limit && inside < limitKm; ring += 1) {
    const next = ringAfter(inside, found.size > 0);
    // After a crowded ring, the next reaches straight to where the cards read show a page to be (from
    // 1,200 km away halving read empty rings first); after STRAIGHT_NARROWINGS of those, rings halve, so
    // they narrow however unevenly the cards read lie.
    const km: number =
      crowded === null
        ? Math.min(next, limitKm)
        : crowdedRings <= STRAIGHT_NARROWINGS
          ? enough
          : Math.min((inside + crowded) / 2, enough);
    // Nobody within the largest ring: the rest of the world, nearest first.
    if (!Number.isFinite(km)) return boosted(cards, { ...search, withinKm: null }, limit);
    if ((crowded !== null && km - inside <= NARROWEST_RING_KM) || ring >= MOST_RINGS) {
      // A narrowed ring is read in deck order (premium cards first, then nearest first): fewer than a page are all it holds.
      const ordered = { ...search, withinKm: Math.min(crowded ?? km, enough), beyondKm: inside };
      const nearest = await cards.page(ordered, "first", limit);
      if (nearest.length < limit && crowded === null) {
        for (const card of nearest) found.set(card.id, card);
        inside = km;
        continue;
      }
      if (found.size + nearest.length >= limit) pageWithin(ordered.withinKm);
      if (found.size === 0) return nearest;
      return inDistanceOrder([...found.values(), ...nearest], limit);
    }
    // While nothing is found, a read takes the next ring too where its rows are the same size: a ring
    // left empty (far from everyone, or where the viewer has passed on everyone near) then costs no query
    // of its own. Two at most: a third would be a 5,000 km ring's ranges for a read that mostly stops
    // before. Not the first ring where it held a crowd for this viewer's last search: in a city's middle
    // the next ring's ranges (a few hundred) would be worked out and sent for nothing.
    const rings = [km];
    const further = Math.min(ringAfter(km, false), limitKm);
    const firstRead = ring === 1 && inside === 0;
    const takesNext =
      crowded === null && found.size === 0 && !(firstRead && knownAnswer<boolean>(firstRingCrowded) === true);
    if (takesNext && Number.isFinite(further) && rowsPerDegreeFor(further) === rowsPerDegreeFor(km))
      rings.push(further);
    const read = await cards.candidates(
      { ...search, withinKm: rings.at(-1)!, beyondKm: inside, ringsKm: rings, pieces: true },
      CIRCLE_CAP + 1,
    );
    // Someone on the edge two pieces share is read twice: the cap counts rows read, the rings hold people.
    const readCards = [...new Map(read.map((card) => [card.id, card])).values()];
    if (read.length > CIRCLE_CAP) {
      // Too many to read whole. The read stopped in the ring of the farthest card it read (a ring's ranges
      // hold only its own people, and the rings are read in turn): the rings before were read whole.
      const farthest = Math.min(...readCards.map((card) => card.closeness!));
      const ringOfFarthest = rings.findIndex((edgeKm) => farthest >= closenessAt(edgeKm));
      // (Past every edge only by rounding: then it is the last ring's.)
      const stoppedIn = ringOfFarthest === -1 ? rings.length - 1 : ringOfFarthest;
      if (firstRead) keepAnswer(firstRingCrowded, stoppedIn === 0);
      if (stoppedIn > 0) inside = rings[stoppedIn - 1]!;
      const wholeWithin = stoppedIn > 0 ? closenessAt(inside) : Infinity;
      const beyond: Found[] = [];
      for (const card of readCards) {
        if (card.closeness! >= wholeWithin) found.set(card.id, card);
        else beyond.push(card);
      }
      // Read a narrower ring, no wider than the cards read show a page to be (however unevenly those few
      // lie, that many are that near).
      const closest = (beyond.length >= limit ? beyond : [...found.values(), ...beyond])
        .map((card) => card.closeness!)
        .sort((a, b) => b - a);
      crowded = rings[stoppedIn]!;
      crowdedRings += 1;
      enough = Math.min(enough, kilometresFor(closest[limit - 1]!) + ROUNDING_KM);
      continue;
    }
    if (firstRead) keepAnswer(firstRingCrowded, false);
    for (const card of readCards) found.set(card.id, card);
    inside = rings.at(-1)!;
  }
  if (found.size >= limit) pageWithin(inside);
  return inDistanceOrder([...found.values()], limit);
}

/**
 * The ring after one reaching `km`. While no card is found, rings grow tenfold (2, 20, 200, 2,000, then
 * 5,000 km, the widest, before the rest of the world): an empty ring costs a query and its ranges, not
 * people, and a ring too crowded to read whole is narrowed anyway. From 1,200 km away, 4 reads reach the
 * first people instead of 6. Infinity past the widest.
 */
function ringAfter(km: number, anyFound: boolean): number {
  const grown = Math.min(EMPTY_GROWTH * km, RINGS_KM.at(-1)!);
  return RINGS_KM.find((ringKm) => ringKm > km && (anyFound || ringKm >= grown)) ?? Infinity;
}

/**
 * Cards found by ring reads and premium-first pages, each read with the rules applied and with whether
 * its person is premium, in deck order (see nearestPage).
 */
function inDistanceOrder(cards: Found[], limit: number): Found[] {
  const unique = new Map(cards.map((card) => [card.id, { ...card, premium: Boolean(card.premium) }]));
  return nearestPage([...unique.values()], limit);
}

/** Premium cards first, then nearest first, the card's id breaking ties (as inDeckOrder). */
function nearestPage(cards: Ranked[], limit: number): Found[] {
  return [...cards]
    .sort(
      (a, b) =>
        Number(b.premium) - Number(a.premium) ||
        b.closeness! - a.closeness! ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, limit)
    .map(({ id, closeness }) => ({ id, closeness }));
}

/**
 * Whether the viewer has not swiped the card (the person and, for a pet's card, the pet): a lookup. On
 * PostgreSQL, where a query may stop after a few candidates, fenced (`offset 0`) so it stays a lookup
 * per candidate: planned from the average viewer's few swipes, a join read every swipe of the viewer
 * for each candidate instead (a ring read of 101 sitters by a viewer with 300 swipes: 30,300 rows,
 * 1.5 → 4.4 ms). Where every candidate is read (`everyCandidate`), the planner may hash the swipes.
 */
function notSwiped(
  viewerId: string,
  person: string,
  pet: RawBuilder<unknown>,
  everyCandidate = false,
): RawBuilder<boolean> {
  const fence = databaseEngine === "postgres" && !everyCandidate ? sql` offset 0` : sql``;
  return sql<boolean>`not exists (select 1 from swipes s where s.swiper_id = ${viewerId}
    and s.target_user_id = ${sql.ref(person)} and coalesce(s.target_pet_id, '') = ${pet}${fence})`;
}

/**
 * How a query reads its candidates: all of them before its order is known (a circle's page, a range's
 * few matches), or only until it holds as many as it asks for (a ring's candidates, unordered); either
 * for a viewer who has passed on many sitters too (see passedOnMany).
 */
type Reading = "all" | "until-enough" | "all, passed on many" | "until-enough, passed on many";

/** How a sitter query reads for this viewer: on PostgreSQL, whether they have passed on many is asked too. */
async function sitterReading(search: Search, reading: "all" | "until-enough"): Promise<Reading> {
  return databaseEngine === "postgres" && (await passedOnMany(search.viewerId))
    ? `${reading}, passed on many`
    : reading;
}

/**
 * The viewer's swipes and blocks (either way), tested on a circle's every candidate. Where a query
 * stops after a few candidates, as the rules themselves (notSwiped, safety's shownTo), a lookup per
 * candidate: what it finds needs no second check. Where SQLite reads every candidate before the order is
 * known, as lists read once per query (a lookup each cost more), the page's few rows then meeting the
 * rules themselves; a list of a heavy swiper's 3,000 swipes cost a millisecond to build for 101 cards,
 * so never where SQLite stops early. PostgreSQL looks up (anti-joins) everywhere but for sitters read by
 * a viewer who has passed on many: lists make its planner price every range of a circle as if it built
 * them again and read the whole index instead, and a pet's list turned its plans over entirely (Las
 * Palmas pets 11 → 138 ms). Where a viewer has passed on many, PostgreSQL hashes their list once per
 * read, where a lookup costs about 1.8 µs a candidate and a ring they passed on whole is all lookups
 * (the heavy swiper's first ring: 1,715 of them, 3.8 → 1.9 ms); and their pages in a circle, which
 * with a million swipes in the table it planned as a walk of the rating index with a lookup per
 * sitter passed (the heavy swiper by rating: 37 → 4.6 ms). Since a viewer's swipes are read from the
 * index alone (migration 0030), it read them all again for each candidate of a circle's page where the
 * viewer had swiped a few hundred: hashed from PASSED_ON_MANY.
 */
function notSwipedOrBlocked(
  viewerId: string,
  card: "sitter" | "pet",
  id: string,
  table: "u" | "o",
  reading: Reading,
): RawBuilder<boolean> {
  const personId = `${table}.id`;
  // A pet's person through the pet (p.owner_id, the same person as o.id): PostgreSQL then looks the
  // swipe up on person and pet; through o.id it read every swipe of the viewer for each pet (a sitter's
  // pets near them, newest first, with 300 swipes: 4.3 → 2.1 ms).
  const swipedPerson = card === "pet" ? "p.owner_id" : personId;
  const lookups =
    databaseEngine === "postgres" ? !reading.endsWith("passed on many") : reading.startsWith("until-enough");
  if (lookups) {
    return sql<boolean>`${notSwiped(viewerId, swipedPerson, card === "pet" ? sql.ref(id) : sql`''`, reading.startsWith("all"))} and ${shownTo(viewerId, table)}`;
  }
  // In the terms of the index swipes_card (swiper_id, target_user_id, coalesce(target_pet_id, '')), so
  // the list is read from it alone: `target_pet_id is null` would look every swipe's row up.
  const swiped =
    card === "sitter"
      ? sql`select s.target_user_id from swipes s where s.swiper_id = ${viewerId} and coalesce(s.target_pet_id, '') = ''`
      : sql`select coalesce(s.target_pet_id, '') from swipes s where s.swiper_id = ${viewerId} and coalesce(s.target_pet_id, '') <> ''`;
  return sql<boolean>`${sql.ref(id)} not in (${swiped}) and ${sql.ref(personId)} not in (select bl.blocked_id from blocks bl
    where bl.blocker_id = ${viewerId} union all select bl.blocker_id from blocks bl where bl.blocked_id = ${viewerId})`;
}

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
interface SearchValues extends Centre {
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

function valuesOf(search: Search, limit: number): SearchValues {
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
const rowsPerDegreeFor = (km: number) => (km <= FINE_UP_TO_KM ? FINE_ROWS_PER_DEGREE : ROWS_PER_DEGREE);

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
function placesOf(search: Search, values: SearchValues, table: "u" | "o"): Places {
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
function aroundCircle(from: Coordinates, km: number, table: "u" | "o"): RawBuilder<boolean> {
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

/**
 * The people a search reads: everyone, or those in its circle. Nearest first, the circle (a ring, from
 * the second on) is read through its places' table, first in a cross join, which SQLite reads as "loop
 * over the ranges outside" (left alone, it may walk an order's index and look every person up in the
 * ranges); PostgreSQL plans it as any join. In another order the planner chooses (aroundCircle).
 */
function people(users: "users as u", search: Search, values: SearchValues): People<"users as u">;
function people(users: "users as o", search: Search, values: SearchValues): People<"users as o">;
function people(users: "users as u" | "users as o", search: Search, values: SearchValues): unknown {
  const [table, alias] = [users as "users as u", users.slice(-1) as "u" | "o"];
  if (search.withinKm === null || !search.from) return db.selectFrom(table);
  if (search.sort !== "distance") return db.selectFrom(table).where(aroundCircle(search.from, search.withinKm, alias));
  const places = placesOf(search, values, alias);
  // Typed as the people alone: the ranges' columns are only named in the places' own conditions.
  return db.selectFrom(places.table).crossJoin(table).where(places.on);
}

/**
 * What a search tests on each candidate besides its filters, the cheapest first: its swipes and blocks
 * (in a circle, where every candidate is read), then the exact test of a ring's places (see people).
 */
function notSwipedOrBlockedWithin(
  search: Search,
  values: SearchValues,
  reading: Reading,
  card: "sitter" | "pet",
  id: string,
  table: "u" | "o",
): RawBuilder<boolean> {
  const swipesAndBlocks = notSwipedOrBlocked(values.viewerId, card, id, table, reading);
  return search.sort === "distance"
    ? sql<boolean>`${swipesAndBlocks} and ${placesOf(search, values, table).inside}`
    : swipesAndBlocks;
}

type People<As extends "users as u" | "users as o"> = ReturnType<typeof db.selectFrom<As>>;

const inCircle = (search: Search) => search.withinKm !== null && search.from !== null;

function nearness(search: Search, values: SearchValues, table: "u" | "o"): RawBuilder<number | null> {
  return search.from ? closenessFromDegrees(values, table) : sql<null>`null`;
}

interface Orderable<Q> {
  orderBy(key: RawBuilder<unknown>, modifiers: OrderByModifiers): Q;
}

/** Deck order on the columns of `table` (the people, or a circle's ranked candidates) and the selected closeness, the card's id breaking ties. */
function inDeckOrder<Q extends Orderable<Q>>(
  query: Q,
  sort: Search["sort"],
  table: string,
  premium: Premium = "alike",
): Q {
  const ref = (column: string) => sql`${sql.ref(`${table}.${column}`)}`;
  const first: [RawBuilder<unknown>, OrderByModifiers][] =
    premium === "first" ? [[sql`${sql.ref("premium")}`, "desc"]] : [];
  const keys: [RawBuilder<unknown>, OrderByModifiers][] =
    sort === "distance"
      ? [[sql`${sql.ref("closeness")}`, "desc"]]
      : sort === "rating"
        ? // Unrated last on both engines (PostgreSQL puts nulls first when descending).
          [
            [ref("rating_average"), (order) => order.desc().nullsLast()],
            [ref("review_count"), "desc"],
          ]
        : sort === "price"
          ? [[ref("from_price_cents"), "asc"]]
          : [[ref("created_at"), "desc"]];
  return [...first, ...keys, [ref("id"), "asc"] as const].reduce(
    (next, [key, modifiers]) => next.orderBy(key, modifiers),
    query,
  );
}

/** The columns of a sitter's row that each order ranks by (besides the id, and closeness nearest first). */
const SITTER_ORDER_COLUMNS = {
  distance: [],
  rating: ["u.rating_average", "u.review_count"],
  price: ["u.from_price_cents"],
  newest: ["u.created_at"],
} as const satisfies Record<Search["sort"], readonly string[]>;

/** Which filters and rules apply comes from the search; every value they compare with from `values`. */
function sitterQuery(search: Search, values: SearchValues, premium: Premium, reading: Reading = "all") {
  const { filters } = search;
  // The filters first: SQLite tests a candidate's conditions in the order written, the rarest first.
  let query = people("users as u", search, values).select("u.id");
  if (filters.petType !== "all") query = query.where("u.cares_for_mask", "in", masksCaringFor(filters.petType));
  if (filters.minRating > 0) query = query.where("u.rating_average", ">=", values.minRating);
  if (filters.pets > 1) query = query.where("u.max_pets", ">=", values.pets);
  // Without a service, a price filter meets the sitter's lowest price; with one, that service's price.
  if (filters.maxPriceCents !== null) query = query.where("u.from_price_cents", "<=", values.maxPriceCents);
  if (filters.service !== "any") query = query.where(offers(filters.service, values, filters.maxPriceCents !== null));
  if (filters.firstDay !== null) query = query.where(freeOnDays(values, filters.service));
  query = query
    .where(sitterRow)
    .where("u.suspended_at", "is", null)
    .where("u.deleted_at", "is", null)
    .where("u.id", "!=", values.viewerId);
  if (premium === "only") query = query.where(premiumFilterSql("u", values.at));
  if (inCircle(search)) query = query.where(notSwipedOrBlockedWithin(search, values, reading, "sitter", "u.id", "u"));
  return premium === "first" ? query.select(premiumSql("u", values.at).as("premium")) : query;
}

/**
 * Whether the sitter offers the service (at most at the price filter's price, where one is set): by the
 * hour is their hourly rate, the others a row of sitter_services, found by its key.
 */
function offers(service: DeckFilters["service"], values: SearchValues, capped: boolean): RawBuilder<boolean> {
  if (service === "hourly") {
    return capped
      ? sql<boolean>`u.hourly_rate_cents <= ${values.maxPriceCents}`
      : sql<boolean>`u.hourly_rate_cents is not null`;
  }
  const price = capped ? sql` and ss.price_cents <= ${values.maxPriceCents}` : sql``;
  return sql<boolean>`exists (select 1 from sitter_services ss where ss.sitter_id = u.id and ss.service = ${values.service}${price})`;
}

/**
 * Whether the sitter is free on every day of the dates filter, as a request for those days would find:
 * no day marked not free (availability's isFreeOnDays, one lookup of sitter_days_off's key per
 * candidate), and room beside the sitter's confirmed and in-progress stays (bookings' stayFits), read
 * from the stays' index (bookings_stays_by_sitter). Whatever the service, a house sitting takes the
 * sitter away for whole days. Filtering by boarding or day care, which share the sitter's home, the
 * filter's pets must also fit within users.max_pets beside the boarding and day care pets of each day;
 * by house sitting, no stay at all may touch those days. Without a service, or by the hour, walks and
 * drop-ins, a home full of boarders leaves no one out: its sitter may still come and walk a dog.
 * A stay touches each calendar day from its start to its end, both included, days being compared as the
 * calendar dates of the stored instants in UTC (stayFits takes the sitter's time zone; the filter has none).
 */
function freeOnDays(values: SearchValues, service: DeckFilters["service"]): RawBuilder<boolean> {
  const [firstDay, lastDay] = [
    sql<string>`cast(${values.firstDay} as text)`,
    sql<string>`cast(${values.lastDay} as text)`,
  ];
  const daysOff = sql<boolean>`not exists (select 1 from sitter_days_off d where d.sitter_id = u.id
    and d.day >= ${firstDay} and d.day <= ${lastDay})`;
  const away = sql<boolean>`not exists (select 1 from bookings b
    where ${staysOn("b", service === "house_sitting" ? [...STAYS_AWAY, ...SHARED_STAYS] : STAYS_AWAY, firstDay, lastDay)})`;
  if (!sharesDays(service)) return sql<boolean>`${daysOff} and ${away}`;
  // The pets present only rise on a day a stay starts, so the busiest day is the first day or a stay's
  // first day within the dates: each stay touching the dates is tested on the later of the two.
  const peakDay = sql<string>`(case when s.start_at < ${firstDay} then ${firstDay} else substr(s.start_at, 1, 10) end)`;
  const full = sql<boolean>`not exists (select 1 from bookings s where ${staysOn("s", SHARED_STAYS, firstDay, lastDay)}
    and (select count(*) from bookings t inner join booking_pets bp on bp.booking_id = t.id
      where ${staysOn("t", SHARED_STAYS, peakDay, peakDay)}) > u.max_pets - ${values.pets})`;
  return sql<boolean>`${daysOff} and ${away} and ${full}`;
}

/** Stays that take the sitter away from home: whole days that nothing else shares. */
const STAYS_AWAY = ["house_sitting"];

/**
 * The candidate's confirmed or in-progress stays of these services touching the days from `firstDay` to
 * `lastDay` (YYYY-MM-DD), a stay touching its last day too: `<> 'hourly'` is the stays index's own condition.
 */
function staysOn(
  alias: "b" | "s" | "t",
  services: readonly string[],
  firstDay: RawBuilder<string>,
  lastDay: RawBuilder<string>,
): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`${column("sitter_id")} = u.id and ${column("service_type")} <> 'hourly'
    and ${column("service_type")} in (${sql.join(services.map((service) => sql.lit(service)))})
    and ${column("status")} in ('confirmed', 'in-progress')
    and ${column("end_at")} > ${firstDay} and ${column("start_at")} < ${lastDay} || 'T24'`;
}

/**
 * A ring's candidates (see Cards), unordered, as many as `values.limit`. Up to eight per search, each
 * of a few shapes: built and compiled once per shape (below). Building and compiling them anew was a
 * third of the Node CPU of a search from far away (Las Palmas pets on PostgreSQL: 4.7 → 3.4 ms a search).
 */
function ringCandidates(
  card: "sitter" | "pet",
  search: Search,
  values: SearchValues,
  reading: Reading,
): Compilable<Ranked> {
  const select = (table: "u" | "o") =>
    [nearness(search, values, table).as("closeness"), premiumSql(table, values.at).as("premium")] as const;
  return card === "sitter"
    ? sitterQuery(search, values, "alike", reading).select(select("u")).limit(values.limit)
    : petQuery(search, values, "alike", reading).select(select("o")).limit(values.limit);
}

/** Ring reads by shape: all that changes their text is the card, which filters apply, the rows' size and how swipes are read. */
const ringReads = new Map<string, PreparedQuery<SearchValues, Ranked>>();

function ringRead(
  card: "sitter" | "pet",
  search: Search,
  cap: number,
  reading: Reading = "until-enough",
): Promise<Ranked[]> {
  const { filters } = search;
  const shape = [
    card,
    filters.petType,
    filters.minRating > 0,
    filters.maxPriceCents !== null,
    filters.service,
    filters.firstDay !== null,
    filters.pets > 1,
    rowsPerDegreeFor(search.withinKm!),
    reading,
  ].join(" ");
  let read = ringReads.get(shape);
  if (!read) {
    // Built from this search for its shape alone: its values are stand-ins, bound anew on every run.
    read = preparedQuery((values: SearchValues) => ringCandidates(card, search, values, reading));
    ringReads.set(shape, read);
  }
  return read.all(valuesOf(search, cap));
}

const sitters: Cards = {
  card: "sitter",

  async candidates(search, cap) {
    return ringRead("sitter", search, cap, await sitterReading(search, "until-enough"));
  },

  async page(search, premium, limit) {
    const values = valuesOf(search, limit);
    const query = sitterQuery(search, values, premium, inCircle(search) ? await sitterReading(search, "all") : "all");
    if (!inCircle(search)) {
      // Read in an index's order: the first candidates that pass are the page. Planned on every run
      // (which index suits depends on how rare the filters' values are); circles keep their plans.
      const page = query
        .select(nearness(search, values, "u").as("closeness"))
        .where(shownTo(search.viewerId, "u"))
        .where(notSwiped(search.viewerId, "u.id", sql`''`));
      return inDeckOrder(page, search.sort, "u", premium).limit(limit).execute();
    }
    // Every candidate in a circle is read before the order is known: ranked from the index alone, then
    // the page's rows are read and checked by the rules. The ranked rows carry their order's columns to
    // the outer query (ring reads, which need none, send only a card's id, closeness and membership).
    const ranked = query
      .$if(search.sort === "distance", (q) => q.select(nearness(search, values, "u").as("closeness")))
      .select([...SITTER_ORDER_COLUMNS[search.sort]]);
    const candidates = inDeckOrder(ranked, search.sort, "u", premium).limit(limit);
    const page = db
      .selectFrom(candidates.as("c"))
      .crossJoin("users as u")
      .whereRef("u.id", "=", "c.id")
      .select(["c.id", nearness(search, values, "u").as("closeness")])
      .$if(premium === "first", (q) => q.select(sql<boolean>`${sql.ref("c.premium")}`.as("premium")))
      .where(shownTo(search.viewerId, "u"))
      .where(notSwiped(search.viewerId, "u.id", sql`''`));
    return executeKeepingPlan(inDeckOrder(page, search.sort, "c", premium).limit(limit));
  },

  async fewMatching(search) {
    const { filters } = search;
    // Each range is walked in its own index's order, so the index is the one read; its size is counted
    // first, no further than FEW_IN_RANGE.
    const ranges = [
      filters.minRating > 0
        ? { sort: "rating" as const, within: sql<boolean>`u.rating_average >= ${filters.minRating}` }
        : null,
      filters.maxPriceCents !== null
        ? { sort: "price" as const, within: sql<boolean>`u.from_price_cents <= ${filters.maxPriceCents}` }
        : null,
    ];
    for (const range of ranges) {
      if (!range) continue;
      const few = await keptAnswer(
        `few ${range.sort} ${range.sort === "rating" ? filters.minRating : filters.maxPriceCents}`,
        async () => {
          const inRange = db
            .selectFrom("users as u")
            .select(sql`1`.as("one"))
            .where(sitterRow)
            .where("u.suspended_at", "is", null)
            .where("u.deleted_at", "is", null)
            .where(range.within)
            .limit(FEW_IN_RANGE + 1);
          const { count } = await db
            .selectFrom(inRange.as("r"))
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .executeTakeFirstOrThrow();
          return Number(count) <= FEW_IN_RANGE;
        },
      );
      if (!few) continue;
      // The viewer's swipes and blocks as lists (as in a circle): each match is then one the deck may show.
      const values = valuesOf(search, 0);
      const matching = sitterQuery({ ...search, sort: range.sort }, values, "alike")
        .select([nearness(search, values, "u").as("closeness"), premiumSql("u", values.at).as("premium")])
        .where(notSwipedOrBlocked(search.viewerId, "sitter", "u.id", "u", "all"));
      const rows = await inDeckOrder(matching, range.sort, "u").execute();
      return rows.map((row) => ({ id: row.id, closeness: row.closeness, premium: Boolean(row.premium) }));
    }
    return null;
  },
};

/**
 * Answers that choose how a search reads, not what it finds, and change slowly: whether a filter's
 * range holds few sitters (counting it reads up to FEW_IN_RANGE index entries, 2–3 ms on PostgreSQL at
 * a million profiles, for each of a search's two ranges), whether a viewer has passed on many, whether
 * a viewer's first ring held a crowd and how near their page lay (learnt from their last search). Each is kept ANSWER_KEPT_MS, in
 * each instance. Either answer deals the same cards; a stale one
 * only chooses the slower way to find them.
 */
const ANSWER_KEPT_MS = 10 * 60_000;
const MOST_ANSWERS_KEPT = 50_000;
const keptAnswers = new Map<string, { answer: boolean | number; at: number }>();

async function keptAnswer(question: string, answer: () => Promise<boolean>): Promise<boolean> {
  const known = knownAnswer<boolean>(question);
  if (known !== undefined) return known;
  const fresh = await answer();
  keepAnswer(question, fresh);
  return fresh;
}

/** The answer kept for `question`, if one was in the last ANSWER_KEPT_MS (each question keeps one kind of answer). */
function knownAnswer<Answer extends boolean | number>(question: string): Answer | undefined {
  const known = keptAnswers.get(question);
  return known && Date.now() - known.at < ANSWER_KEPT_MS ? (known.answer as Answer) : undefined;
}

/**
 * Forgets what was learnt of how to read this viewer's decks (where their last page lay, whether their
 * first ring held a crowd, whether they have passed on many), as before their first search in
 * ANSWER_KEPT_MS: the deck bench measures such searches apart.
 */
export function forgetHowToRead(viewerId: string): void {
  for (const question of keptAnswers.keys()) if (question.split(" ").includes(viewerId)) keptAnswers.delete(question);
}

function keepAnswer(question: string, answer: boolean | number): void {
  // Questions come from members and their filters: the map is emptied rather than let grow past a bound.
  if (keptAnswers.size >= MOST_ANSWERS_KEPT) keptAnswers.clear();
  keptAnswers.set(question, { answer, at: Date.now() });
}

/**
 * Whether a viewer has passed on (or liked) at least PASSED_ON_MANY sitters and at most
 * PASSED_ON_MOST: their list is then worth hashing on PostgreSQL (see notSwipedOrBlocked). Past the
 * most, a list hashed on every read would cost more than the lookups it saves. From a hundred: a
 * circle's page, planned for the average viewer's few swipes, read all of a viewer's swipes again for
 * each candidate (300 swipes, by rating within 50 km: 4.8 → 3.6 ms p50, by newest 5.8 → 4.0, A/B),
 * where a hashed list costs a few hundred entries of the index swipes_card read once.
 */
const PASSED_ON_MANY = 100;
const PASSED_ON_MOST = 10_000;

function passedOnMany(viewerId: string): Promise<boolean> {
  return keptAnswer(`passed on many ${viewerId}`, async () => {
    const swiped = db
      .selectFrom("swipes as s")
      .select(sql`1`.as("one"))
      .where("s.swiper_id", "=", viewerId)
      .where(sql<boolean>`coalesce(s.target_pet_id, '') = ''`)
      .limit(PASSED_ON_MOST + 1);
    const { count } = await db
      .selectFrom(swiped.as("s"))
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    return Number(count) >= PASSED_ON_MANY && Number(count) <= PASSED_ON_MOST;
  });
}

function petQuery(search: Search, values: SearchValues, premium: Premium, reading: Reading = "all") {
  const { filters } = search;
  const owners = people("users as o", search, values)
    .where(ownerRow)
    .where("o.suspended_at", "is", null)
    .where("o.deleted_at", "is", null)
    .where("o.id", "!=", values.viewerId);
  let query = owners.innerJoin("pets as p", "p.owner_id", "o.id").select("p.id");
  if (filters.petType !== "all") query = query.where("p.pet_type", "=", filters.petType);
  if (premium === "only") query = query.where(premiumFilterSql("o", values.at));
  if (inCircle(search)) query = query.where(notSwipedOrBlockedWithin(search, values, reading, "pet", "p.id", "o"));
  return premium === "first" ? query.select(premiumSql("o", values.at).as("premium")) : query;
}

const pets: Cards = {
  card: "pet",

  candidates(search, cap) {
    return ringRead("pet", search, cap);
  },

  page(search, premium, limit) {
    const values = valuesOf(search, limit);
    const query = petQuery(search, values, premium);
    if (!inCircle(search)) {
      // The swipe's person through the pet (p.owner_id, the same person): PostgreSQL then seeks the
      // swipe on person and pet; through o.id it tested o.id after reading every swipe of the viewer.
      const page = query
        .select(nearness(search, values, "o").as("closeness"))
        .where(shownTo(search.viewerId, "o"))
        .where(notSwiped(search.viewerId, "p.owner_id", sql.ref("p.id")));
      return inDeckOrder(page, search.sort, "p", premium).limit(limit).execute();
    }
    const ranked = query
      .$if(search.sort === "distance", (q) => q.select(nearness(search, values, "o").as("closeness")))
      .$if(search.sort === "newest", (q) => q.select("p.created_at"))
      .select("o.id as person");
    const candidates = inDeckOrder(ranked, search.sort, "p", premium).limit(limit);
    const page = db
      .selectFrom(candidates.as("c"))
      .crossJoin("users as o")
      .whereRef("o.id", "=", "c.person")
      .select(["c.id", nearness(search, values, "o").as("closeness")])
      .$if(premium === "first", (q) => q.select(sql<boolean>`${sql.ref("c.premium")}`.as("premium")))
      .where(shownTo(search.viewerId, "o"))
      .where(notSwiped(search.viewerId, "o.id", sql.ref("c.id")));
    return executeKeepingPlan(inDeckOrder(page, search.sort, "c", premium).limit(limit));
  },

  // A pet's only filter is its kind: never few.
  async fewMatching() {
    return null;
  },
};

/** The page's details, in the order found (a card gone between the two reads is left out). */
function inOrderOf<Detail extends { id: string }>(rows: Found[], details: Detail[]): { row: Found; detail: Detail }[] {
  const byId = new Map(details.map((detail) => [detail.id, detail]));
  return rows.flatMap((row) => {
    const detail = byId.get(row.id);
    return detail ? [{ row, detail }] : [];
  });
}

async function sitterCards(rows: Found[]): Promise<SitterCard[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  // The page's details keep their plans as the deck's own reads do (a few ids, read by key), so a
  // connection serving decks never switches PostgreSQL's plan mode back and forth.
  const [details, photos, completed, services] = await Promise.all([
    executeKeepingPlan(
      db
        .selectFrom("users")
        .select([
          "id",
          "name",
          "city",
          "rating_average",
          "review_count",
          "hourly_rate_cents",
          "years_experience",
          "bio",
          "experience",
          "cares_for",
        ])
        .where("id", "in", ids),
    ),
    photosOf("user_id", ids),
    completedBookingCounts(ids),
    servicesOf(db, ids),
  ]);
  return inOrderOf(rows, details).map(({ row, detail }) => ({
    kind: "sitter",
    userId: row.id,
    petId: null,
    name: detail.name,
    city: detail.city,
    distanceKm: row.closeness === null ? null : shownKilometres(kilometresFor(row.closeness)),
    rating: detail.rating_average,
    reviewCount: detail.review_count,
    hourlyRateCents: detail.hourly_rate_cents,
    services: services.get(row.id) ?? [],
    yearsExperience: detail.years_experience,
    completedBookings: completed.get(row.id) ?? 0,
    bio: detail.bio,
    experience: jsonList.read(detail.experience),
    caresFor: jsonList.read(detail.cares_for),
    photos: photos.get(row.id) ?? [],
  }));
}

async function petCards(rows: Found[]): Promise<PetCard[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [details, photos] = await Promise.all([
    executeKeepingPlan(
      db
        .selectFrom("pets as p")
        .innerJoin("users as o", "o.id", "p.owner_id")
        .select([
          "p.id",
          "p.name",
          "p.pet_type",
          "p.breed",
          "p.age",
          "p.energy_level",
          "p.temperament",
          "o.id as owner_id",
          "o.name as owner_name",
          "o.city",
        ])
        .where("p.id", "in", ids),
    ),
    photosOf("pet_id", ids),
  ]);
  return inOrderOf(rows, details).map(({ row, detail }) => ({
    kind: "pet",
    userId: detail.owner_id,
    petId: row.id,
    name: detail.name,
    petType: detail.pet_type,
    breed: detail.breed,
    age: detail.age,
    energyLevel: detail.energy_level,
    temperament: jsonList.read(detail.temperament),
    ownerName: detail.owner_name,
    city: detail.city,
    distanceKm: row.closeness === null ? null : shownKilometres(kilometresFor(row.closeness)),
    photos: photos.get(row.id) ?? [],
  }));
}

async function photosOf(by: "user_id" | "pet_id", ids: string[]): Promise<Map<string, PhotoView[]>> {
  const grouped = new Map<string, PhotoView[]>();
  if (ids.length === 0) return grouped;
  let query = db
    .selectFrom("photos")
    .select(["id", "user_id", "pet_id", "card_key", "full_key", "width", "height"])
    .where(by, "in", ids);
  if (by === "user_id") query = query.where("pet_id", "is", null);
  for (const photo of await executeKeepingPlan(query.orderBy("position"))) {
    const key = by === "user_id" ? photo.user_id : photo.pet_id!;
    grouped.set(key, [...(grouped.get(key) ?? []), toPhotoView(photo)]);
  }
  return grouped;
}
