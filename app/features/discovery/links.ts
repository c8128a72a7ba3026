import type { DeckTab } from "./deck.server";

/** The deck's page address, keeping the tab the person is on. */
export function deckHref(tab: DeckTab | null, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...(tab ? { tab } : {}), ...extra }).toString();
  return query ? `/dashboard?${query}` : "/dashboard";
}
