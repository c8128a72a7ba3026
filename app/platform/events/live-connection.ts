export const LIVE_EVENT_TYPES = ["message", "notification", "match", "booking", "deck"] as const;

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
  onNews: () => void;
  onShown: (listener: () => void) => () => void;
}): () => void {
  let source: LiveSource | null = null;
  const connect = () => {
    const current = open();
    source = current;
    for (const type of LIVE_EVENT_TYPES) current.addEventListener(type, onNews);
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
