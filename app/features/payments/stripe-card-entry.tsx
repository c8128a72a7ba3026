// Through React's namespace: naming lazy and Suspense would add exports to the React chunk every page loads.
import React, { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "remix-utils/use-hydrated";
import type { StripeCardFormProps } from "./stripe-card-form";

export const STRIPE_CSP = {
  "script-src": ["https://js.stripe.com", "https://*.js.stripe.com"],
  "frame-src": ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  "connect-src": ["https://api.stripe.com"],
  "img-src": ["https://*.stripe.com"],
};

const StripeCardForm = React.lazy(() => import("./stripe-card-form"));

export function StripeCardEntry({
  publishableKey,
  pathPrefix,
  note,
  ...props
}: Omit<StripeCardFormProps, "publishableKey"> & { publishableKey: string | null; pathPrefix: string; note?: string }) {
  const { t } = useTranslation("bookings");
  const hydrated = useHydrated();
  useEffect(() => {
    // The card field needs this page's Content-Security-Policy, which comes with the document: a
    // document first loaded elsewhere in the app (and navigated here in the browser) is reloaded.
    const first = performance.getEntriesByType("navigation")[0];
    if (first && !new URL(first.name).pathname.startsWith(pathPrefix)) window.location.reload();
  }, [pathPrefix]);
  const loading = (
    <p role="status" className="text-stone-700">
      {t("payment.loadingCard")}
    </p>
  );
  return (
    <div className="space-y-4">
      <noscript>
        <p className="rounded-xl bg-amber-50 p-3 text-amber-900">{t("payment.needsJavaScript")}</p>
      </noscript>
      {!hydrated ? null : publishableKey ? (
        <React.Suspense fallback={loading}>
          <StripeCardForm {...props} publishableKey={publishableKey} />
        </React.Suspense>
      ) : (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-red-800">
          {t("payment.cardUnavailable")}
        </p>
      )}
      {note ? <p className="text-center text-sm text-stone-700">{note}</p> : null}
    </div>
  );
}
