import { sql, type RawBuilder } from "kysely";
import type { Engine } from "~db/engine";

/*
 * The few SQL expressions that differ between SQLite and PostgreSQL, for queries shared by both.
 * Columns are named as Kysely references ("u.cares_for"); values are always bound parameters.
 */

export function sqlHelpers(engine: Engine) {
  const postgres = engine === "postgres";
  return {
    /** Whether the JSON array of strings in `column` holds `value`. */
    jsonListIncludes(column: string, value: string): RawBuilder<boolean> {
      return postgres
        ? sql<boolean>`(${sql.ref(column)})::jsonb ? ${value}`
        : sql<boolean>`exists (select 1 from json_each(${sql.ref(column)}) where value = ${value})`;
    },
    /** The text under `key` of the JSON object in `column` (null when absent). */
    jsonText(column: string, key: string): RawBuilder<string | null> {
      return postgres ? sql<string | null>`(${sql.ref(column)})::jsonb ->> ${key}` : sql<string | null>`json_extract(${sql.ref(column)}, ${`$.${key}`})`;
    },
    /**
     * `column like pattern` without regard to case, as SQLite's like is (PostgreSQL's is not):
     * ilike there. The pattern's escape character is a backslash.
     */
    likeInsensitive(column: string, pattern: string): RawBuilder<boolean> {
      return postgres ? sql<boolean>`${sql.ref(column)} ilike ${pattern} escape '\\'` : sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
    },
  };
}
