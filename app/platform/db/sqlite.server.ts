import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, SqliteDialect, type DatabaseConnection, type Driver } from "kysely";
import type { Database } from "~db/schema";

// SQLite-specific settings live here only. WAL for concurrent readers, FULL sync so an acknowledged
// commit survives a power cut, IMMEDIATE so a writer takes the lock up front instead of failing mid-way,
// secure_delete so erased personal data is overwritten rather than left in free pages.
class ImmediateTransactionDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }
}

/** How many prepared statements a connection keeps: the app has a few hundred distinct queries. */
export const STATEMENT_CACHE_SIZE = 500;

type Statement = SQLite.Statement<unknown[]>;

/**
 * The connection Kysely sees: statements are prepared once per distinct SQL text and kept in a
 * bounded cache (least recently used first out), instead of prepared again on every query. A cached
 * statement is reused only when no iteration is still reading from it.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE) {
  const statements = new Map<string, Statement>();
  return {
    prepare(sql: string): Statement {
      let statement = statements.get(sql);
      if (statement && !statement.busy) {
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.has(sql)) return statement;
      }
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
    get cachedStatements() {
      return statements.size;
    },
  };
}

export function openSqliteDatabase(file: string): Kysely<Database> {
  mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("secure_delete = ON");
  return new Kysely<Database>({ dialect: new ImmediateTransactionDialect({ database: withStatementCache(sqlite) }) });
}

/**
 * Folds the write-ahead log into the database file and empties it, so that earlier versions of
 * erased rows do not linger in the log (called after an account is erased).
 */
export async function checkpointSqlite(database: Kysely<Database>): Promise<void> {
  await database.executeQuery(CompiledQuery.raw("pragma wal_checkpoint(TRUNCATE)"));
}
