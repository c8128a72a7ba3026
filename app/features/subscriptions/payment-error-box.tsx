import type { FormMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";

/** The form's errors are translation keys; its other errors (a stale form) show as they are. */
export function PaymentErrorBox<Schema extends Record<string, unknown>>({
  form,
}: {
  form: FormMetadata<Schema, string[]>;
}) {
  const { t } = useTranslation("subscription");
  void form.allErrors;
  const errors = form.errors ?? [];
  return (
    <div
      id={form.errorId}
      role="alert"
      className={errors.length ? "rounded-xl bg-red-50 p-3 text-red-900 ring-1 ring-red-200" : "sr-only"}
    >
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
