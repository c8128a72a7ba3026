import type { DeckTab } from "./deck.server";

export function deckHref(tab: DeckTab | null, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...(tab ? { tab } : {}), ...extra }).toString();
  return query ? `/dashboard?${query}` : "/dashboard";
}
