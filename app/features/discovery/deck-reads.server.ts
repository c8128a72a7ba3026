// The two decks' reads (sitters, pets): ring reads prepared once per shape, pages in deck order, a
// filter's few matches; and the answers kept that choose how a search reads.

import { sql, type Compilable, type RawBuilder } from "kysely";
import { databaseEngine, db, executeKeepingPlan, preparedQuery, type PreparedQuery } from "~/platform/db.server";
import { premiumSql } from "~/features/subscriptions/index.server";
import { shownTo } from "~/features/safety/index.server";
import { inCircle, nearness, rowsPerDegreeFor, valuesOf, type SearchValues } from "./deck-places.server";
import {
  careTests,
  inDeckOrder,
  notSwiped,
  notSwipedOrBlocked,
  petQuery,
  sitterQuery,
  sitterRow,
  testsCare,
  type Reading,
} from "./deck-rules.server";
import type { Cards, Found, Premium, Ranked, RingRead, Search } from "./deck-search";

/**
 * Worldwide, a filter whose range holds at most this many sitters (a top rating, a low price) has its
 * matches read whole from that range's index and ranked by distance: rings would read most of the
 * world's people to find those few.
 */
const FEW_IN_RANGE = 8000;

/** How a sitter query reads for this viewer: on PostgreSQL, whether they have passed on many is asked too. */
async function sitterReading(search: Search, reading: "all" | "until-enough"): Promise<Reading> {
  return databaseEngine === "postgres" && (await passedOnMany(search.viewerId))
    ? `${reading}, passed on many`
    : reading;
}

/** The columns of a sitter's row that each order ranks by (besides the id, and closeness nearest first). */
const SITTER_ORDER_COLUMNS = {
  distance: [],
  rating: ["u.rating_average", "u.review_count"],
  price: ["u.from_price_cents"],
  newest: ["u.created_at"],
} as const satisfies Record<Search["sort"], readonly string[]>;

/**
 * A ring's candidates (see Cards), unordered, as many as `values.limit`. Up to eight per search, each
 * of a few shapes: built and compiled once per shape (below). Building and compiling them anew was a
 * third of the Node CPU of a search from far away (the README's Benchmarks).
 */
function ringCandidates(
  card: "sitter" | "pet",
  search: Search,
  values: SearchValues,
  reading: Reading,
  care: "tested" | "marked",
): Compilable<RingCandidate> {
  const select = (table: "u" | "o") =>
    [nearness(search, values, table).as("closeness"), premiumSql(table, values.at).as("premium")] as const;
  if (card === "pet") return petQuery(search, values, "alike", reading).select(select("o")).limit(values.limit);
  if (care === "tested") return sitterQuery(search, values, "alike", reading).select(select("u")).limit(values.limit);
  // Care marked on each candidate read by the other rules, from the columns read with it (its id and
  // how many pets it takes): no row of users is read again.
  const listed = sitterQuery(search, values, "alike", reading, "apart")
    .select([...select("u"), "u.max_pets"])
    .limit(values.limit);
  const cared = sql<boolean>`${sql.join(careTests(search, values), sql` and `)}`;
  return db.selectFrom(listed.as("u")).select(["u.id", "u.closeness", "u.premium", cared.as("cared")]);
}

/** A candidate of a ring read, and where care is marked rather than tested, whether its sitter passes it. */
type RingCandidate = Ranked & { cared?: boolean };

/**
 * Ring reads by shape: all that changes their text is the card, which filters apply (care in the read or
 * apart), the rows' size and how swipes are read.
 */
const ringReads = new Map<string, PreparedQuery<SearchValues, RingCandidate>>();

function ringRead(
  card: "sitter" | "pet",
  search: Search,
  cap: number,
  reading: Reading = "until-enough",
  care: "tested" | "marked" = "tested",
): Promise<RingCandidate[]> {
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
    care,
  ].join(" ");
  let read = ringReads.get(shape);
  if (!read) {
    // Built from this search for its shape alone: its values are stand-ins, bound anew on every run.
    read = preparedQuery((values: SearchValues) => ringCandidates(card, search, values, reading, care));
    ringReads.set(shape, read);
  }
  return read.all(valuesOf(search, cap));
}

/**
 * How many times a page's candidates a worldwide page lists before its care filters are tested (see
 * orderedPage).
 */
const CARE_LISTED = 4;

/**
 * A worldwide page of sitters, read in an index's order: the first candidates that pass are the page.
 * Planned on every run (which index suits depends on how rare the filters' values are); circles keep their
 * plans. With care filters that read other tables (a service, dates), the first CARE_LISTED pages' worth
 * of candidates by every other rule are listed, then tested for care: PostgreSQL cannot tell how much
 * those tests and the number of pets leave together (a sitter who boards takes several pets), and with
 * them in the query it may read a whole index and sort it rather than walk the order's index. Only when
 * care leaves fewer than a page of a full list is the whole query run.
 */
async function orderedPage(search: Search, values: SearchValues, premium: Premium, limit: number): Promise<Found[]> {
  const ordered = (care: "tested" | "apart") =>
    inDeckOrder(
      sitterQuery(search, values, premium, "all", care)
        .select(nearness(search, values, "u").as("closeness"))
        .where(shownTo(search.viewerId, "u"))
        .where(notSwiped(search.viewerId, "u.id", sql`''`)),
      search.sort,
      "u",
      premium,
    );
  const tests = careTests(search, values);
  if (tests.length === 0) return ordered("tested").limit(limit).execute();
  const listed = await ordered("apart")
    .limit(limit * CARE_LISTED)
    .execute();
  const page = await passingCare(listed, tests);
  if (page.length >= limit || listed.length < limit * CARE_LISTED) return page.slice(0, limit);
  return ordered("tested").limit(limit).execute();
}

/** The cards listed (in their order) whose sitters pass the care tests (see careTests): one query for all. */
async function passingCare<Card extends Found>(listed: Card[], tests: RawBuilder<boolean>[]): Promise<Card[]> {
  if (listed.length === 0) return listed;
  let caring = db
    .selectFrom("users as u")
    .select("u.id")
    .where("u.id", "in", [...new Set(listed.map((card) => card.id))]);
  for (const test of tests) caring = caring.where(test);
  const passed = new Set((await caring.execute()).map((card) => card.id));
  return listed.filter((card) => passed.has(card.id));
}

/** How many of a circle's nearest candidates by every other rule its care filters are tested on (see circlePage). */
const CARE_LISTED_IN_CIRCLE = 200;

/**
 * A page of a circle's sitters. Every candidate in it is read before the order is known: ranked from
 * the index alone, the first `listed` of them in deck order; then their rows are read and checked by the
 * rules until a page is found. The ranked rows carry their order's columns to the outer query (ring
 * reads, which need none, send only a card's id, closeness and membership), which keeps their order.
 * With `careTests`, care is left out of the ranking and tested on the ranked rows in turn: a lookup or
 * three of other tables per sitter, the nearest few tested instead of the whole circle. Fewer than a page
 * then means that care left fewer among those listed: the caller asks again with care in the ranking.
 */
function circlePage(
  search: Search,
  values: SearchValues,
  premium: Premium,
  reading: Reading,
  listed: number,
  limit: number,
  careTests: RawBuilder<boolean>[] = [],
): Promise<Found[]> {
  const apart = careTests.length > 0;
  const ranked = sitterQuery(search, values, premium, reading, apart ? "apart" : "tested")
    .$if(search.sort === "distance", (q) => q.select(nearness(search, values, "u").as("closeness")))
    .select([...SITTER_ORDER_COLUMNS[search.sort]]);
  const candidates = inDeckOrder(ranked, search.sort, "u", premium).limit(listed);
  // Nearest first, the closeness ranked on (the same as the row's): the outer query then follows the
  // ranked order and stops at a page, instead of sorting every row it checked.
  const closeness = search.sort === "distance" ? sql<number>`${sql.ref("c.closeness")}` : nearness(search, values, "u");
  let page = db
    .selectFrom(candidates.as("c"))
    .crossJoin("users as u")
    .whereRef("u.id", "=", "c.id")
    .select(["c.id", closeness.as("closeness")])
    .$if(premium === "first", (q) => q.select(sql<boolean>`${sql.ref("c.premium")}`.as("premium")))
    .where(shownTo(search.viewerId, "u"))
    .where(notSwiped(search.viewerId, "u.id", sql`''`));
  for (const test of careTests) page = page.where(test);
  return executeKeepingPlan(inDeckOrder(page, search.sort, "c", premium).limit(limit));
}

/**
 * A ring read of at most one more than `cap`: whole if it held no more than `cap`. SQLite reads rings in
 * turn: its cross join loops over the places outside, in their order (see people). PostgreSQL plans it as
 * any join, and may hash the places and walk the index instead (as it does on a small table), so a
 * capped read may hold people of any of its rings.
 */
function readOf(cards: Ranked[], cap: number): RingRead {
  return { cards, whole: cards.length <= cap, inTurn: databaseEngine === "sqlite" };
}

export const sitters: Cards = {
  card: "sitter",

  async candidates(search, cap, page) {
    const reading = await sitterReading(search, "until-enough");
    if (!testsCare(search)) return readOf(await ringRead("sitter", search, cap + 1, reading), cap);
    // Care marked: the ring's candidates by every other rule, read from the place index alone, each
    // marked with whether it passes care. Tested in the read, care was tested on every candidate until
    // enough passed (a few hundred lookups of other tables where one sitter in five boards). A crowded
    // ring's cards that pass care must show where a page lies: where they are fewer than a page, the ring
    // is read again with care tested.
    const listed = await ringRead("sitter", search, cap + 1, reading, "marked");
    const cared = listed.filter((card) => Boolean(card.cared));
    if (listed.length <= cap) return { ...readOf(cared, cap), whole: true };
    if (new Set(cared.map((card) => card.id)).size >= page) return { ...readOf(cared, cap), whole: false };
    return readOf(await ringRead("sitter", search, cap + 1, reading), cap);
  },

  async page(search, premium, limit) {
    const values = valuesOf(search, limit);
    if (!inCircle(search)) return orderedPage(search, values, premium, limit);
    const reading = await sitterReading(search, "all");
    const tests = careTests(search, values);
    if (tests.length === 0) return circlePage(search, values, premium, reading, limit, limit);
    const cared = await circlePage(search, values, premium, reading, CARE_LISTED_IN_CIRCLE, limit, tests);
    return cared.length >= limit ? cared : circlePage(search, values, premium, reading, limit, limit);
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

export const pets: Cards = {
  card: "pet",

  async candidates(search, cap) {
    return readOf(await ringRead("pet", search, cap + 1), cap);
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

/**
 * Answers that choose how a search reads, not what it finds, and change slowly: whether a filter's
 * range holds few sitters (counting it reads up to FEW_IN_RANGE index entries for each of a search's
 * two ranges), whether a viewer has passed on many, whether a viewer's first ring held a crowd and how
 * near their page lay (learnt from their last search). Each is kept ANSWER_KEPT_MS, in each instance.
 * Either answer deals the same cards; a stale one only chooses the slower way to find them.
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
export function knownAnswer<Answer extends boolean | number>(question: string): Answer | undefined {
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

export function keepAnswer(question: string, answer: boolean | number): void {
  // Questions come from members and their filters: the map is emptied rather than let grow past a bound.
  if (keptAnswers.size >= MOST_ANSWERS_KEPT) keptAnswers.clear();
  keptAnswers.set(question, { answer, at: Date.now() });
}

/**
 * Whether a viewer has passed on (or liked) at least PASSED_ON_MANY sitters and at most
 * PASSED_ON_MOST: their list is then worth hashing on PostgreSQL (see notSwipedOrBlocked). Past the
 * most, a list hashed on every read would cost more than the lookups it saves. From a hundred: a
 * circle's page, planned for the average viewer's few swipes, read all of a viewer's swipes again for
 * each candidate, where a hashed list costs a few hundred entries of the index swipes_card read once.
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
