// A page's first Intl formatter loads locale data (tens of ms, more on a slow phone) while the page becomes
// interactive: so the server writes what a page only shows, and the browser formats only what it computes.
export interface Reader {
  language: string;
  timeZone: string;
}

// Keys come from code (kinds and options) and from people (languages, time zones): bounded all the same.
const MOST_FORMATTERS_KEPT = 1000;
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>(
  kind: string,
  language: string,
  options: object,
  make: () => T,
): T {
  const key = `${kind} ${language} ${JSON.stringify(options)}`;
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    if (formatters.size >= MOST_FORMATTERS_KEPT) formatters.delete(formatters.keys().next().value!);
    formatters.set(key, formatter);
  }
  return formatter;
}

export function dateTimeFormat(language: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached("date", language, options, () => new Intl.DateTimeFormat(language, options));
}

export function numberFormat(language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cached("number", language, options, () => new Intl.NumberFormat(language, options));
}

/** Names joined as the language does it: "Rex and Luna", "Rex, Luna y Bella". */
export function listOf(language: string, names: readonly string[]): string {
  return cached("list", language, {}, () => new Intl.ListFormat(language, { type: "conjunction" })).format(names);
}

export function longDay(language: string, timeZone: string): (iso: string | null | undefined) => string {
  const format = dateTimeFormat(language, { dateStyle: "long", timeZone });
  return (iso) => (iso ? format.format(new Date(iso)) : "");
}
