import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

const LIVE_EVENT_TYPES = ["message", "notification", "match", "booking", "deck"] as const;

/**
 * The tab's one connection to /events. Any event makes the page reload its data (loaders stay
 * the source of truth), a burst of events only once. EventSource reconnects by itself and sends
 * Last-Event-ID, so nothing is missed.
 */
export function LiveUpdates() {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/events");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => revalidate.current(), 80);
    };
    for (const type of LIVE_EVENT_TYPES) source.addEventListener(type, refresh);
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, []);
  return null;
}
