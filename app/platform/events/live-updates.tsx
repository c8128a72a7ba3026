import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { DECK_NEWS, keepLive, onTabShown, type LiveEventName } from "./live-connection";

// During a navigation the reload waits: it would cancel the redirect's load, whose answer carries the toast.
export function LiveUpdates() {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const isBusy = useRef(busy);
  isBusy.current = busy;
  const waiting = useRef(false);

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = (type?: LiveEventName) => {
      if (type === "deck") return void window.dispatchEvent(new Event(DECK_NEWS));
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (isBusy.current) waiting.current = true;
        else revalidate.current();
      }, 80);
    };
    const stop = keepLive({ open: () => new EventSource("/events"), onNews: refresh, onShown: onTabShown });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, []);

  useEffect(() => {
    if (busy || !waiting.current) return;
    waiting.current = false;
    revalidate.current();
  }, [busy]);
  return null;
}
