import type { SerializeFrom } from "@remix-run/node";
import type { TFunction } from "i18next";

export const SITE_NAME = "Trusted Sitters";

export type PageTitle = string | ((data: unknown, t: TFunction) => string | null);

export function titleFrom<Loader>(title: (data: SerializeFrom<Loader>, t: TFunction) => string): PageTitle {
  return (data, t) => (data === undefined || data === null ? null : title(data as SerializeFrom<Loader>, t));
}

export function withSiteName(page: string): string {
  return `${page} · ${SITE_NAME}`;
}

export function documentTitle(matches: ReadonlyArray<{ handle?: unknown; data?: unknown }>, t: TFunction): string {
  for (const match of [...matches].reverse()) {
    const title = (match.handle as { title?: PageTitle } | undefined)?.title;
    if (title === undefined) continue;
    const page = typeof title === "string" ? t(title) : title(match.data, t);
    if (page) return withSiteName(page);
  }
  return SITE_NAME;
}
