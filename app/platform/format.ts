/**
 * Intl formatters, one per language and set of options. Building a page's first formatter loads the
 * locale's data: tens of milliseconds here, several times that on a slow phone, all of it blocking the
 * page while it becomes interactive. So numbers and dates that a page only shows are written by the
 * server into its loader data (the `…Text` functions beside the components that show them, such as
 * `deckCardText` and `bookingCardText`); the browser formats only what it computes itself, such as a
 * booking's total while its form changes.
 */
/** Who text is written for: their language and IANA time zone. */
export interface Reader {
  language: string;
  timeZone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(kind: string, language: string, options: object, make: () => T): T {
  const key = `${kind} ${language} ${JSON.stringify(options)}`;
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
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

/** Writes an instant's day out in full ("November 23, 2026") in a time zone; nothing for no instant. */
export function longDay(language: string, timeZone: string): (iso: string | null | undefined) => string {
  const format = dateTimeFormat(language, { dateStyle: "long", timeZone });
  return (iso) => (iso ? format.format(new Date(iso)) : "");
}
