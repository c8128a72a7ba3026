export const LIVE_EVENT_TYPES = ["message", "notification", "match", "booking", "deck"] as const;

/** The part of EventSource this uses. */
export interface LiveSource {
  addEventListener(type: string, listener: () => void): void;
  close(): void;
}

/**
 * Keeps a tab's connection to /events and calls `onNews` when there is something new. EventSource
 * reconnects by itself (with Last-Event-ID, so nothing is missed), except after `displaced`: the
 * server ended this stream because the person opened more tabs than it keeps live. Reconnecting
 * then would push out another tab, which would reconnect and push out the next, for ever; so the
 * tab stays quiet until it is shown or focused again, then reloads once and connects afresh
 * (ending the oldest stream, which belongs to a tab the person is not looking at).
 */
export function keepLive({
  open,
  onNews,
  onShown,
}: {
  open: () => LiveSource;
  onNews: () => void;
  /** Calls the listener when the tab is shown or focused; returns the function that stops. */
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

/** A browser tab being shown (another tab was in front) or its window getting focus. */
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
