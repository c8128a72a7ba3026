import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import type { Resource } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { cookiesAreSecure } from "./env.server";
import { fallbackLanguage, i18nConfig, supportedLanguages, type Language } from "./i18n";

// It carries only the language code, so it need not be signed.
export const languageCookie = createCookie("i18nextLng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  secure: cookiesAreSecure,
  maxAge: 60 * 60 * 24 * 365,
});

const localesDir = path.resolve(process.env.LOCALES_DIR ?? "locales");

export const resources: Resource = Object.fromEntries(
  supportedLanguages.map((lng) => {
    const dir = path.join(localesDir, lng);
    const namespaces = readdirSync(dir)
      .filter((file) => file.endsWith(".json"))
      .map((file) => [file.slice(0, -".json".length), JSON.parse(readFileSync(path.join(dir, file), "utf8"))]);
    return [lng, Object.fromEntries(namespaces)];
  }),
);

export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    cookie: languageCookie,
    order: ["searchParams", "cookie", "header"],
  },
  i18next: { ...i18nConfig, resources },
});

export async function languageOf(request: Request): Promise<Language> {
  return (await i18nServer.getLocale(request)) as Language;
}

export function translatorFor(language: Language, namespace = "common") {
  return i18nServer.getFixedT(language, namespace);
}

// Changes whenever a translation does, so the browser may cache translation files for good.
export const resourcesVersion = createHash("sha256").update(JSON.stringify(resources)).digest("hex").slice(0, 12);
