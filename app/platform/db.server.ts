import path from "node:path";
import type { Compilable, Kysely, SelectQueryBuilder, Transaction } from "kysely";
import { CompiledQuery, Migrator, type MigrationResultSet } from "kysely";
import type { Engine } from "~db/engine";
import { migrations } from "~db/migrations";
import type { Database } from "~db/schema";
import { openPostgresDatabase } from "./db/postgres.server";
import { preparedQueries } from "./db/prepared.server";
import { sqlHelpers } from "./db/sql.server";
import { checkpointSqlite, openSqliteDatabase } from "./db/sqlite.server";
import { env } from "./env.server";

// The one entry to the database: features import from here and never learn which engine runs.
// DATABASE_URL (postgres://…) selects PostgreSQL; without it, SQLite in DATA_DIR.

export { flag, json, jsonList, jsonObject, type Codec } from "./db/codecs";
export type { PreparedQuery } from "./db/prepared.server";
export { STATEMENT_CACHE_SIZE, withStatementCache } from "./db/sqlite.server";
export type { Engine } from "~db/engine";

/** Which engine runs, for platform code, scripts and tests (never for features). */
export const databaseEngine: Engine = env.DATABASE_URL ? "postgres" : "sqlite";

export function databaseFile(dataDir = env.DATA_DIR): string {
  return path.resolve(dataDir, "trusted-sitters.db");
}

/** Opens a SQLite database file (backups and their checks; the app's own database is `db`). */
export const openDatabase = openSqliteDatabase;

const postgres = env.DATABASE_URL ? openPostgresDatabase(env.DATABASE_URL, env.DATABASE_POOL_SIZE) : null;

export const db: Kysely<Database> = postgres ? postgres.db : openSqliteDatabase(databaseFile());

/**
 * Where queries of a fixed shape run: on PostgreSQL, connections that keep one generic plan per text (see
 * `planned` in postgres.server.ts); SQLite keeps every statement anyway.
 */
const planned: Kysely<Database> = postgres ? postgres.planned : db;

/** A query built and compiled once, run with new values each time: see prepared.server.ts. */
export const preparedQuery = preparedQueries(planned);

/**
 * Runs a query whose one plan suits every run of its shape, whatever its values (a deck ring read: the
 * ranges and the viewer change, the way to read them does not): on PostgreSQL it is planned once per
 * connection instead of on every run.
 */
export async function executeKeepingPlan<Row>(query: Compilable<Row>): Promise<Row[]> {
  return (await planned.executeQuery(query.compile())).rows;
}

/**
 * Keeps SQLite's statistics current (PostgreSQL's autovacuum analyses on its own): without them SQLite
 * plans the deck blind. `optimize` with 0x10002 analyses in full every table never analysed or much
 * changed since (a plain `optimize`'s limited analysis misjudged the price index). At start and daily.
 */
export async function refreshStatistics(): Promise<void> {
  if (databaseEngine === "sqlite") await db.executeQuery(CompiledQuery.raw("pragma optimize = 0x10002"));
}

/** Engine-specific SQL expressions for shared queries: JSON-array filters, substring tests, case-insensitive like. */
export const {
  containsText,
  jsonListIncludes,
  jsonText,
  jsonWithText,
  likeInsensitive,
  numberRows,
  numberRowsOf,
  numberRowsValues,
} = sqlHelpers(databaseEngine);

/**
 * The rows a decision reads, locked until its transaction ends, so that a second decision on the same rows
 * waits for the first and reads what it wrote: `trx.selectFrom("bookings")….$call(lockedForDecision)`. On
 * PostgreSQL a row lock that leaves the rows' keys free (`for no key update`: other rows may still be
 * inserted referencing them); on SQLite nothing, since its transactions already run one at a time.
 */
export function lockedForDecision<Query extends SelectQueryBuilder<Database, keyof Database, object>>(
  query: Query,
): Query {
  return databaseEngine === "postgres" ? (query.forNoKeyUpdate() as Query) : query;
}

/**
 * Locks rows by id for a decision, in id order, until the transaction ends: true when it locked them (on
 * PostgreSQL; a row read before must then be read again), false on SQLite, whose transaction already keeps
 * every other writer out, so nothing is run and what was read stays true.
 */
export async function lockRows(
  trx: Transaction<Database>,
  table: "users" | "conversations",
  ids: readonly string[],
): Promise<boolean> {
  if (databaseEngine !== "postgres" || ids.length === 0) return false;
  await trx
    .selectFrom(table)
    .select("id")
    .where("id", "in", [...new Set(ids)].sort())
    .orderBy("id")
    .$call(lockedForDecision)
    .execute();
  return true;
}

/**
 * Locks these people's rows for a decision about them (a sitter's calendar, two people's match), always in
 * the same order, so that two decisions about the same people take turns and never wait on each other in a
 * circle. Decisions that also lock other rows lock the people first. True when it locked (see lockRows).
 */
export const lockPeople = (trx: Transaction<Database>, ...ids: string[]) => lockRows(trx, "users", ids);

/**
 * Runs `work` while no other holder of the same key runs, across every app instance on PostgreSQL
 * (a session advisory lock). On SQLite there is one instance: the caller's per-process queue suffices.
 */
export async function withDatabaseLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  return postgres ? postgres.withSessionLock(key, work) : work();
}

export async function migrateToLatest(database: Kysely<Database> = db): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: database,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) throw result.error;
  return result;
}

export async function isDatabaseHealthy(database: Kysely<Database> = db): Promise<boolean> {
  try {
    await database.executeQuery(CompiledQuery.raw("select 1"));
    return true;
  } catch {
    return false;
  }
}

/**
 * After an account is erased: on SQLite, folds the write-ahead log into the database file and empties
 * it, so that earlier versions of erased rows do not linger in the log. PostgreSQL's autovacuum
 * reclaims dead row versions by itself (a VACUUM here would only slow the erasure down), so nothing.
 */
export async function checkpointDatabase(database: Kysely<Database> = db): Promise<void> {
  if (databaseEngine === "sqlite") await checkpointSqlite(database);
}

/** Whether an error is a unique constraint refusing a second row, on either engine (SQLite's code, PostgreSQL's 23505). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** Whether PostgreSQL ended a transaction to break a deadlock (40P01). */
const isDeadlock = (error: unknown) => (error as { code?: unknown } | null)?.code === "40P01";

/**
 * A transaction run again (at most twice more) when PostgreSQL ended it to break a deadlock: two decisions
 * that lock the same people in another order (a suspension closing a sitter's bookings while that sitter and
 * the suspended person like each other). Only for work that writes nothing but the database, so that running
 * it again after its rollback is the same as running it once.
 */
export async function transactionRetryingDeadlocks<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= 3 || !isDeadlock(error)) throw error;
    }
  }
}

/** Whether an error is an exclusion constraint refusing an overlapping row (PostgreSQL's 23P01; SQLite has none). */
export function isExclusionViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23P01";
}
