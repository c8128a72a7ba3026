import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { TextField } from "~/platform/ui/field";

/** The offline provider's card fields (Stripe's own card field takes their place when Stripe is configured). */
export function CardFields({ number, expiry, cvc }: { number: FieldMetadata<string>; expiry: FieldMetadata<string>; cvc: FieldMetadata<string> }) {
  const { t } = useTranslation("subscription");
  return (
    <>
      <TextField meta={number} label={t("checkout.number")} autoComplete="cc-number" inputMode="numeric" placeholder="4242 4242 4242 4242" />
      <div className="grid grid-cols-2 gap-3">
        <TextField meta={expiry} label={t("checkout.expiry")} autoComplete="cc-exp" inputMode="numeric" placeholder={t("checkout.expiryPlaceholder")} />
        <TextField meta={cvc} label={t("checkout.cvc")} autoComplete="cc-csc" inputMode="numeric" />
      </div>
    </>
  );
}

/**
 * 'Payment error' with the provider's message, or the default text, announced when it appears.
 * The form's errors are translation keys; its other errors (a stale form) show as they are.
 */
export function PaymentErrorBox<Schema extends Record<string, unknown>>({ form }: { form: FormMetadata<Schema, string[]> }) {
  const { t } = useTranslation("subscription");
  void form.allErrors;
  const errors = form.errors ?? [];
  return (
    <div id={form.errorId} role="alert" className={errors.length ? "rounded-xl bg-red-50 p-3 text-red-900 ring-1 ring-red-200" : "sr-only"}>
      {errors.length ? (
        <>
          <p className="font-bold">{t("paymentError.title")}</p>
          {errors.map((error) => (
            <p key={error} className="text-sm">
              {t(error, { defaultValue: t("paymentError.default") })}
            </p>
          ))}
        </>
      ) : null}
    </div>
  );
}
