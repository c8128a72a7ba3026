import { createInstance, type Resource, type TFunction } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { i18nConfig, namespaces, supportedLanguages, type Language } from "./i18n";
import { resources } from "./i18n.server";

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Every string of one language as "namespace:dotted.key" → text. */
function flatten(language: Language): Map<string, string> {
  const strings = new Map<string, string>();
  const walk = (value: unknown, prefix: string) => {
    if (typeof value === "string") strings.set(prefix, value);
    else if (value && typeof value === "object")
      for (const [key, child] of Object.entries(value))
        walk(child, prefix.endsWith(":") ? `${prefix}${key}` : `${prefix}.${key}`);
  };
  for (const [namespace, tree] of Object.entries((resources as Resource)[language] ?? {})) walk(tree, `${namespace}:`);
  return strings;
}

const strings = Object.fromEntries(supportedLanguages.map((language) => [language, flatten(language)])) as Record<
  Language,
  Map<string, string>
>;
/** The keys called with a count: every base key that has a plural form in some language. */
const pluralKeys = [
  ...new Set(
    supportedLanguages.flatMap((language) =>
      [...strings[language].keys()]
        .filter((key) => PLURAL_SUFFIX.test(key))
        .map((key) => key.replace(PLURAL_SUFFIX, "")),
    ),
  ),
].sort();

describe("plural strings", () => {
  it("exist (the counts of things on the site are plurals)", () => {
    expect(pluralKeys).toEqual(
      expect.arrayContaining([
        "discovery:deck.rating",
        "profile:rating.summary",
        "common:nav.unread",
        "messages:unread",
        "messages:days.ago",
        "subscription:likes.lockedBody",
        "bookings:request.hoursLong",
      ]),
    );
  });

  it.each(supportedLanguages)(
    "in %s have every form the language's plural rules ask for, each showing the count, and no bare key left",
    (language) => {
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      const problems: string[] = [];
      for (const key of pluralKeys) {
        if (strings[language].has(key)) problems.push(`${key}: a bare key beside its plural forms`);
        for (const category of categories) {
          const text = strings[language].get(`${key}_${category}`);
          if (text === undefined) problems.push(`${key}_${category}: missing`);
          else if (!text.includes("{{count}}")) problems.push(`${key}_${category}: no {{count}}`);
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it("have the same forms in every language, so every language has the same keys", () => {
    const formsOf = (language: Language) =>
      [...strings[language].keys()].filter((key) => PLURAL_SUFFIX.test(key)).sort();
    for (const language of supportedLanguages) expect(formsOf(language), language).toEqual(formsOf("en"));
  });

  it("are the only strings with a {{count}}: a count in a plain string would read '1 reviews'", () => {
    const plainWithCount = [...strings.en]
      .filter(([key, text]) => text.includes("{{count}}") && !PLURAL_SUFFIX.test(key))
      .map(([key]) => key);
    expect(plainWithCount).toEqual([]);
  });
});

describe("plural strings through i18next, as the pages use them", () => {
  const t = {} as Record<Language, TFunction>;
  beforeAll(async () => {
    for (const language of supportedLanguages) {
      const instance = createInstance();
      await instance.init({ ...i18nConfig, lng: language, ns: namespaces, resources });
      t[language] = instance.t;
    }
  });
  const reviews = (language: Language, count: number) =>
    t[language]("discovery:deck.rating", { average: "4.5", count });

  it("English: 1 review, 2 reviews", () => {
    expect([1, 2].map((count) => reviews("en", count))).toEqual(["★ 4.5 (1 review)", "★ 4.5 (2 reviews)"]);
    expect(t.en("profile:rating.summary", { average: "5.0", count: 1 })).toBe("★ 5.0 (1 review)");
    expect(t.en("bookings:request.hoursLong", { count: 1 })).toBe("1 hour");
    expect(t.en("common:nav.unread", { count: 3 })).toBe("3 unread");
  });

  it("German: 1 Bewertung, 2 Bewertungen", () => {
    expect([1, 2].map((count) => reviews("de", count))).toEqual(["★ 4.5 (1 Bewertung)", "★ 4.5 (2 Bewertungen)"]);
    expect(t.de("subscription:likes.lockedBody", { count: 1 })).toMatch(/^1 Person wartet/);
  });

  it("Russian: 1 отзыв, 3 отзыва, 5 отзывов, 21 отзыв", () => {
    expect([1, 3, 5, 21].map((count) => reviews("ru", count))).toEqual([
      "★ 4.5 (1 отзыв)",
      "★ 4.5 (3 отзыва)",
      "★ 4.5 (5 отзывов)",
      "★ 4.5 (21 отзыв)",
    ]);
    expect([1, 2, 5].map((count) => t.ru("messages:days.ago", { count }))).toEqual([
      "1 день назад",
      "2 дня назад",
      "5 дней назад",
    ]);
  });

  it("Polish: 1 opinia, 2 opinie, 5 opinii, 22 opinie", () => {
    expect([1, 2, 5, 22].map((count) => reviews("pl", count))).toEqual([
      "★ 4.5 (1 opinia)",
      "★ 4.5 (2 opinie)",
      "★ 4.5 (5 opinii)",
      "★ 4.5 (22 opinie)",
    ]);
    expect([1, 2, 5].map((count) => t.pl("bookings:request.hoursLong", { count }))).toEqual([
      "1 godzina",
      "2 godziny",
      "5 godzin",
    ]);
  });

  it("the languages with a 'many' form use it for a million", () => {
    for (const language of ["es", "fr", "it", "pt"] as const) {
      expect(new Intl.PluralRules(language).select(1_000_000)).toBe("many");
      expect(reviews(language, 1_000_000)).toBe(reviews(language, 2).replace("2", "1000000"));
    }
  });
});
