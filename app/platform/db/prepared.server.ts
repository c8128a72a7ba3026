import type { Compilable, CompiledQuery, Kysely } from "kysely";
import type { Database } from "~db/schema";

/** Where a prepared query's value goes: handed to Kysely in place of the value, swapped for it on each run. */
class Placeholder {
  constructor(readonly name: string) {}
}

export interface PreparedQuery<Args, Row> {
  /** Every row, in the query's order (on `database`, a transaction of the app's database, when given: planned there as any query). */
  all(args: Args, database?: Kysely<Database>): Promise<Row[]>;
  /** The first row, or undefined. */
  first(args: Args, database?: Kysely<Database>): Promise<Row | undefined>;
}

/**
 * Queries whose shape never changes, built and compiled by Kysely once instead of on every run: the hot
 * queries behind every signed-in page, where building and compiling cost about as much as the
 * database's own work. `build` receives its values as stand-ins to hand to Kysely (in `where`, `limit`,
 * `sql` and the like) and must never look at them: it runs once, before any real value exists, and
 * anything else it puts in the query (a time, a list) is fixed for good. A query whose shape depends on
 * its values is one prepared query per shape.
 */
export function preparedQueries(app: Kysely<Database>) {
  return function preparedQuery<Args extends object, Row>(
    build: (args: Args) => Compilable<Row>,
  ): PreparedQuery<Args, Row> {
    let compiled: CompiledQuery<Row> | null = null;
    const standIns = new Proxy({} as Args, { get: (_, name) => new Placeholder(String(name)) });
    const all = async (args: Args, database: Kysely<Database> = app): Promise<Row[]> => {
      // One shape, values that never change how it is best read: on `app`'s connections, planned once per connection.
      compiled ??= build(standIns).compile();
      const parameters = compiled.parameters.map((value) => {
        if (!(value instanceof Placeholder)) return value;
        if (!(value.name in args)) throw new Error(`preparedQuery: no value for "${value.name}"`);
        return (args as Record<string, unknown>)[value.name];
      });
      return (await database.executeQuery<Row>({ ...compiled, parameters })).rows;
    };
    return { all, first: async (args, database) => (await all(args, database))[0] };
  };
}
