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

/** Texts each planned connection keeps as named prepared statements, at most (ring reads and `preparedQuery` shapes). */
export const KEPT_PLANS = 500;

/**
 * A connection as Kysely's PostgresDialect uses it (its `PostgresPoolClient`) that runs each text as a named
 * prepared statement, one per text (up to KEPT_PLANS; later texts unnamed): parsed and planned once on the
 * connection, then run with any values. It serves only the planned pool, whose connections plan generically.
 */
export class NamedStatementsClient implements PostgresPoolClient {
  readonly #client: pg.PoolClient;
  readonly #names = new Map<string, string>();

  constructor(client: pg.PoolClient) {
    this.#client = client;
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query(text: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>): unknown {
    const client = this.#client;
    if (typeof text !== "string") return client.query(text as never);
    const values = [...(parameters ?? [])];
    let name = this.#names.get(text);
    if (!name && this.#names.size < KEPT_PLANS) this.#names.set(text, (name = `kept_${this.#names.size + 1}`));
    return name ? client.query({ name, text, values }) : client.query(text, values);
  }

  release(): void {
    this.#client.release();
  }
}

/** A pg pool handing Kysely NamedStatementsClient connections (one per pg connection, kept with it). */
export class NamedStatementsPool implements PostgresPool {
  readonly #pool: pg.Pool;
  readonly #clients = new WeakMap<pg.PoolClient, NamedStatementsClient>();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async connect(): Promise<NamedStatementsClient> {
    const client = await this.#pool.connect();
    let named = this.#clients.get(client);
    if (!named) this.#clients.set(client, (named = new NamedStatementsClient(client)));
    return named;
  }

  end(): Promise<void> {
    return this.#pool.end();
  }
}

const heldLocks = new AsyncLocalStorage<{ client: pg.PoolClient; done: boolean; healthy: boolean }>();

export interface PostgresDatabase {
  db: Kysely<Database>;
  /**
   * The same database for queries of a fixed shape (`preparedQuery`, the deck's ring reads), on connections of
   * their own that plan generically (`plan_cache_mode = force_generic_plan`) and keep each text as a named
   * prepared statement: planned once per connection, not on every run. Unnamed, PostgreSQL planned a deck search's
   * eight to twelve queries on every run, which took ten times their execution; left to choose, it kept planning
   * some anew (it priced their generic plan a little above a custom one). Other queries stay on `db`, planned on
   * every run: for a query whose best plan depends on its values (how rare a rating range is), a generic plan can
   * cost ten times more.
   */
  planned: Kysely<Database>;
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
  const plannedPool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types,
    options: "-c plan_cache_mode=force_generic_plan",
  });
  for (const each of [pool, plannedPool, lockPool])
    each.on("error", (error) => console.error("PostgreSQL connection lost:", error.message));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const planned = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new NamedStatementsPool(plannedPool) }),
  });
  const destroy = db.destroy.bind(db);
  db.destroy = async () => {
    await Promise.all([destroy(), planned.destroy(), lockPool.end().catch(() => undefined)]);
  };
  return {
    db,
    planned,
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
