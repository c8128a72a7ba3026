import SQLite from "better-sqlite3";
import { sql, type Kysely } from "kysely";
import type { Database } from "~db/schema";

export interface TableCopy {
  table: string;
  rows: number;
}

export interface CopyOptions {
  /** Empty the target's tables first even when it already holds people (a second attempt after a failed start). */
  replace?: boolean;
  log?: (line: string) => void;
}

interface SourceColumn {
  name: string;
  /** 0 normal, 1 hidden, 2 and 3 generated (computed by the target itself). */
  hidden: number;
}

// PostgreSQL takes at most 65,535 parameters in one statement.
const MAX_PARAMETERS = 60_000;
// Kysely's own bookkeeping: the target has its own, written by its migrator.
const MIGRATOR_TABLES = new Set(["kysely_migration", "kysely_migration_lock"]);

function quoteSqlite(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The app's tables in the SQLite file, parents before the tables whose foreign keys point at them. */
export function tablesInCopyOrder(source: SQLite.Database): string[] {
  const tables = (
    source
      .prepare("select name from sqlite_schema where type = 'table' and name not like 'sqlite_%' order by name")
      .all() as { name: string }[]
  )
    .map((row) => row.name)
    .filter((name) => !MIGRATOR_TABLES.has(name));
  const parents = new Map(
    tables.map((table) => [
      table,
      new Set(
        (source.prepare(`select "table" as parent from pragma_foreign_key_list(?)`).all(table) as { parent: string }[])
          .map((row) => row.parent)
          .filter((parent) => parent !== table),
      ),
    ]),
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter(
      (table) =>
        !placed.has(table) && [...parents.get(table)!].every((parent) => placed.has(parent) || !parents.has(parent)),
    );
    if (ready.length === 0)
      throw new Error(`Foreign keys form a cycle among: ${tables.filter((table) => !placed.has(table)).join(", ")}`);
    for (const table of ready) {
      ordered.push(table);
      placed.add(table);
    }
  }
  return ordered;
}

function migrationsOf(database: SQLite.Database): string[] {
  return (database.prepare("select name from kysely_migration order by name").all() as { name: string }[]).map(
    (row) => row.name,
  );
}

async function targetMigrations(target: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(target);
  return rows.rows.map((row) => row.name);
}

async function countRows(target: Kysely<Database>, table: string): Promise<number> {
  const result = await sql<{ count: number | string }>`select count(*) as count from ${sql.table(table)}`.execute(
    target,
  );
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * Copies every table of a SQLite database file into a migrated, empty PostgreSQL database, in one
 * transaction: parents before children, generated columns left to the target, id sequences moved past
 * the copied ids, and every table's row count checked before anything is committed. Both databases
 * must be at the same migration; the app should be stopped (the source is read in one snapshot anyway).
 */
export async function copySqliteToPostgres(
  sourceFile: string,
  target: Kysely<Database>,
  options: CopyOptions = {},
): Promise<TableCopy[]> {
  const log = options.log ?? (() => {});
  const source = new SQLite(sourceFile, { readonly: true, fileMustExist: true });
  try {
    const sourceMigrations = migrationsOf(source);
    const latest = await targetMigrations(target);
    if (sourceMigrations.join() !== latest.join()) {
      const missing = latest.filter((name) => !sourceMigrations.includes(name));
      const unknown = sourceMigrations.filter((name) => !latest.includes(name));
      throw new Error(
        `The databases are at different migrations (SQLite lacks ${missing.join(", ") || "none"}; PostgreSQL lacks ${unknown.join(", ") || "none"}). ` +
          "Run this version of the app once on the SQLite database (or `npm run db:migrate` with DATA_DIR), then copy again.",
      );
    }
    const tables = tablesInCopyOrder(source);
    if (!options.replace && (await countRows(target, "users")) > 0) {
      throw new Error(
        "The PostgreSQL database already has people in it. Copy into a new, empty database, or pass --replace to empty it first.",
      );
    }
    // One read transaction: every table comes from the same moment, even if something still writes.
    source.exec("begin");
    const copied: TableCopy[] = [];
    await target.transaction().execute(async (trx) => {
      // Triggers that keep summaries (ratings) or guard history (the audit log) stay out of a verbatim copy.
      for (const table of tables) await sql`alter table ${sql.table(table)} disable trigger user`.execute(trx);
      // Rows the migrations put there (plans, places) are replaced by the source's own.
      await sql`truncate table ${sql.join(tables.map((table) => sql.table(table)))} restart identity cascade`.execute(
        trx,
      );
      for (const table of tables) {
        const columns = (source.prepare("select name, hidden from pragma_table_xinfo(?)").all(table) as SourceColumn[])
          .filter((column) => column.hidden === 0)
          .map((column) => column.name);
        const batchSize = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
        const expected = (
          source.prepare(`select count(*) as count from ${quoteSqlite(table)}`).get() as { count: number }
        ).count;
        const insert = async (rows: unknown[][]) => {
          if (rows.length === 0) return;
          await sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))}) overriding system value values ${sql.join(
            rows.map((row) => sql`(${sql.join(row)})`),
          )}`.execute(trx);
        };
        let batch: unknown[][] = [];
        for (const row of source
          .prepare(`select ${columns.map(quoteSqlite).join(", ")} from ${quoteSqlite(table)}`)
          .raw()
          .iterate() as IterableIterator<unknown[]>) {
          batch.push(row);
          if (batch.length >= batchSize) {
            await insert(batch);
            batch = [];
          }
        }
        await insert(batch);
        const rows = await countRows(trx, table);
        if (rows !== expected)
          throw new Error(`${table}: ${expected} rows in SQLite but ${rows} in PostgreSQL; nothing was committed.`);
        copied.push({ table, rows });
        log(`${table}: ${rows} rows`);
      }
      for (const table of tables) await sql`alter table ${sql.table(table)} enable trigger user`.execute(trx);
      // Identity and serial columns continue after the highest copied id.
      const sequences = await sql<{ table_name: string; column_name: string }>`
        select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and (is_identity = 'YES' or column_default like 'nextval(%')`.execute(
        trx,
      );
      for (const { table_name: table, column_name: column } of sequences.rows) {
        await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce(max(${sql.ref(column)}), 0) + 1, false) from ${sql.table(table)}`.execute(
          trx,
        );
      }
    });
    source.exec("commit");
    return copied;
  } finally {
    source.close();
  }
}
