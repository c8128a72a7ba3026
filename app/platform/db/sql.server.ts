import { sql, type AliasedRawBuilder, type RawBuilder } from "kysely";
import type { Engine } from "~db/engine";

/*
 * The few SQL expressions that differ between SQLite and PostgreSQL, for queries shared by both.
 * Columns are named as Kysely references ("u.cares_for"); values are always bound parameters.
 */

type NumberType = "integer" | "real" | "millionths";

export function sqlHelpers(engine: Engine) {
  const postgres = engine === "postgres";

  function numberRowsValues(rows: readonly (readonly number[])[], types: readonly NumberType[]): string[] {
    // Each column as one array literal ('{1,2,3}'), which numbers need no quoting in: node-postgres would
    // otherwise write a JavaScript array out element by element (a millisecond for a wide ring's thousand ranges).
    return postgres ? types.map((_, i) => `{${rows.map((row) => row[i]).join(",")}}`) : [JSON.stringify(rows)];
  }

  function numberRowsOf<Row, Alias extends string>(
    values: readonly unknown[],
    types: readonly NumberType[],
    alias: Alias,
  ): AliasedRawBuilder<Row, Alias> {
    const names = types.map((_, i) => sql.ref(`column${i + 1}`));
    const scaled = (value: RawBuilder<unknown>, type: NumberType) =>
      type === "millionths" ? sql`cast(${value} as double precision) / 1000000` : value;
    if (postgres) {
      const arrays = types.map(
        (type, i) => sql`cast(${values[i]} as ${sql.raw(type === "real" ? "double precision[]" : "integer[]")})`,
      );
      const columns = types.map((type, i) => sql`${scaled(sql`${sql.ref(`t.column${i + 1}`)}`, type)} as ${names[i]}`);
      return sql<Row>`(select ${sql.join(columns)} from unnest(${sql.join(arrays)}) as t(${sql.join(names)}))`.as(
        alias,
      );
    }
    // The offset keeps SQLite from merging the table into the outer query, which would take the numbers
    // out of the JSON again for every row joined to them.
    const columns = types.map((type, i) => sql`${scaled(sql`(e.value ->> ${sql.lit(i)})`, type)} as ${names[i]}`);
    return sql<Row>`(select ${sql.join(columns)} from json_each(${values[0]}) as e limit -1 offset 0)`.as(alias);
  }

  return {
    /** Whether the JSON array of strings in `column` holds `value`. */
    jsonListIncludes(column: string, value: string): RawBuilder<boolean> {
      return postgres
        ? sql<boolean>`(${sql.ref(column)})::jsonb ? ${value}`
        : sql<boolean>`exists (select 1 from json_each(${sql.ref(column)}) where value = ${value})`;
    },
    /** The text under `key` of the JSON object in `column` (null when absent). */
    jsonText(column: string, key: string): RawBuilder<string | null> {
      return postgres
        ? sql<string | null>`(${sql.ref(column)})::jsonb ->> ${key}`
        : sql<string | null>`json_extract(${sql.ref(column)}, ${`$.${key}`})`;
    },
    /** The JSON object in `column` with `key` set to the text `value` (the stored text of the result). */
    jsonWithText(column: string, key: string, value: string): RawBuilder<string> {
      return postgres
        ? sql<string>`jsonb_set((${sql.ref(column)})::jsonb, array[${key}::text], to_jsonb(${value}::text))::text`
        : sql<string>`json_set(${sql.ref(column)}, ${`$.${key}`}, ${value})`;
    },
    /** Whether `column` holds `needle` anywhere, case and all (SQLite's instr, PostgreSQL's strpos). */
    containsText(column: string, needle: string): RawBuilder<boolean> {
      return postgres
        ? sql<boolean>`strpos(${sql.ref(column)}, ${needle}) > 0`
        : sql<boolean>`instr(${sql.ref(column)}, ${needle}) > 0`;
    },
    /**
     * `column like pattern` without regard to case, as SQLite's like is (PostgreSQL's is not):
     * ilike there. The pattern's escape character is a backslash.
     */
    likeInsensitive(column: string, pattern: string): RawBuilder<boolean> {
      return postgres
        ? sql<boolean>`${sql.ref(column)} ilike ${pattern} escape '\\'`
        : sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
    },
    /**
     * Rows of numbers as a table `alias` (columns column1, column2, … of the given types) bound as one
     * parameter per column, so a long list costs a few values and the statement's text (so its prepared
     * statement) is the same whatever the list's length. SQLite reads one JSON array of arrays; PostgreSQL
     * unnests one array per column, whose length its planner knows (it guesses 100 rows of a JSON array).
     * A "millionths" column is a real sent as a whole number of millionths: integers are written several
     * times faster than decimals, and long lists are written on every search that sends them.
     */
    numberRows<Row, Alias extends string>(
      rows: readonly (readonly number[])[],
      types: readonly NumberType[],
      alias: Alias,
    ): AliasedRawBuilder<Row, Alias> {
      return numberRowsOf<Row, Alias>(numberRowsValues(rows, types), types, alias);
    },
    /**
     * The values numberRows binds for `rows` (one per column on PostgreSQL, one on SQLite; as many for no
     * rows), for a query built once and run with new rows: see numberRowsOf.
     */
    numberRowsValues,
    /** numberRows' table from values bound apart (numberRowsValues' own, or a prepared query's stand-ins for them). */
    numberRowsOf,
  };
}
