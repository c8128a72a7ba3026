import { Form, useSubmit } from "@remix-run/react";
import { useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import type { DeckTab } from "./deck.server";

const POSITION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 10_000, maximumAge: 0 };
const ERROR_CODES = { 1: "denied", 2: "unavailable", 3: "timeout" } as const;

// Without JavaScript the button posts and the profile's city is used; with it the browser is asked first.
export function useLocate(tab: DeckTab) {
  const submit = useSubmit();
  const [locating, setLocating] = useState(false);
  const send = (values: Record<string, string>) => submit({ ...values, tab }, { method: "post", action: "/dashboard" });
  function locate(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    if (!("geolocation" in navigator)) return send({ intent: "location-error", code: "unsupported" });
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        send({
          intent: "location",
          latitude: String(position.coords.latitude),
          longitude: String(position.coords.longitude),
        });
      },
      (error) => {
        setLocating(false);
        send({ intent: "location-error", code: ERROR_CODES[error.code as 1 | 2 | 3] ?? "unavailable" });
      },
      POSITION_OPTIONS,
    );
  }
  return { locate, locating };
}

export function EnableLocationButton({ tab, className = "btn btn-primary" }: { tab: DeckTab; className?: string }) {
  const { t } = useTranslation("discovery");
  const { locate, locating } = useLocate(tab);
  return (
    <button
      type="submit"
      name="intent"
      value="browse-local"
      className={className}
      onClick={locate}
      disabled={locating}
      aria-busy={locating}
    >
      {locating ? t("location.locating") : t("location.enable")}
    </button>
  );
}

// Compact, so the deck under it still fits a phone's screen.
export function LocationPrompt({ tab }: { tab: DeckTab }) {
  const { t } = useTranslation("discovery");
  return (
    <section aria-labelledby="location-prompt-title" className="card animate-appear-late space-y-2 p-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="location-prompt-title" className="font-bold">
          {t("prompt.title")}
        </h2>
        <Form method="post" action="/dashboard">
          <input type="hidden" name="tab" value={tab} />
          <button
            type="submit"
            name="intent"
            value="later"
            className="btn px-3 text-sm text-stone-700 hover:bg-stone-100"
          >
            {t("prompt.later")}
          </button>
        </Form>
      </div>
      <p className="text-sm text-stone-700">{t("prompt.body")}</p>
      <LocationChoices tab={tab} compact />
    </section>
  );
}

export function LocationChoices({ tab, compact = false }: { tab: DeckTab; compact?: boolean }) {
  const { t } = useTranslation("discovery");
  const size = compact ? " flex-1 px-3 text-sm" : "";
  return (
    <Form method="post" action="/dashboard" className={compact ? "flex flex-wrap gap-2" : "flex flex-col gap-2"}>
      <input type="hidden" name="tab" value={tab} />
      <EnableLocationButton tab={tab} className={`btn btn-primary${size}`} />
      <button type="submit" name="intent" value="browse-global" className={`btn btn-secondary${size}`}>
        {t("prompt.global")}
      </button>
    </Form>
  );
}
