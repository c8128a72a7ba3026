import type { SerializeFrom } from "@remix-run/node";
import type { TFunction } from "i18next";

export const SITE_NAME = "Trusted Sitters";

/**
 * What a page module declares as `handle.title`: a translation key with its namespace
 * ("bookings:list.title"), or, for a name that depends on the page's data, a function of its
 * loader data made with titleFrom. The root writes it into <title> as "<page> · Trusted Sitters".
 */
export type PageTitle = string | ((data: unknown, t: TFunction) => string | null);

/** A title made from the loader's data (a person's or a pet's name); a page whose loader failed has no data and so no such title. */
export function titleFrom<Loader>(title: (data: SerializeFrom<Loader>, t: TFunction) => string): PageTitle {
  return (data, t) => (data === undefined || data === null ? null : title(data as SerializeFrom<Loader>, t));
}

export function withSiteName(page: string): string {
  return `${page} · ${SITE_NAME}`;
}

/** The document's title: that of the deepest matched route that names itself, else the site's name. */
export function documentTitle(matches: ReadonlyArray<{ handle?: unknown; data?: unknown }>, t: TFunction): string {
  for (const match of [...matches].reverse()) {
    const title = (match.handle as { title?: PageTitle } | undefined)?.title;
    if (title === undefined) continue;
    const page = typeof title === "string" ? t(title) : title(match.data, t);
    if (page) return withSiteName(page);
  }
  return SITE_NAME;
}
