import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { databaseEngine, db, migrateToLatest, openDatabase } from "./db.server";
import { copySqliteToPostgres, tablesInCopyOrder } from "./db-copy.server";
import SQLite from "better-sqlite3";

const at = "2026-11-01T10:00:00.000Z";
const folder = mkdtempSync(path.join(tmpdir(), "copy-to-postgres-"));
const sourceFile = path.join(folder, "trusted-sitters.db");

function userRow(id: string, role: "owner" | "sitter", extra: Record<string, unknown> = {}) {
  return {
    id,
    email: `${id}@example.com`,
    password_hash: "x",
    email_verified_at: at,
    name: `Name ${id}`,
    phone: "600",
    city: "Madrid",
    postal_code: "28004",
    role,
    bio: "",
    created_at: at,
    updated_at: at,
    ...extra,
  };
}

let source: Kysely<Database>;
beforeAll(async () => {
  source = openDatabase(sourceFile);
  await migrateToLatest(source);
  await source.insertInto("users").values(userRow("a-owner", "owner")).execute();
  await source
    .insertInto("users")
    .values(
      userRow("b-sitter", "sitter", {
        latitude: 40.4168,
        longitude: -3.7038,
        hourly_rate_cents: 1800,
        experience: '["dogs"]',
      }),
    )
    .execute();
  await source
    .updateTable("users")
    .set({ rating_average: 4.5, review_count: 2 })
    .where("id", "=", "b-sitter")
    .execute();
  await source
    .insertInto("conversations")
    .values({ id: "c1", user_a_id: "a-owner", user_b_id: "b-sitter", created_at: at, last_message_at: at })
    .execute();
  for (const body of ["one", "two", "three"])
    await source
      .insertInto("messages")
      .values({ conversation_id: "c1", sender_id: "a-owner", body, created_at: at })
      .execute();
  await source
    .insertInto("audit_log")
    .values({
      operator_id: null,
      action: "grant-admin",
      subject_type: "user",
      subject_id: "a-owner",
      reason: "first operator",
      created_at: at,
    })
    .execute();
  await source.destroy();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("tables in copy order", () => {
  it("puts every table after the tables its foreign keys point at", () => {
    const file = new SQLite(sourceFile, { readonly: true });
    try {
      const order = tablesInCopyOrder(file);
      expect(order).not.toContain("kysely_migration");
      for (const table of order) {
        const parents = (
          file.prepare(`select "table" as parent from pragma_foreign_key_list(?)`).all(table) as { parent: string }[]
        ).map((row) => row.parent);
        for (const parent of parents)
          if (parent !== table)
            expect(order.indexOf(parent), `${parent} before ${table}`).toBeLessThan(order.indexOf(table));
      }
      expect(order.indexOf("users")).toBeLessThan(order.indexOf("messages"));
    } finally {
      file.close();
    }
  });
});

describe.skipIf(databaseEngine !== "postgres")(
  "copying a SQLite database into PostgreSQL (needs TEST_DATABASE_URL)",
  () => {
    it("copies every row as it is, checks the counts, and new rows continue after the copied ids", async () => {
      const copied = await copySqliteToPostgres(sourceFile, db);
      const counts = Object.fromEntries(copied.map((table) => [table.table, table.rows]));
      expect(counts).toMatchObject({ users: 2, conversations: 1, messages: 3, audit_log: 1 });

      const sitter = await db.selectFrom("users").selectAll().where("id", "=", "b-sitter").executeTakeFirstOrThrow();
      // Copied verbatim (the ratings trigger stayed out of it); the position's unit vector computed by PostgreSQL itself.
      expect(sitter).toMatchObject({
        rating_average: 4.5,
        review_count: 2,
        hourly_rate_cents: 1800,
        experience: '["dogs"]',
        latitude: 40.4168,
      });
      expect(sitter.unit_z).toBeCloseTo(Math.sin((40.4168 * Math.PI) / 180), 6);
      expect((await db.selectFrom("messages").select("body").orderBy("id").execute()).map((row) => row.body)).toEqual([
        "one",
        "two",
        "three",
      ]);

      const next = await db
        .insertInto("messages")
        .values({ conversation_id: "c1", sender_id: "b-sitter", body: "four", created_at: at })
        .returning("id")
        .executeTakeFirstOrThrow();
      const highest = await db
        .selectFrom("messages")
        .select((eb) => eb.fn.max("id").as("id"))
        .where("body", "!=", "four")
        .executeTakeFirstOrThrow();
      expect(next.id).toBeGreaterThan(Number(highest.id));
    });

    it("refuses a database that already has people, and changes nothing", async () => {
      await expect(copySqliteToPostgres(sourceFile, db)).rejects.toThrow(/already has people/);
      expect(await db.selectFrom("messages").select("body").where("body", "=", "four").execute()).toHaveLength(1);
    });

    it("with replace, empties the tables first and copies again", async () => {
      await copySqliteToPostgres(sourceFile, db, { replace: true });
      expect(await db.selectFrom("messages").select("body").orderBy("id").execute()).toEqual([
        { body: "one" },
        { body: "two" },
        { body: "three" },
      ]);
    });
  },
);
