export const LIVE_EVENT_TYPES = ["message", "notification", "match", "booking", "deck"] as const;
export type LiveEventName = (typeof LIVE_EVENT_TYPES)[number];

// New profiles are offered on the deck rather than dealt under the person's finger: a window event, no reload.
export const DECK_NEWS = "trusted-sitters:deck-news";

export interface LiveSource {
  addEventListener(type: string, listener: () => void): void;
  close(): void;
}

// EventSource reconnects by itself, except after `displaced`: reconnecting would push out another tab,
// which would push out the next, for ever. So the tab waits until it is shown again, then reloads once.
export function keepLive({
  open,
  onNews,
  onShown,
}: {
  open: () => LiveSource;
  onNews: (type?: LiveEventName) => void;
  onShown: (listener: () => void) => () => void;
}): () => void {
  let source: LiveSource | null = null;
  const connect = () => {
    const current = open();
    source = current;
    for (const type of LIVE_EVENT_TYPES) current.addEventListener(type, () => onNews(type));
    current.addEventListener("displaced", () => {
      current.close();
      if (source === current) source = null;
    });
  };
  const stopWatching = onShown(() => {
    if (source) return;
    onNews();
    connect();
  });
  connect();
  return () => {
    stopWatching();
    source?.close();
    source = null;
  };
}

export function onTabShown(listener: () => void): () => void {
  const visible = () => {
    if (document.visibilityState === "visible") listener();
  };
  document.addEventListener("visibilitychange", visible);
  window.addEventListener("focus", listener);
  return () => {
    document.removeEventListener("visibilitychange", visible);
    window.removeEventListener("focus", listener);
  };
}
