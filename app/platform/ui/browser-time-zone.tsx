import { useEffect, useState } from "react";

/**
 * A hidden field holding the browser's IANA time zone once JavaScript runs; empty without it, so
 * the server falls back to the zone of the person's city.
 */
export function BrowserTimeZoneInput({ name = "timeZone" }: { name?: string }) {
  const [zone, setZone] = useState("");
  useEffect(() => {
    try {
      setZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? "");
    } catch {
      setZone("");
    }
  }, []);
  return <input type="hidden" name={name} value={zone} />;
}
