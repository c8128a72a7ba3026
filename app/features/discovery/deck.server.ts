// The swipe deck: who a viewer sees, nearest first ring by ring or in a sort's order, a page at a time.
// Its pieces: deck-places (place index), deck-rules, deck-reads and deck-cards.

import type { User } from "~db/schema";
import { now } from "~/platform/clock.server";
import { isOwner, isSitter } from "~/features/profiles/index.server";
import { closenessAt, kilometresFor, type Coordinates } from "~/features/geo/index.server";
import { OWNER_ONLY_SORTS, earliestFirstDay, serviceChoiceOf, type DeckFilters } from "./filters";
import { petCards, sitterCards, type PetCard, type SitterCard } from "./deck-cards.server";
import { rowsPerDegreeFor } from "./deck-places.server";
import { keepAnswer, knownAnswer, pets, sitters } from "./deck-reads.server";
import type { Cards, Found, Ranked, Search } from "./deck-search";

export type { PetCard, SitterCard } from "./deck-cards.server";
export { forgetHowToRead } from "./deck-reads.server";

export type DeckTab = "sitters" | "pets";

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
      CIRCLE_CAP,
      limit,
    );
    // Someone on the edge two pieces share is read twice: the cap counts rows read, the rings hold people.
    const readCards = [...new Map(read.cards.map((card) => [card.id, card])).values()];
    if (!read.whole) {
      // Too many to read whole: the rings up to the farthest card read hold more. Where the rings were
      // read in turn, the read stopped in that card's ring (a ring's ranges hold only its own people) and
      // the rings before were read whole; otherwise none of them may have been.
      const farthest = Math.min(...readCards.map((card) => card.closeness!));
      const ringOfFarthest = rings.findIndex((edgeKm) => farthest >= closenessAt(edgeKm));
      // (Past every edge only by rounding: then it is the last ring's.)
      const stoppedIn = ringOfFarthest === -1 ? rings.length - 1 : ringOfFarthest;
      const wholeRings = read.inTurn ? stoppedIn : 0;
      if (firstRead) keepAnswer(firstRingCrowded, stoppedIn === 0);
      if (wholeRings > 0) inside = rings[wholeRings - 1]!;
      const wholeWithin = wholeRings > 0 ? closenessAt(inside) : Infinity;
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
