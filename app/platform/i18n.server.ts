import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import { createInstance, type i18n as I18n, type Resource, type TFunction } from "i18next";
import { initReactI18next } from "react-i18next";
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

// One i18next instance per language, made and initialised once: every resource is in memory, and
// nothing on the server changes an instance's language, so requests can share them.
const instances = new Map<Language, I18n>();

export function i18nextFor(language: Language): I18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = createInstance();
    // The resources are given, so init finishes before it returns.
    void instance.use(initReactI18next).init({ ...i18nConfig, lng: language, ns: Object.keys(resources[language] ?? {}), resources, initImmediate: false });
    instances.set(language, instance);
  }
  return instance;
}

const translators = new Map<string, TFunction>();

export async function translatorFor(language: Language, namespace = "common"): Promise<TFunction> {
  const key = `${language}:${namespace}`;
  let t = translators.get(key);
  if (!t) {
    t = i18nextFor(language).getFixedT(language, namespace) as TFunction;
    translators.set(key, t);
  }
  return t;
}

// Changes whenever a translation does, so the browser may cache translation files for good.
export const resourcesVersion = createHash("sha256").update(JSON.stringify(resources)).digest("hex").slice(0, 12);
