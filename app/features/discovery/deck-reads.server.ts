// The two decks' reads (sitters, pets): ring reads prepared once per shape, pages in deck order, a
// filter's few matches; and the answers kept that choose how a search reads.

import { sql, type Compilable } from "kysely";
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
  type Reading,
} from "./deck-rules.server";
import type { Cards, Found, Premium, Ranked, Search } from "./deck-search";

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
  if (listed.length === 0) return listed;
  let caring = db
    .selectFrom("users as u")
    .select("u.id")
    .where(
      "u.id",
      "in",
      listed.map((card) => card.id),
    );
  for (const test of tests) caring = caring.where(test);
  const cared = await caring.execute();
  const passed = new Set(cared.map((card) => card.id));
  const page = listed.filter((card) => passed.has(card.id));
  if (page.length >= limit || listed.length < limit * CARE_LISTED) return page.slice(0, limit);
  return ordered("tested").limit(limit).execute();
}

export const sitters: Cards = {
  card: "sitter",

  async candidates(search, cap) {
    return ringRead("sitter", search, cap, await sitterReading(search, "until-enough"));
  },

  async page(search, premium, limit) {
    const values = valuesOf(search, limit);
    if (!inCircle(search)) return orderedPage(search, values, premium, limit);
    const query = sitterQuery(search, values, premium, await sitterReading(search, "all"));
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

export const pets: Cards = {
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
