import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/platform/ui/submit-button";
import type { CardView } from "./cards.server";

/** A saved card as the card list shows it. */
export type SavedCardOption = CardView;

/** A plain form (JavaScript or not, any provider): the server charges the chosen card through its own reference. */
export function SavedCardForm({
  cards,
  submitLabel,
  error,
}: {
  cards: SavedCardOption[];
  submitLabel: string;
  error: string | null;
}) {
  const { t } = useTranslation("bookings");
  const chosen = cards.find((card) => card.isDefault) ?? cards[0];
  return (
    <section aria-labelledby="saved-cards-title" className="card space-y-3">
      <h2 id="saved-cards-title" className="font-semibold">
        {t("payment.savedTitle")}
      </h2>
      <Form method="post" className="space-y-3">
        <fieldset aria-describedby={error ? "saved-card-error" : undefined} className="space-y-2">
          <legend className="sr-only">{t("payment.savedLegend")}</legend>
          {cards.map((card) => (
            <label
              key={card.id}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-stone-300 bg-white px-3 py-2 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-brand-700"
            >
              <input
                type="radio"
                name="cardId"
                value={card.id}
                defaultChecked={card.id === chosen?.id}
                required
                className="size-4 accent-brand-700"
              />
              <span className="flex-1">
                {t("payment.savedCardLabel", {
                  brand: card.brand,
                  last4: card.last4,
                  expiry: `${String(card.expMonth).padStart(2, "0")}/${String(card.expYear).slice(-2)}`,
                })}
              </span>
              {card.isDefault ? (
                <span className="rounded-full bg-stone-100 px-2 text-xs font-semibold text-stone-800">
                  {t("payment.savedDefault")}
                </span>
              ) : null}
            </label>
          ))}
        </fieldset>
        {error ? (
          <p id="saved-card-error" role="alert" className="text-sm font-semibold text-red-800">
            {t(error)}
          </p>
        ) : null}
        <SubmitButton name="intent" value="saved-card" className="w-full">
          {submitLabel}
        </SubmitButton>
      </Form>
    </section>
  );
}
