import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import { createInstance, type i18n as I18n, type Resource, type TFunction } from "i18next";
import { initReactI18next } from "react-i18next";
import { RemixI18Next } from "remix-i18next/server";
import { cookiesAreSecure } from "./env.server";
import { oncePerRequest } from "./request-context.server";
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

/** The reader's language (from the address, the language cookie, then the browser's), found once per page. */
export function languageOf(request: Request): Promise<Language> {
  return oncePerRequest(request, "language", async () => (await i18nServer.getLocale(request)) as Language);
}

// One i18next instance per language, made and initialised once: every resource is in memory, and
// nothing on the server changes an instance's language, so requests can share them.
const instances = new Map<Language, I18n>();

export function i18nextFor(language: Language): I18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = createInstance();
    // The resources are given, so init finishes before it returns.
    void instance.use(initReactI18next).init({
      ...i18nConfig,
      lng: language,
      ns: Object.keys(resources[language] ?? {}),
      resources,
      initImmediate: false,
    });
    rememberTranslations(instance);
    instances.set(language, instance);
  }
  return instance;
}

const REMEMBERED_TRANSLATIONS = 5_000;

/** The cache key of a call whose options are all plain values or null (a namespace list included), else null. */
function translationKey(key: unknown, options: unknown): string | null {
  if (typeof key !== "string") return null;
  if (options === undefined) return key;
  if (typeof options !== "object" || options === null) return null;
  let cacheKey = key;
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const type = typeof value;
    // The type is part of the key: a count of 1 and the text "1" may translate differently.
    if (value === null || type === "string" || type === "number" || type === "boolean")
      cacheKey += `\u0000${name}\u0001${type}\u0001${String(value)}`;
    else if (Array.isArray(value) && value.every((item) => typeof item === "string"))
      cacheKey += `\u0000${name}\u0002${value.join("\u0002")}`;
    else return null;
  }
  return cacheKey;
}

/**
 * Each page calls t() a few hundred times with the same keys and values, and i18next works each one out
 * again (key parsing, namespace fallbacks, plurals, interpolation): the resources never change once loaded,
 * so an instance's answers to plain calls are kept (a bounded number: interpolated names vary).
 */
function rememberTranslations(instance: I18n) {
  const translate = instance.t.bind(instance) as (key: unknown, options?: unknown) => unknown;
  const remembered = new Map<string, string>();
  const t = (key: unknown, options?: unknown, ...rest: unknown[]) => {
    const cacheKey = rest.length === 0 ? translationKey(key, options) : null;
    if (cacheKey === null) return (translate as (...args: unknown[]) => unknown)(key, options, ...rest);
    const known = remembered.get(cacheKey);
    if (known !== undefined) return known;
    const text = translate(key, options);
    if (typeof text === "string") {
      if (remembered.size >= REMEMBERED_TRANSLATIONS) remembered.clear();
      remembered.set(cacheKey, text);
    }
    return text;
  };
  instance.t = t as unknown as I18n["t"];
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
