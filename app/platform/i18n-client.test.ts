import { createInstance, type TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { i18nConfig, namespaces, supportedLanguages } from "./i18n";
import { createTranslator } from "./i18n.client";
import { resources } from "./i18n.server";

// The browser's translator must say what the server's i18next rendered, or hydration shows other words.

function leafKeys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => leafKeys(inner, prefix ? `${prefix}.${key}` : key));
}

// Plural keys are asked for by their base name, as the pages do.
const baseOf = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, "");

async function both(language: string) {
  const server = createInstance();
  await server.init({ ...i18nConfig, lng: language, ns: namespaces, resources, initImmediate: false });
  const client = createTranslator(language, (lng) =>
    Promise.resolve((resources[lng] ?? {}) as Record<string, Record<string, unknown>>),
  );
  await client.init();
  return { server, client: client.i18n };
}

describe("the browser's translator", () => {
  it.each(supportedLanguages)(
    "answers like i18next for every key in %s, with counts, values and defaults",
    async (language) => {
      const { server, client } = await both(language);
      const values = {
        name: "Ana",
        pet: "Rex",
        when: "Monday",
        amount: "€12.00",
        max: 500,
        length: 12,
        stars: 4,
        percent: 50,
      };
      let compared = 0;
      for (const namespace of namespaces) {
        const serverT: TFunction = server.getFixedT(null, namespace);
        const clientT = client.getFixedT(null, namespace);
        const fromCommon = client.getFixedT(null, "common");
        const keys = new Set(leafKeys(resources[language]?.[namespace]).map(baseOf));
        for (const key of keys) {
          for (const options of [
            {},
            values,
            { ...values, count: 0 },
            { ...values, count: 1 },
            { ...values, count: 2 },
            { ...values, count: 5 },
            { ...values, count: 22 },
          ]) {
            expect(clientT(key, options), `${language} ${namespace}:${key} ${JSON.stringify(options)}`).toBe(
              serverT(key, options),
            );
            // The same key named with its namespace, from another namespace's t, as forms' errors are.
            expect(fromCommon(`${namespace}:${key}`, options)).toBe(
              server.getFixedT(null, "common")(`${namespace}:${key}`, options),
            );
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThan(1000);
    },
  );

  it("falls back like i18next on unknown keys, defaults and plain text", async () => {
    const { server, client } = await both("de");
    const serverT = server.getFixedT(null, "subscription");
    const clientT = client.getFixedT(null, "subscription");
    for (const [key, options] of [
      ["nothing.here", {}],
      ["nothing.here", { defaultValue: "Plan {{name}}", name: "Gold" }],
      ["Your card was declined.", { defaultValue: "x" }],
      ["Your card was declined: try again", {}],
      ["paymentError.default", { defaultValue: "unused" }],
      ["common:validation.tooLong", { max: 3 }],
      ["auth:nothing", {}],
    ] as const) {
      expect(clientT(key, options)).toBe(serverT(key, options));
    }
  });

  it("changes language after loading the new one, and tells its listeners", async () => {
    const { client } = await both("en");
    let told = 0;
    client.on("languageChanged", () => (told += 1));
    const before = client.getFixedT(null, "common")("skipToContent");
    await client.changeLanguage("fr");
    expect(client.language).toBe("fr");
    expect(told).toBe(1);
    expect(client.getFixedT(null, "common")("skipToContent")).not.toBe(before);
  });
});
