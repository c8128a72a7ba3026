import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { DeckTab } from "./deck.server";

/** The deck's Filters button, with the number of filters on. */
export function FiltersButton({ count }: { count: number }) {
  const { t } = useTranslation("discovery");
  return (
    <Link to="/dashboard/filters" className="btn btn-secondary relative px-3">
      <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M4 6h16M7 12h10M10 18h4" strokeLinecap="round" />
      </svg>
      {t("filters.open")}
      {count > 0 ? (
        <span className="absolute -top-2 -right-2 flex size-6 items-center justify-center rounded-full bg-accent-500 text-xs font-bold text-stone-950">
          <span aria-hidden>{count}</span>
          <span className="sr-only">{t("filters.active", { count })}</span>
        </span>
      ) : null}
    </Link>
  );
}

/** Local / Global: which one is on, and a button for each. */
export function BrowseModeForm({
  tab,
  mode,
  city,
}: {
  tab: DeckTab;
  mode: "local" | "global" | null;
  city: string | null;
}) {
  const { t } = useTranslation("discovery");
  // Without a choice yet, the deck is everyone's: Global.
  const shownMode = mode ?? "global";
  return (
    <Form
      method="post"
      action="/dashboard"
      className="flex items-center justify-between gap-3"
      aria-label={t("mode.label")}
    >
      <input type="hidden" name="tab" value={tab} />
      <p className="text-sm text-stone-700">{mode === "local" ? t("mode.localNow", { city }) : t("mode.globalNow")}</p>
      <div className="inline-flex rounded-xl bg-stone-200 p-1" role="group" aria-label={t("mode.label")}>
        {(["local", "global"] as const).map((choice) => (
          <button
            key={choice}
            type="submit"
            name="intent"
            value={`browse-${choice}`}
            aria-pressed={shownMode === choice}
            className={`min-h-9 rounded-lg px-3 text-sm font-semibold ${shownMode === choice ? "bg-white text-stone-900 shadow-sm" : "text-stone-700 hover:text-stone-900"}`}
          >
            {t(`mode.${choice}`)}
          </button>
        ))}
      </div>
    </Form>
  );
}
