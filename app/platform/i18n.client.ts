import type { i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { fallbackLanguage, i18nConfig, namespaces } from "./i18n";

// The browser's translator: the part of i18next the pages use (namespaced keys, nested paths, plural
// suffixes from Intl.PluralRules, {{value}} interpolation, defaultValue, the English fallback), with
// i18next's own rules for each, so that a hydrated page says exactly what the server rendered without
// shipping the whole of i18next to every page. i18n-client.test.ts holds the two to the same answers.

type Resources = Record<string, unknown>;
type Options = Record<string, unknown> & {
  count?: unknown;
  defaultValue?: unknown;
  lng?: string;
  ns?: string | string[];
  replace?: Record<string, unknown>;
};
type Listener = () => void;

// Like i18next: a key with one of these characters that does not look like a path is plain text, not "ns:key".
const NATURAL_LANGUAGE = /[ ,?!;]/;

function find(resources: Resources | undefined, key: string): unknown {
  if (!resources) return undefined;
  if (resources[key]) return resources[key];
  let current: unknown = resources;
  for (const part of key.split(".")) {
    if (!current || typeof current !== "object") return undefined;
    current = (current as Resources)[part];
  }
  return current;
}

function interpolate(text: string, values: Record<string, unknown>): string {
  return text.replace(/\{\{-?(.+?)\}\}/g, (match, name: string) => {
    const variable = name.trim();
    const value = find(values, variable);
    if (value === undefined) return Object.prototype.hasOwnProperty.call(values, variable) ? "" : match;
    return String(value);
  });
}

export function createTranslator(language: string, load: (language: string) => Promise<Record<string, Resources>>) {
  const store: Record<string, Record<string, Resources>> = {};
  const listeners = new Set<Listener>();
  const plurals = new Map<string, Intl.PluralRules>();

  const languagesOf = (lng: string) => (lng === fallbackLanguage ? [lng] : [lng, fallbackLanguage]);

  async function loadLanguage(lng: string) {
    await Promise.all(
      languagesOf(lng).map(async (code) => {
        if (store[code]) return;
        store[code] = await load(code).catch(() => ({}));
      }),
    );
  }

  function pluralSuffix(code: string, count: number) {
    if (!plurals.has(code)) plurals.set(code, new Intl.PluralRules(code));
    return `_${plurals.get(code)!.select(count)}`;
  }

  function translate(rawKey: string, given: Options | string | undefined, fixedNamespace: string): string {
    const options: Options = typeof given === "string" ? { defaultValue: given } : (given ?? {});
    let key = rawKey;
    let namespace = typeof options.ns === "string" ? options.ns : (options.ns?.[0] ?? fixedNamespace);
    if (key.includes(":") && !NATURAL_LANGUAGE.test(key.split(".")[0]!)) {
      const parts = key.split(":");
      namespace = parts.shift()!;
      key = parts.join(".");
    }
    const lng = options.lng ?? instance.language;
    const count = options.count;
    let found: unknown;
    for (const code of languagesOf(lng)) {
      const resources = store[code]?.[namespace];
      if (typeof count === "number") found = find(resources, key + pluralSuffix(code, count));
      if (found === undefined || found === null) found = find(resources, key);
      if (found !== undefined && found !== null) break;
    }
    let text: string;
    if (typeof found === "string") text = found;
    else if (options.defaultValue !== undefined) text = String(options.defaultValue);
    else text = key;
    return interpolate(text, options.replace && typeof options.replace === "object" ? options.replace : options);
  }

  const instance = {
    language,
    languages: languagesOf(language),
    isInitialized: false,
    options: { ...i18nConfig, ns: namespaces },
    hasLoadedNamespace: () => true,
    loadNamespaces: (_: unknown, done?: () => void) => Promise.resolve(done?.()),
    getFixedT(lng: string | null, ns?: string | string[]) {
      const namespace = (Array.isArray(ns) ? ns[0] : ns) ?? i18nConfig.defaultNS;
      return (key: string | string[], options?: Options | string) =>
        translate(
          Array.isArray(key) ? key[key.length - 1]! : key,
          lng && typeof options !== "string" ? { ...options, lng } : options,
          namespace,
        );
    },
    t: (key: string, options?: Options | string) => translate(key, options, i18nConfig.defaultNS),
    async changeLanguage(lng: string) {
      await loadLanguage(lng);
      instance.language = lng;
      instance.languages = languagesOf(lng);
      for (const listener of listeners) listener();
      return instance.t;
    },
    on(event: string, listener: Listener) {
      if (event.split(" ").includes("languageChanged")) listeners.add(listener);
    },
    off(event: string, listener: Listener) {
      if (event.split(" ").includes("languageChanged")) listeners.delete(listener);
    },
  };

  return {
    i18n: instance as unknown as I18n,
    async init() {
      await loadLanguage(language);
      instance.isInitialized = true;
      initReactI18next.init(instance as unknown as I18n);
    },
  };
}

// All of a language's namespaces in one response (one round trip before the page comes alive, not one
// per namespace); its address carries their version, so a deploy never serves a page with stale ones.
export function fetchTranslations(language: string): Promise<Record<string, Resources>> {
  const version = document.documentElement.dataset.i18nVersion ?? "";
  return fetch(`/locales/${language}?v=${encodeURIComponent(version)}`).then((response) => {
    if (!response.ok) throw new Error(`Translations ${language}: ${response.status}`);
    return response.json() as Promise<Record<string, Resources>>;
  });
}
