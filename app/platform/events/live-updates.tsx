import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

const LIVE_EVENT_TYPES = ["message", "notification", "match", "booking", "deck"] as const;

/**
 * The tab's one connection to /events. Any event makes the page reload its data (loaders stay
 * the source of truth), a burst of events only once. EventSource reconnects by itself and sends
 * Last-Event-ID, so nothing is missed.
 *
 * While a navigation or a form is under way the reload waits for it to finish: started meanwhile,
 * it would cancel the redirect's own load, whose answer carries the toast the action left
 * (read once from its cookie), and the person would never see it.
 */
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
    const source = new EventSource("/events");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (isBusy.current) waiting.current = true;
        else revalidate.current();
      }, 80);
    };
    for (const type of LIVE_EVENT_TYPES) source.addEventListener(type, refresh);
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, []);

  // An event that came during a navigation reloads once it is over.
  useEffect(() => {
    if (busy || !waiting.current) return;
    waiting.current = false;
    revalidate.current();
  }, [busy]);
  return null;
}
