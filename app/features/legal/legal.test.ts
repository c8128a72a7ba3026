import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { I18nextProvider } from "react-i18next";
import { createInstance, type Resource } from "i18next";
import { describe, expect, it, vi } from "vitest";
import type { RouteConfigEntry } from "@remix-run/route-config";
import routes from "~/routes";
import { parseEnv } from "~/platform/env.server";
import { i18nConfig, namespaces, supportedLanguages } from "~/platform/i18n";
import { resources } from "~/platform/i18n.server";
import { loader as localesLoader } from "~/routes/locales";
import { LEGAL_DOCUMENTS, legalDocument, type LegalDocument } from "./documents.server";
import { ImprintPage, LegalDocumentPage } from "./legal-page";
import { imprintOf, missingOperatorWarning } from "./operator.server";
import { imprintPage, legalPage } from "./pages.server";

const base = { NODE_ENV: "test", DATA_DIR: mkdtempSync(path.join(tmpdir(), "legal-")) } as const;
const production = {
  ...base,
  NODE_ENV: "production",
  SESSION_SECRET: "s".repeat(32),
  SMTP_URL: "smtp://mail.example.com:587",
  APP_URL: "https://sitters.example",
} as const;
const operator = {
  OPERATOR_NAME: "Patas Felices S.L.",
  OPERATOR_ADDRESS: "Calle Mayor 5\n28013 Madrid\nEspaña",
  OPERATOR_EMAIL: "ayuda@patas.example",
  OPERATOR_PHONE: "+34 911 222 333",
  OPERATOR_REPRESENTATIVE: "Marta Ruiz",
  OPERATOR_REGISTER: "Registro Mercantil de Madrid, Hoja M-123456",
  OPERATOR_VAT_ID: "ESB87654321",
};

/** Renders a page component with the site's translations, as the server does. */
async function render(element: ReturnType<typeof createElement>, language = "en"): Promise<string> {
  const i18n = createInstance();
  await i18n.init({ ...i18nConfig, lng: language, ns: namespaces, resources });
  const router = createMemoryRouter([{ path: "/", element }], { initialEntries: ["/"] });
  // Links warn that layout effects do not run on a server: true, and beside the point here.
  const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    return renderToStaticMarkup(createElement(I18nextProvider, { i18n }, createElement(RouterProvider, { router })));
  } finally {
    quiet.mockRestore();
  }
}

/** The shape of a document, without its words: the same in every language. */
function shapeOf(document: LegalDocument) {
  const blocks = (list: LegalDocument["intro"] | undefined) =>
    list?.map((block) => (typeof block === "string" ? "p" : `ul${block.length}`));
  return {
    intro: blocks(document.intro),
    sections: document.sections.map((section) => ({
      id: section.id,
      body: blocks(section.body),
      after: blocks(section.after),
      table: section.table
        ? { head: section.table.head.length, rows: section.table.rows.map((row) => `${row[0]}:${row.length}`) }
        : null,
    })),
  };
}

function textsOf(document: LegalDocument): string[] {
  const flat = (list: LegalDocument["intro"] | undefined) => (list ?? []).flat();
  return [
    ...flat(document.intro),
    ...document.sections.flatMap((section) => [
      section.heading,
      ...flat(section.body),
      ...flat(section.after),
      ...(section.table ? [section.table.caption, ...section.table.head, ...section.table.rows.flat()] : []),
    ]),
  ];
}

function pagePaths(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [entry.path ?? "", ...pagePaths(entry.children ?? [])]).filter(Boolean);
}
const sitePaths = new Set(pagePaths(routes).map((route) => `/${route}`));
/** The settings page (deletion and export) is built beside these pages, under this address. */
const linkedElsewhere = new Set(["/settings"]);

describe("the legal texts", () => {
  const names = ["legal", "legal-imprint", ...LEGAL_DOCUMENTS.map((name) => `legal-${name}`)];

  it("have every key in every language", () => {
    const keysOf = (tree: unknown, prefix = ""): string[] =>
      tree && typeof tree === "object"
        ? Object.entries(tree).flatMap(([key, value]) => keysOf(value, `${prefix}.${key}`))
        : [prefix];
    for (const name of names) {
      const english = keysOf((resources as Resource).en?.[name]).sort();
      expect(english.length, name).toBeGreaterThan(5);
      for (const language of supportedLanguages)
        expect(keysOf((resources as Resource)[language]?.[name]).sort(), `${language}/${name}`).toEqual(english);
    }
  });

  it("are not among the translations every page loads, and the browser cannot fetch the long ones", async () => {
    const answer = await localesLoader({
      params: { lng: "de" },
      request: new Request("http://localhost/locales/de"),
      context: { cspNonce: "", clientAddress: "127.0.0.1" },
    });
    const served = Object.keys((await answer.json()) as Record<string, unknown>);
    expect(served).toContain("legal");
    for (const name of names.filter((name) => name !== "legal")) {
      expect(namespaces).not.toContain(name);
      expect(served).not.toContain(name);
    }
    // What every page does load stays small: titles, links and the sign-up sentence.
    expect(JSON.stringify((resources as Resource).en?.legal).length).toBeLessThan(1500);
  });

  it.each(supportedLanguages)(
    "in %s are complete, shaped like the English ones, with every figure filled in and links only to pages of the site",
    async (language) => {
      for (const name of LEGAL_DOCUMENTS) {
        const english = await legalDocument(name, "en", { operator: "O", contact: "c@example.com" });
        const document = await legalDocument(name, language, { operator: "O", contact: "c@example.com" });
        expect(shapeOf(document), `${language}/${name}`).toEqual(shapeOf(english));
        for (const text of textsOf(document)) {
          expect(text, `${language}/${name}`).not.toMatch(/\{\{|\}\}|<|>/);
          for (const [, target] of text.matchAll(/\]\(([^)]*)\)/g)) {
            const pagePath = target!.split("#")[0]!;
            expect(
              sitePaths.has(pagePath) || linkedElsewhere.has(pagePath),
              `${language}/${name}: link to ${target}`,
            ).toBe(true);
          }
        }
        if (language !== "en")
          expect(textsOf(document).join(" "), `${language}/${name} is translated`).not.toEqual(
            textsOf(english).join(" "),
          );
      }
    },
  );

  it("state the figures the marketplace applies", async () => {
    const help = textsOf(await legalDocument("help", "en", { operator: "O", contact: "c@example.com" })).join(" ");
    expect(help).toContain("20%");
    expect(help).toContain("72 hours");
    const cookies = textsOf(await legalDocument("cookies", "en", { operator: "O", contact: "c@example.com" })).join(
      " ",
    );
    for (const cookie of ["__session", "toast", "i18nextLng", "location-later", "outbox"])
      expect(cookies).toContain(cookie);
  });

  it("render with headings, a table of contents pointing at each section, and translated titles", async () => {
    const page = await legalPage("privacy", "de", imprintOf(parseEnv({ ...base, ...operator })));
    expect(page.title).toBe("Datenschutzerklärung");
    expect(page.document.sections[0]!.body.join(" ")).toContain("Patas Felices S.L.");
    const html = await render(createElement(LegalDocumentPage, page), "de");
    expect(html).toContain("<h1");
    for (const section of page.document.sections) {
      expect(html).toContain(`href="#${section.id}"`);
      expect(html).toContain(`id="${section.id}"`);
    }
    expect(html).toContain('href="/settings"');
  });
});

describe("the imprint", () => {
  it("shows the operator's configured details, and no example", async () => {
    const imprint = imprintOf(parseEnv({ ...production, ...operator }));
    expect(imprint).toMatchObject({ source: "configured", missing: [] });
    const page = await imprintPage("es", imprint);
    const html = await render(createElement(ImprintPage, page), "es");
    for (const value of [
      "Patas Felices S.L.",
      "Calle Mayor 5",
      "28013 Madrid",
      "+34 911 222 333",
      "Marta Ruiz",
      "Registro Mercantil de Madrid, Hoja M-123456",
      "ESB87654321",
    ])
      expect(html).toContain(value);
    expect(html).toContain('href="mailto:ayuda@patas.example"');
    expect(html).toContain('href="tel:+34911222333"');
    expect(html).toContain("Representado por");
    expect(html).not.toContain("Example");
    expect(html).not.toContain(page.text.example);
    expect(missingOperatorWarning(parseEnv({ ...production, ...operator }))).toBeNull();
  });

  it("shows clearly marked examples in development, tests and demo mode when nothing is configured", async () => {
    for (const environment of [
      base,
      { ...base, NODE_ENV: "development" as const },
      { ...production, DEMO_MODE: "true" },
    ]) {
      const imprint = imprintOf(parseEnv(environment));
      expect(imprint.source).toBe("example");
      const page = await imprintPage("en", imprint);
      const html = await render(createElement(ImprintPage, page));
      expect(html).toContain(page.text.example);
      expect(html).toContain("Example Pet Care S.L.");
    }
  });

  it("in production never invents details: it says which required ones are missing, and the start-up log warns", async () => {
    const nothing = imprintOf(parseEnv(production));
    expect(nothing).toEqual({ source: "configured", details: [], missing: ["name", "address", "email"] });
    const html = await render(createElement(ImprintPage, await imprintPage("fr", nothing)), "fr");
    expect(html).not.toContain("Example");
    expect(html).toContain("Adresse");
    expect(missingOperatorWarning(parseEnv(production))).toMatch(/OPERATOR_NAME, OPERATOR_ADDRESS, OPERATOR_EMAIL/);

    const partly = imprintOf(
      parseEnv({ ...production, OPERATOR_NAME: "Patas Felices S.L.", OPERATOR_VAT_ID: "ESB87654321" }),
    );
    expect(partly.details.map((detail) => detail.field)).toEqual(["name", "vatId"]);
    expect(partly.missing).toEqual(["address", "email"]);
    // Set only partly in development: what is set is shown as it is, nothing made up beside it.
    expect(imprintOf(parseEnv({ ...base, OPERATOR_NAME: "Patas Felices S.L." })).source).toBe("configured");
  });

  it("refuses malformed operator settings at start-up", () => {
    expect(() => parseEnv({ ...base, OPERATOR_EMAIL: "not an address" })).toThrow(/OPERATOR_EMAIL/);
    expect(() => parseEnv({ ...base, OPERATOR_VAT_ID: "12345" })).toThrow(/OPERATOR_VAT_ID/);
    expect(() => parseEnv({ ...base, OPERATOR_PHONE: "<script>" })).toThrow(/OPERATOR_PHONE/);
    expect(() => parseEnv({ ...base, OPERATOR_NAME: "x".repeat(201) })).toThrow(/OPERATOR_NAME/);
  });
});
