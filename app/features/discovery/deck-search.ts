// The deck's internal types: a search, the cards it finds, and the two decks' queries (sitters, pets).

import type { Coordinates } from "~/features/geo/index.server";
import type { DeckFilters } from "./filters";

export interface Search {
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
export interface Found {
  id: string;
  closeness: number | null;
  /** Whether its person is premium, where the query that found it ranked by that (a premium-first page). */
  premium?: boolean;
}

/** A card found with whether its person is premium, to be put in deck order. */
export interface Ranked extends Found {
  premium: boolean;
}

/** Which cards a page holds: premium ones only, premium ones first, or all alike. */
export type Premium = "only" | "first" | "alike";

/**
 * A ring's cards, unordered: all of them (`whole`) or, where it holds more than a read's cap, at least a
 * page of them; read `inTurn`, those of the rings before the one the read stopped in are all there.
 */
export interface RingRead {
  cards: Ranked[];
  whole: boolean;
  /** Whether several rings were read one after another, each whole before the next (see readOf). */
  inTurn: boolean;
}

/** The two decks' queries: candidates unordered and a page in deck order, both with the rules applied. */
export interface Cards {
  card: "sitter" | "pet";
  /** A ring's candidates (`search.ringsKm`, one after another), whole where it holds at most `cap`, else at least `page` of them. */
  candidates(search: Search, cap: number, page: number): Promise<RingRead>;
  page(search: Search, premium: Premium, limit: number): Promise<Found[]>;
  /** Every card a worldwide search whose filters leave few may show (the rules applied), or null when they may leave many. */
  fewMatching(search: Search): Promise<Ranked[] | null>;
}
