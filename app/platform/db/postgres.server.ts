import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import pg from "pg";
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  type CompiledQuery as Compiled,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from "kysely";
import type { Database } from "~db/schema";

/*
 * PostgreSQL: the same storage types as on SQLite (text for times and JSON, integer 0/1 for flags),
 * so the queries are shared; what differs lives here and in ./sql.server.ts.
 *
 * Transactions. On SQLite every transaction begins IMMEDIATE: one writer at a time, and a transaction
 * that reads, checks and then writes (a booking accepted only if its slot is still free) can rely on
 * nothing changing in between. The features are written against that guarantee. PostgreSQL gives the
 * same one here: every transaction first takes one transaction-scoped advisory lock
 * (pg_advisory_xact_lock), and so does every write run outside a transaction (wrapped in its own short
 * transaction), so writers take turns exactly as on SQLite while readers never wait. Serializable
 * isolation with retries was the alternative; it would let unrelated writers run side by side, but
 * every transaction would then have to be safe to run twice, which the features were not written for
 * (some tell other processes or the payment provider about their outcome as they go). One writer at a
 * time is what the app already runs at on SQLite, so it costs nothing it has today.
 */

/** The advisory lock every writer takes (any constant: the app's own key space is the bigint one). */
const WRITER_LOCK = 7_414_750_001;
/** The first half of the two-integer keys of `withSessionLock` (a key space apart from the bigint one). */
const SESSION_LOCK_SPACE = 74_147_500;

const takeWriterLock = CompiledQuery.raw(`select pg_advisory_xact_lock(${WRITER_LOCK})`);
// Both in one round trip (a query without parameters may hold several statements).
const beginAsWriter = CompiledQuery.raw(`begin; select pg_advisory_xact_lock(${WRITER_LOCK})`);
const WRITE_STATEMENT = /^\s*(insert|update|delete|merge)\b/i;
const WRITE_NODES = new Set(["InsertQueryNode", "UpdateQueryNode", "DeleteQueryNode", "MergeQueryNode"]);

function isWrite(query: Compiled): boolean {
  return WRITE_NODES.has(query.query.kind) || (query.query.kind === "RawNode" && WRITE_STATEMENT.test(query.sql));
}

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
 * prepared statement on each connection (see keepStatements). Texts past KEPT_PLANS are not marked.
 */
export function keepPlanOf(text: string): void {
  if (keptTexts.size < KEPT_PLANS) keptTexts.add(text);
}

type Query = (text: string, values: unknown[]) => Promise<pg.QueryResult>;

/**
 * Queries marked by keepPlanOf run as named prepared statements, one per text and connection, with a
 * generic plan: planned once, run with any values. Unnamed, PostgreSQL plans a query again on every
 * run: a deck search sends eight to twelve queries whose planning took ten times their execution. Left
 * to choose, it kept planning some of them anew (it priced their generic plan a little above a custom
 * one, then paid 1 to 6 ms to plan each run for the same reading), so a connection switches
 * plan_cache_mode to force_generic_plan before a marked query and back to auto before any other: one
 * short statement where the two kinds alternate, none in a run of either, and never inside a
 * transaction (the switch back comes before its BEGIN). Only marked texts: for a query whose best plan
 * depends on its values (how rare a rating range is), a generic plan can cost ten times more.
 */
export function keepStatements(client: pg.PoolClient | pg.Client): void {
  const query = client.query.bind(client) as unknown as (
    config: unknown,
    values?: unknown,
    callback?: unknown,
  ) => unknown;
  const names = new Map<string, string>();
  let generic = false;
  // Queued before the query that needs it: a client runs its queries in order.
  const planGenerically = (wanted: boolean) => {
    if (generic === wanted) return;
    generic = wanted;
    void (query(`set plan_cache_mode = ${wanted ? "force_generic_plan" : "auto"}`) as Promise<unknown>).catch(
      () => undefined,
    );
  };
  (client as unknown as { query: Query }).query = ((config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config === "string" && callback === undefined && keptTexts.has(config)) {
      let name = names.get(config);
      if (!name) names.set(config, (name = `kept_${names.size + 1}`));
      planGenerically(true);
      return query({ name, text: config, values });
    }
    planGenerically(false);
    return query(config, values, callback);
  }) as Query;
}

class OneWriterPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const inTransaction = new WeakSet<DatabaseConnection>();
    const patched = new WeakSet<DatabaseConnection>();
    const acquire = driver.acquireConnection.bind(driver);
    const begin = driver.beginTransaction.bind(driver);
    const commit = driver.commitTransaction.bind(driver);
    const rollback = driver.rollbackTransaction.bind(driver);

    driver.acquireConnection = async () => {
      const connection = await acquire();
      if (!patched.has(connection)) {
        patched.add(connection);
        const execute = connection.executeQuery.bind(connection);
        connection.executeQuery = async <R>(query: Compiled): Promise<QueryResult<R>> => {
          if (inTransaction.has(connection) || !isWrite(query)) return execute<R>(query);
          await execute(beginAsWriter);
          try {
            const result = await execute<R>(query);
            await execute(CompiledQuery.raw("commit"));
            return result;
          } catch (error) {
            await execute(CompiledQuery.raw("rollback")).catch(() => undefined);
            throw error;
          }
        };
      }
      return connection;
    };
    driver.beginTransaction = async (connection, settings) => {
      inTransaction.add(connection);
      try {
        if (settings.isolationLevel || settings.accessMode) {
          await begin(connection, settings);
          await connection.executeQuery(takeWriterLock);
        } else {
          await connection.executeQuery(beginAsWriter);
        }
      } catch (error) {
        inTransaction.delete(connection);
        throw error;
      }
    };
    driver.commitTransaction = async (connection) => {
      inTransaction.delete(connection);
      await commit(connection);
    };
    driver.rollbackTransaction = async (connection) => {
      inTransaction.delete(connection);
      await rollback(connection);
    };
    return driver;
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
  pool.on("connect", (client) => keepStatements(client));
  const db = new Kysely<Database>({ dialect: new OneWriterPostgresDialect({ pool }) });
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
