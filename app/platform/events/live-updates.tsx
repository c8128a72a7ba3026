import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { keepLive, onTabShown } from "./live-connection";

/**
 * The tab's one connection to /events (see live-connection.ts). Any event makes the page reload
 * its data (loaders stay the source of truth), a burst of events only once.
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
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
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

  // An event that came during a navigation reloads once it is over.
  useEffect(() => {
    if (busy || !waiting.current) return;
    waiting.current = false;
    revalidate.current();
  }, [busy]);
  return null;
}
