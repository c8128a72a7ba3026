import {
  PostgresAdapter,
  sql,
  type ColumnDataType,
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
} from "kysely";

type DataTypeExpression = ColumnDataType;

/*
 * What a migration needs to know about the engine it runs on. Migrations are written once for both
 * engines; they branch here, and only where SQLite and PostgreSQL cannot share a statement.
 * On SQLite every helper returns exactly what the migrations wrote before PostgreSQL was supported,
 * so databases created earlier migrate as they always did.
 */

export type Engine = "sqlite" | "postgres";

export function engineOf(db: Kysely<unknown>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

export const isPostgres = (db: Kysely<unknown>) => engineOf(db) === "postgres";

type ColumnSpec = readonly [DataTypeExpression, (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder];

/** An id the database assigns in order: SQLite's autoincrement rowid, a bigint identity on PostgreSQL. */
export function serialId(db: Kysely<unknown>): ColumnSpec {
  return isPostgres(db)
    ? ["bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity()]
    : ["integer", (c) => c.primaryKey().autoIncrement()];
}

/** A floating-point number: SQLite's real is 8 bytes, PostgreSQL's is 4, so PostgreSQL gets double precision. */
export const real = (db: Kysely<unknown>): DataTypeExpression => (isPostgres(db) ? "double precision" : "real");

/** An integer that may pass 2^31 (epoch seconds or milliseconds, ids): SQLite's integer already holds 64 bits. */
export const bigInteger = (db: Kysely<unknown>): DataTypeExpression => (isPostgres(db) ? "bigint" : "integer");

/** SQLite's `without rowid` (a clustered primary key); PostgreSQL has no such option and needs none. */
export function withoutRowid(db: Kysely<unknown>) {
  return <B extends CreateTableBuilder<string, string>>(builder: B): B =>
    (isPostgres(db) ? builder : builder.modifyEnd(sql`without rowid`)) as B;
}

/** A column computed from others: virtual on SQLite, stored on PostgreSQL (which has no virtual ones). */
export function generated(db: Kysely<unknown>, formula: ReturnType<typeof sql>) {
  return (c: ColumnDefinitionBuilder) =>
    isPostgres(db) ? c.generatedAlwaysAs(formula).stored() : c.generatedAlwaysAs(formula);
}

/**
 * The check that a pair's ids are stored smaller first. The app orders them as JavaScript compares
 * strings; PostgreSQL compares text by the database's collation unless told to compare bytes.
 */
export const orderedPair = (db: Kysely<unknown>) =>
  isPostgres(db) ? sql`user_a_id collate "C" < user_b_id collate "C"` : sql`user_a_id < user_b_id`;
