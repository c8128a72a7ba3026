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
        send({ intent: "location", latitude: String(position.coords.latitude), longitude: String(position.coords.longitude) });
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
    <button type="submit" name="intent" value="browse-local" className={className} onClick={locate} disabled={locating} aria-busy={locating}>
      {locating ? t("location.locating") : t("location.enable")}
    </button>
  );
}

export function LocationPrompt({ tab }: { tab: DeckTab }) {
  const { t } = useTranslation("discovery");
  return (
    <section aria-labelledby="location-prompt-title" className="card animate-appear-late space-y-3">
      <h2 id="location-prompt-title" className="text-lg font-bold">
        {t("prompt.title")}
      </h2>
      <p className="text-stone-700">{t("prompt.body")}</p>
      <LocationChoices tab={tab} offerLater />
    </section>
  );
}

export function LocationChoices({ tab, offerLater = false }: { tab: DeckTab; offerLater?: boolean }) {
  const { t } = useTranslation("discovery");
  return (
    <Form method="post" action="/dashboard" className="flex flex-col gap-2">
      <input type="hidden" name="tab" value={tab} />
      <EnableLocationButton tab={tab} />
      <button type="submit" name="intent" value="browse-global" className="btn btn-secondary">
        {t("prompt.global")}
      </button>
      {offerLater ? (
        <button type="submit" name="intent" value="later" className="btn text-stone-700 hover:bg-stone-100">
          {t("prompt.later")}
        </button>
      ) : null}
    </Form>
  );
}
