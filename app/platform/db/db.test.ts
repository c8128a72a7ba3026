import { CompiledQuery, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { person } from "~/testing/people";
import {
  containsText,
  databaseEngine,
  db,
  flag,
  refreshStatistics,
  json,
  jsonList,
  jsonListIncludes,
  jsonObject,
  jsonText,
  jsonWithText,
  likeInsensitive,
  lockPeople,
  numberRows,
  preparedQuery,
} from "../db.server";
import { env } from "../env.server";
import { serialized } from "../lock.server";
import { openPostgresDatabase } from "./postgres.server";

describe("codecs", () => {
  it("read and write flags, lists and JSON as both engines store them", () => {
    expect([flag.read(1), flag.read(0), flag.read(true), flag.read(false), flag.read(null)]).toEqual([
      true,
      false,
      true,
      false,
      false,
    ]);
    expect([flag.write(true), flag.write(false)]).toEqual([1, 0]);
    expect(jsonList.read('["dogs","cats"]')).toEqual(["dogs", "cats"]);
    expect(jsonList.read('{"not":"a list"}')).toEqual([]);
    expect(jsonList.read('["dogs", 3, null]')).toEqual(["dogs"]);
    expect(jsonList.write(["dogs"])).toBe('["dogs"]');
    expect(jsonObject.read("[1]")).toEqual({});
    expect(json<{ a: number }>().read(json<{ a: number }>().write({ a: 1 }))).toEqual({ a: 1 });
  });
});

describe(`SQL helpers on ${databaseEngine}`, () => {
  it("filter JSON lists, read and set JSON fields, find text and compare without case, with values bound", async () => {
    const someone = await person("sitter", {
      name: "Ágata O'Brien",
      columns: { cares_for: jsonList.write(["dogs", "cats"]) },
    });
    const id = someone.id;
    const where = (condition: ReturnType<typeof sql<boolean>>) =>
      db
        .selectFrom("users")
        .select("id")
        .where("id", "=", id)
        .where(condition)
        .execute()
        .then((rows) => rows.length);
    expect(await where(jsonListIncludes("cares_for", "cats"))).toBe(1);
    expect(await where(jsonListIncludes("cares_for", "cat"))).toBe(0);
    expect(await where(jsonListIncludes("cares_for", "'); drop table users; --"))).toBe(0);
    expect(await where(containsText("name", "O'Brien"))).toBe(1);
    expect(await where(containsText("name", "o'brien"))).toBe(0);
    expect(await where(likeInsensitive("name", "%o'brien"))).toBe(1);
    expect(await where(likeInsensitive("name", "o\\%brien"))).toBe(0);

    await db
      .insertInto("notifications")
      .values({
        id: `n-${id}`,
        user_id: id,
        type: "message",
        data: jsonObject.write({ preview: "hello", name: "A" }),
        created_at: new Date().toISOString(),
      })
      .execute();
    const read = () =>
      db
        .selectFrom("notifications")
        .select(["data", jsonText("data", "preview").as("preview")])
        .where("id", "=", `n-${id}`)
        .executeTakeFirstOrThrow();
    expect((await read()).preview).toBe("hello");
    await db
      .updateTable("notifications")
      .set({ data: jsonWithText("data", "preview", '<removed> "quoted"') })
      .where("id", "=", `n-${id}`)
      .execute();
    const after = await read();
    expect(after.preview).toBe('<removed> "quoted"');
    expect(jsonObject.read(after.data)).toEqual({ preview: '<removed> "quoted"', name: "A" });
  });

  it("count and sum as numbers, as SQLite does", async () => {
    const row = await db
      .selectFrom("users")
      .select((eb) => [
        eb.fn.countAll<number>().as("count"),
        eb.fn.sum<number>("review_count").as("sum"),
        sql<number>`avg(${sql.lit(1)})`.as("average"),
      ])
      .executeTakeFirstOrThrow();
    expect(typeof row.count).toBe("number");
    expect(typeof row.sum).toBe("number");
    expect(row.average).toBe(1);
  });

  it("read rows of numbers as a table, millionths as the reals they stand for, in the order given", async () => {
    const rows = [
      [403, -3712238, 40416800],
      [-1, 181000000, -181000000],
      [7, 0, 1],
    ];
    const table = numberRows<{ column1: number; column2: number; column3: number }, "r">(
      rows,
      ["integer", "millionths", "millionths"],
      "r",
    );
    const read = await db.selectFrom(table).select(["r.column1", "r.column2", "r.column3"]).execute();
    expect(read.map((row) => [Number(row.column1), row.column2, row.column3])).toEqual([
      [403, -3.712238, 40.4168],
      [-1, 181, -181],
      [7, 0, 0.000001],
    ]);
  });
});

describe(`prepared queries on ${databaseEngine}`, () => {
  const namesLike = preparedQuery((args: { pattern: string; role: "owner" | "sitter"; limit: number }) =>
    db
      .selectFrom("users")
      .select("name")
      .where("name", "like", args.pattern)
      .where("role", "=", args.role)
      .where("deleted_at", "is", null)
      .orderBy("name")
      .limit(args.limit),
  );

  it("run with each call's own values, the query built once", async () => {
    const tag = `Prep${Date.now().toString(36)}`;
    await person("owner", { name: `${tag} Ana` });
    await person("owner", { name: `${tag} Bea` });
    await person("sitter", { name: `${tag} Cris` });
    expect(await namesLike.all({ pattern: `${tag}%`, role: "owner", limit: 10 })).toEqual([
      { name: `${tag} Ana` },
      { name: `${tag} Bea` },
    ]);
    expect(await namesLike.all({ pattern: `${tag}%`, role: "sitter", limit: 10 })).toEqual([{ name: `${tag} Cris` }]);
    expect(await namesLike.all({ pattern: `${tag}%`, role: "owner", limit: 1 })).toEqual([{ name: `${tag} Ana` }]);
    expect(await namesLike.first({ pattern: `${tag} B%`, role: "owner", limit: 5 })).toEqual({ name: `${tag} Bea` });
    expect(await namesLike.first({ pattern: "' or 1=1 --", role: "owner", limit: 5 })).toBeUndefined();
  });

  it("run inside a transaction handed in, and refuse to run with a value missing", async () => {
    const tag = `Tx${Date.now().toString(36)}`;
    const dora = await person("owner");
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable("users")
        .set({ name: `${tag} Dora` })
        .where("id", "=", dora.id)
        .execute();
      expect(await namesLike.all({ pattern: `${tag}%`, role: "owner", limit: 5 }, trx)).toEqual([
        { name: `${tag} Dora` },
      ]);
    });
    await expect(namesLike.all({ pattern: `${tag}%`, role: "owner" } as never)).rejects.toThrow(/no value for "limit"/);
  });
});

describe.runIf(databaseEngine === "postgres")("PostgreSQL: writers side by side, decisions on locked rows", () => {
  it("lets two instances write different rows at once: one commits while the other's transaction is still open", async () => {
    const other = openPostgresDatabase(env.DATABASE_URL!);
    try {
      const [ana, bo] = [await person("owner"), await person("owner")];
      let otherCommitted!: () => void;
      const committed = new Promise<void>((resolve) => (otherCommitted = resolve));
      const first = db.transaction().execute(async (trx) => {
        await trx.updateTable("users").set({ bio: "first" }).where("id", "=", ana.id).execute();
        // Held open until the other instance's transaction commits: with one writer at a time it never would.
        await Promise.race([
          committed,
          new Promise((_, reject) => setTimeout(() => reject(new Error("the other writer waited")), 5_000)),
        ]);
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await other.db.transaction().execute(async (trx) => {
        await trx.updateTable("users").set({ bio: "second" }).where("id", "=", bo.id).execute();
      });
      otherCommitted();
      await first;
      const bios = await db
        .selectFrom("users")
        .select("bio")
        .where("id", "in", [ana.id, bo.id])
        .orderBy("bio")
        .execute();
      expect(bios.map((row) => row.bio)).toEqual(["first", "second"]);
    } finally {
      await other.db.destroy();
    }
  });

  it("makes decisions on the same person take turns across instances: every read-then-write sees the one before", async () => {
    const other = openPostgresDatabase(env.DATABASE_URL!);
    try {
      const owner = await person("owner");
      const log: string[] = [];
      const write = (database: typeof db, name: string) =>
        database.transaction().execute(async (trx) => {
          await lockPeople(trx, owner.id);
          log.push(`${name} in`);
          const before = await trx
            .selectFrom("users")
            .select("bio")
            .where("id", "=", owner.id)
            .executeTakeFirstOrThrow();
          await new Promise((resolve) => setTimeout(resolve, 50));
          await trx
            .updateTable("users")
            .set({ bio: `${before.bio}${name}` })
            .where("id", "=", owner.id)
            .execute();
          log.push(`${name} out`);
        });
      await Promise.all([write(db, "a"), write(other.db, "b"), write(db, "c"), write(other.db, "d")]);
      for (let i = 0; i < log.length; i += 2) expect(log[i + 1]).toBe(log[i]!.replace(" in", " out"));
      const { bio } = await db.selectFrom("users").select("bio").where("id", "=", owner.id).executeTakeFirstOrThrow();
      // No update was lost.
      expect([...bio.slice(-4)].sort().join("")).toBe("abcd");
    } finally {
      await other.db.destroy();
    }
  });

  it("serializes work under one key across instances, and nested keys do not starve the connections", async () => {
    const other = openPostgresDatabase(env.DATABASE_URL!, 2);
    try {
      let inside = 0;
      let most = 0;
      const work = async () => {
        inside += 1;
        most = Math.max(most, inside);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inside -= 1;
      };
      await Promise.all([
        ...Array.from({ length: 4 }, () => serialized("db-test", work)),
        ...Array.from({ length: 4 }, () => other.withSessionLock("serialized:db-test", work)),
      ]);
      expect(most).toBe(1);
      // More nested holders than the other instance's lock connections (4): each outer one shares its connection.
      const nested = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          other.withSessionLock(`outer-${i}`, () => other.withSessionLock(`inner-${i}`, async () => i)),
        ),
      );
      expect(nested).toHaveLength(12);
    } finally {
      await other.db.destroy();
    }
  });
});

describe.runIf(databaseEngine === "postgres")("PostgreSQL: plans kept for fixed query shapes", () => {
  it("runs a fixed shape as a named prepared statement with one generic plan on the planned connections; other queries as before", async () => {
    const { db: other, planned } = openPostgresDatabase(env.DATABASE_URL!, 1);
    try {
      const text = "select $1::text || ' kept' as said";
      const run = async (value: string) => (await planned.executeQuery(CompiledQuery.raw(text, [value]))).rows;
      expect(await run("first")).toEqual([{ said: "first kept" }]);
      expect(await run("second")).toEqual([{ said: "second kept" }]);
      const prepared = await planned.executeQuery<{ statement: string; generic_plans: number; custom_plans: number }>(
        CompiledQuery.raw("select statement, generic_plans, custom_plans from pg_prepared_statements", []),
      );
      expect(
        prepared.rows.filter((row) => row.statement === text),
        "prepared once and planned once, generically",
      ).toEqual([{ statement: text, generic_plans: 2, custom_plans: 0 }]);
      const mode = async (database: typeof other) =>
        (await database.executeQuery<{ plan_cache_mode: string }>(CompiledQuery.raw("show plan_cache_mode", []))).rows;
      expect(await mode(planned)).toEqual([{ plan_cache_mode: "force_generic_plan" }]);
      expect(await mode(other), "other queries are planned on every run as before").toEqual([
        { plan_cache_mode: "auto" },
      ]);
      const unnamed = await other.executeQuery(
        CompiledQuery.raw("select count(*) as n from pg_prepared_statements", []),
      );
      expect(unnamed.rows, "the app's other connections keep no statements").toEqual([{ n: 0 }]);
    } finally {
      await other.destroy();
    }
  });
});

describe.runIf(databaseEngine === "sqlite")("SQLite: statistics for the planner", () => {
  it("are gathered in full for a table never analysed, and left alone when nothing changed", async () => {
    for (let i = 0; i < 30; i += 1) await person(i % 2 ? "sitter" : "owner");
    await sql`delete from sqlite_stat1`.execute(db).catch(() => undefined);
    await refreshStatistics();
    const stats = async () =>
      (
        await sql<{
          idx: string;
          stat: string;
        }>`select idx, stat from sqlite_stat1 where tbl = 'users' order by idx`.execute(db)
      ).rows;
    const users = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    const first = await stats();
    expect(first.find((row) => row.idx === "sqlite_autoindex_users_1")?.stat, "every row counted, not a sample").toBe(
      `${users.count} 1`,
    );
    await refreshStatistics();
    expect(await stats()).toEqual(first);
  });
});
