import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { person } from "~/testing/people";
import { withStatementCache } from "./db.server";
import { createLoadContext, runWithLoadContext } from "./request-context.server";
import { getUser } from "./session.server";
import { db } from "./db.server";
import { createInstance } from "i18next";
import { i18nConfig } from "./i18n";
import { i18nextFor, resources, translatorFor } from "./i18n.server";

describe("the prepared-statement cache", () => {
  it("prepares each SQL text once, keeps at most its size, and never hands out a statement still being read", () => {
    const sqlite = new SQLite(":memory:");
    const cache = withStatementCache(sqlite, 2);
    const first = cache.prepare("select 1 as n");
    expect(cache.prepare("select 1 as n")).toBe(first);
    cache.prepare("select 2 as n");
    cache.prepare("select 3 as n");
    expect(cache.cachedStatements).toBe(2);
    // "select 1" was the least recently used: it is prepared again.
    expect(cache.prepare("select 1 as n")).not.toBe(first);

    const values = cache.prepare("select value from json_each('[1,2,3]')");
    const reading = values.iterate();
    reading.next();
    const meanwhile = cache.prepare("select value from json_each('[1,2,3]')");
    expect(meanwhile).not.toBe(values);
    expect(meanwhile.all()).toHaveLength(3);
    reading.return?.();
    cache.close();
  });
});

describe("one request's lookups", () => {
  it("finds the signed-in person once per page, but again for a form post and outside a request", async () => {
    const someone = await person("owner", { signedIn: true });
    const page = new Request("http://localhost/dashboard", { headers: { Cookie: someone.cookie } });
    const context = createLoadContext({ cspNonce: "", clientAddress: "127.0.0.1" });
    const [one, two] = await runWithLoadContext(context, () => Promise.all([getUser(page), getUser(page)]));
    expect(one?.id).toBe(someone.id);
    expect(two).toBe(one);

    await db.updateTable("users").set({ name: "Renamed" }).where("id", "=", someone.id).execute();
    const post = new Request("http://localhost/profile/edit", { method: "POST", headers: { Cookie: someone.cookie } });
    expect((await runWithLoadContext(context, () => getUser(post)))?.name).toBe("Renamed");
    expect((await getUser(page))?.name).toBe("Renamed");
    // A stranger's cookie in the same context is never answered with someone else.
    expect(await runWithLoadContext(context, () => getUser(new Request("http://localhost/dashboard")))).toBeNull();
  });
});

describe("translators", () => {
  it("are made once per language and namespace, and translate as before", async () => {
    const t = await translatorFor("es", "common");
    expect(await translatorFor("es", "common")).toBe(t);
    expect(t("skipToContent")).not.toBe("skipToContent");
    expect(t("skipToContent")).not.toBe((await translatorFor("en", "common"))("skipToContent"));
  });
});

describe("remembered translations", () => {
  const fresh = createInstance();
  void fresh.init({ ...i18nConfig, lng: "pl", ns: Object.keys(resources.pl ?? {}), resources, initImmediate: false });
  const calls: [string, Record<string, unknown>?][] = [
    ["common:skipToContent"],
    ["common:nav.unread", { count: 1 }],
    ["common:nav.unread", { count: 3 }],
    ["common:nav.unread", { count: "3" }],
    ["common:nav.unread", { count: 5 }],
    ["common:nav.unread", { count: 22 }],
    ["discovery:mode.localNow", { city: "Kraków" }],
    ["discovery:mode.localNow", { city: "Gdańsk" }],
    ["discovery:mode.localNow", { city: null }],
    ["discovery:mode.localNow", { city: "null" }],
    ["discovery:no.such.key"],
  ];

  it("answer every call as a fresh i18next instance does, the first time and the next", () => {
    const remembered = i18nextFor("pl");
    for (let round = 0; round < 2; round += 1) {
      for (const [key, options] of calls)
        expect(remembered.t(key, options), `${key} ${JSON.stringify(options)}`).toBe(fresh.t(key, options));
    }
    expect(remembered.t("discovery:mode.localNow", { city: "Kraków" })).toBe("Profile w pobliżu: Kraków");
    expect(remembered.t("common:nav.unread", { count: 3 })).not.toBe(remembered.t("common:nav.unread", { count: 5 }));
  });

  it("answer react-i18next's translators (no language, a list of namespaces, a key prefix) as before", () => {
    const remembered = i18nextFor("pl");
    for (const [ns, prefix] of [
      [["discovery", "common"], undefined],
      ["discovery", "mode"],
      [["common"], "nav"],
    ] as const) {
      const one = remembered.getFixedT(null, ns as string | string[], prefix);
      const other = fresh.getFixedT(null, ns as string | string[], prefix);
      for (let round = 0; round < 2; round += 1) {
        for (const key of ["local", "localNow", "unread", "label", "skipToContent", "mode.global", "common:nav.back"]) {
          expect(one(key, { city: "Łódź", count: 2 }), `${String(ns)} ${prefix} ${key}`).toBe(
            other(key, { city: "Łódź", count: 2 }),
          );
          expect(one(key)).toBe(other(key));
        }
      }
    }
  });

  it("pass calls with other options (objects to return, functions) through untouched", () => {
    const remembered = i18nextFor("pl");
    expect(remembered.t("discovery:mode", { returnObjects: true })).toEqual(
      fresh.t("discovery:mode", { returnObjects: true }),
    );
    expect(remembered.t("discovery:mode.localNow", { city: { toString: () => "Opole" } })).toBe(
      "Profile w pobliżu: Opole",
    );
  });
});
