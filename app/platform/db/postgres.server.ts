import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import pg from "pg";
import {
  Kysely,
  PostgresDialect,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
} from "kysely";
import type { Database } from "~db/schema";

/*
 * PostgreSQL: the same storage types as on SQLite (text for times and JSON, integer 0/1 for flags),
 * so the queries are shared; what differs lives here and in ./sql.server.ts.
 *
 * Transactions run side by side, at PostgreSQL's default isolation (read committed). A decision that
 * reads rows and writes on what it read (a booking accepted only while the sitter's time is free) locks
 * the rows it decides on first (`lockedForDecision` in ../db.server.ts: `for no key update`), and the
 * constraints refuse what no decision may write (a second occurrence of a weekly date; two confirmed
 * bookings of one sitter at the same time, an exclusion constraint). Unrelated writers never wait on each
 * other. SQLite keeps its one writer at a time (BEGIN IMMEDIATE), where the same locks are no-ops.
 */

/** The first half of the two-integer keys of `withSessionLock` (a key space apart from the bigint one). */
const SESSION_LOCK_SPACE = 74_147_500;

// Counts and sums come back as numbers, as they do on SQLite (pg reads int8 and numeric as strings,
// to keep values past 2^53 exact; no count, sum, id or epoch in this app comes near that).
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    if (oid === pg.types.builtins.NUMERIC) return (value: string) => Number.parseFloat(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** Query texts whose plans are kept, at most this many (the deck's ring reads and `preparedQuery`'s shapes). */
export const KEPT_PLANS = 500;

const keptTexts = new Set<string>();

/**
 * Marks a query text whose one plan suits all its runs: on PostgreSQL it then runs as a named
 * prepared statement on each connection (see KeptPlansClient). Texts past KEPT_PLANS are not marked.
 */
export function keepPlanOf(text: string): void {
  if (keptTexts.size < KEPT_PLANS) keptTexts.add(text);
}

/**
 * A connection as Kysely's PostgresDialect uses it (its `PostgresPoolClient`), running the texts marked by
 * keepPlanOf as named prepared statements, one per text, with a generic plan: planned once, run with any
 * values. Unnamed, PostgreSQL plans a query again on every run: a deck search sends eight to twelve queries
 * whose planning took ten times their execution. Left to choose, it kept planning some of them anew (it
 * priced their generic plan a little above a custom one), so the connection sets plan_cache_mode to
 * force_generic_plan before a marked query and back to auto before any other: one short statement where the
 * two kinds alternate, none in a run of either. Only marked texts: for a query whose best plan depends on its
 * values (how rare a rating range is), a generic plan can cost ten times more.
 */
export class KeptPlansClient implements PostgresPoolClient {
  readonly #client: pg.PoolClient;
  readonly #names = new Map<string, string>();
  #generic = false;

  constructor(client: pg.PoolClient) {
    this.#client = client;
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query(text: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>): unknown {
    const client = this.#client;
    if (typeof text !== "string") return client.query(text as never);
    const values = [...(parameters ?? [])];
    const kept = keptTexts.has(text);
    // A transaction's rollback undoes a switch made in it, back to the mode at its BEGIN: auto (BEGIN is not kept).
    if (text === "rollback") this.#generic = false;
    // Queued before the query that needs it: a client runs its queries in order.
    else if (kept !== this.#generic) {
      this.#generic = kept;
      void client.query(`set plan_cache_mode = ${kept ? "force_generic_plan" : "auto"}`).catch(() => undefined);
    }
    if (!kept) return client.query(text, values);
    let name = this.#names.get(text);
    if (!name) this.#names.set(text, (name = `kept_${this.#names.size + 1}`));
    return client.query({ name, text, values });
  }

  release(): void {
    this.#client.release();
  }
}

/** A pg pool handing Kysely KeptPlansClient connections (one per pg connection, kept with it). */
export class KeptPlansPool implements PostgresPool {
  readonly #pool: pg.Pool;
  readonly #clients = new WeakMap<pg.PoolClient, KeptPlansClient>();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async connect(): Promise<KeptPlansClient> {
    const client = await this.#pool.connect();
    let kept = this.#clients.get(client);
    if (!kept) this.#clients.set(client, (kept = new KeptPlansClient(client)));
    return kept;
  }

  end(): Promise<void> {
    return this.#pool.end();
  }
}

const heldLocks = new AsyncLocalStorage<{ client: pg.PoolClient; done: boolean; healthy: boolean }>();

export interface PostgresDatabase {
  db: Kysely<Database>;
  /** Runs `work` while holding a session advisory lock named by `key`, across every app instance. */
  withSessionLock<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export function openPostgresDatabase(url: string, poolSize = 10): PostgresDatabase {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types });
  // Lock holders get connections of their own, so that waiting for a lock never takes a connection
  // the work under another lock needs.
  const lockPool = new pg.Pool({ connectionString: url, max: poolSize * 2, types, idleTimeoutMillis: 10_000 });
  // An idle connection the server closed (a restart, a failover) is dropped by the pool and replaced
  // on next use: say so, and do not let it end the process.
  for (const each of [pool, lockPool])
    each.on("error", (error) => console.error("PostgreSQL connection lost:", error.message));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new KeptPlansPool(pool) }) });
  const destroy = db.destroy.bind(db);
  db.destroy = async () => {
    await Promise.all([destroy(), lockPool.end().catch(() => undefined)]);
  };
  return {
    db,
    async withSessionLock(key, work) {
      const id = createHash("sha256").update(key).digest().readInt32BE(0);
      // A lock taken while another is held (a payment call under a booking's lock) shares its holder's
      // connection: each outermost holder needs one connection, so holders never wait on each other for one.
      const outer = heldLocks.getStore();
      const holder = outer && !outer.done ? outer : { client: await lockPool.connect(), done: false, healthy: true };
      try {
        await holder.client.query("select pg_advisory_lock($1, $2)", [SESSION_LOCK_SPACE, id]);
        try {
          return await heldLocks.run(holder, work);
        } finally {
          await holder.client.query("select pg_advisory_unlock($1, $2)", [SESSION_LOCK_SPACE, id]).catch(() => {
            holder.healthy = false;
          });
        }
      } finally {
        if (holder !== outer) {
          holder.done = true;
          // A connection whose unlock failed may still hold the lock: closing it frees it.
          holder.client.release(!holder.healthy);
        }
      }
    },
  };
}
