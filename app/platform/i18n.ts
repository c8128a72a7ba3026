export const supportedLanguages = ["en", "es", "pt", "it", "ru", "pl", "fr", "de"] as const;
export type Language = (typeof supportedLanguages)[number];
export const fallbackLanguage: Language = "en";

export const languageNames: Record<Language, string> = {
  en: "English",
  es: "Español",
  pt: "Português",
  it: "Italiano",
  ru: "Русский",
  pl: "Polski",
  fr: "Français",
  de: "Deutsch",
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (supportedLanguages as readonly string[]).includes(value);
}

// All loaded up front (a few KB), so no screen ever flashes untranslated keys.
export const namespaces = [
  "common",
  "auth",
  "profile",
  "discovery",
  "availability",
  "bookings",
  "messages",
  "notifications",
  "subscription",
  "legal",
  "admin",
  "safety",
  "disputes",
  "care",
  "settings",
  "meetGreets",
  "series",
];
// The legal pages' long texts (legal-terms, legal-privacy, legal-cookies, legal-help, legal-imprint) are not
// listed: only their own pages read them, on the server.

export const i18nConfig = {
  supportedLngs: [...supportedLanguages],
  fallbackLng: fallbackLanguage,
  defaultNS: "common",
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};
