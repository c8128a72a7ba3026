import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe } from "@stripe/stripe-js";
import { useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { failureMessage } from "./provider";
import { failureCodeOf } from "./stripe-codes";

/**
 * The digits go from Stripe's field straight to Stripe; 3-D Secure opens in Stripe's frame, no
 * redirect. Loaded lazily, so Stripe.js is downloaded on the payment pages only.
 */

export interface StripeCardFormProps {
  publishableKey: string;
  entryUrl: string;
  attempt: string;
  payLabel: string;
  serverErrors: string[] | null;
  paymentToConfirm?: { clientSecret: string; subscriptionId: string } | null;
}

export default function StripeCardForm(props: StripeCardFormProps) {
  const [stripe] = useState(() => loadStripe(props.publishableKey));
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    stripe.then((loaded) => setUnavailable(loaded === null)).catch(() => setUnavailable(true));
  }, [stripe]);
  const { t } = useTranslation("bookings");
  if (unavailable) {
    return (
      <p role="alert" className="rounded-xl bg-red-50 p-3 text-red-800">
        {t("payment.cardUnavailable")}
      </p>
    );
  }
  return (
    <Elements stripe={stripe}>
      <CardForm {...props} />
    </Elements>
  );
}

function CardForm({ entryUrl, attempt, payLabel, serverErrors, paymentToConfirm }: StripeCardFormProps) {
  const { t } = useTranslation("bookings");
  const stripe = useStripe();
  const elements = useElements();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<string[]>([]);
  const [working, setWorking] = useState(false);
  const id = useId();
  const busy = working || navigation.state !== "idle";
  const shown = errors.length > 0 ? errors : (serverErrors ?? []);

  // Each payment is confirmed once, even when the page revalidates (a new attempt key) while Stripe's frame is open.
  const confirmed = useRef<string | null>(null);
  useEffect(() => {
    if (!stripe || !paymentToConfirm || confirmed.current === paymentToConfirm.clientSecret) return;
    confirmed.current = paymentToConfirm.clientSecret;
    let current = true;
    setWorking(true);
    setErrors([]);
    stripe
      .confirmCardPayment(paymentToConfirm.clientSecret)
      .then((result) => {
        if (!current) return;
        if (result.error) {
          const code =
            result.error.type === "card_error"
              ? failureCodeOf(result.error.code, result.error.decline_code)
              : "authentication_required";
          setErrors(["bookings:payment.failed", failureMessage(code)]);
          return;
        }
        submit(
          { intent: "stripe-confirmed", subscriptionId: paymentToConfirm.subscriptionId, attempt },
          { method: "post" },
        );
      })
      .catch(() => current && setErrors(["bookings:payment.failed", failureMessage("processing_error")]))
      .finally(() => current && setWorking(false));
    return () => {
      current = false;
    };
  }, [stripe, paymentToConfirm, attempt, submit]);

  async function pay(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    if (!name.trim()) return setErrors(["bookings:payment.errors.nameRequired"]);
    const card = elements.getElement(CardElement);
    if (!card) return;
    setWorking(true);
    setErrors([]);
    try {
      const response = await fetch(entryUrl, { method: "POST", body: new URLSearchParams({ attempt }) });
      const entry = (await response.json().catch(() => ({}))) as { clientSecret?: string; error?: string };
      if (!entry.clientSecret)
        return setErrors(["bookings:payment.failed", entry.error ?? failureMessage("processing_error")]);
      const result = await stripe.confirmCardSetup(entry.clientSecret, {
        payment_method: { card, billing_details: { name: name.trim() } },
      });
      if (result.error) {
        const code =
          result.error.type === "card_error" || result.error.type === "validation_error"
            ? failureCodeOf(result.error.code, result.error.decline_code)
            : "processing_error";
        return setErrors(["bookings:payment.failed", failureMessage(code)]);
      }
      submit({ intent: "stripe", setupIntent: result.setupIntent.id, name: name.trim(), attempt }, { method: "post" });
    } catch {
      setErrors(["bookings:payment.failed", failureMessage("processing_error")]);
    } finally {
      setWorking(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void pay(event)}
      noValidate
      className="space-y-4"
      aria-describedby={shown.length ? `${id}-errors` : undefined}
    >
      {shown.length > 0 ? (
        <div id={`${id}-errors`} role="alert" className="rounded-xl bg-red-50 p-3 text-red-800">
          {shown.map((key) => (
            <p key={key}>{t(key)}</p>
          ))}
        </div>
      ) : null}
      <div className="space-y-1.5">
        <label htmlFor={`${id}-name`} className="block text-sm font-semibold text-stone-800">
          {t("payment.name")}
        </label>
        <input
          id={`${id}-name`}
          name="name"
          autoComplete="cc-name"
          className="input w-full"
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
        />
      </div>
      <div className="space-y-1.5">
        {/* Stripe's field lives in its own frame: the label names the group, the frame carries its own accessible labels. */}
        <p id={`${id}-card`} className="block text-sm font-semibold text-stone-800">
          {t("payment.card")}
        </p>
        <div role="group" aria-labelledby={`${id}-card`} className="input w-full py-3">
          <CardElement options={{ hidePostalCode: true, style: { base: { fontSize: "16px" } } }} />
        </div>
        <p className="text-sm text-stone-600">{t("payment.cardSecure")}</p>
      </div>
      <button type="submit" className="btn btn-primary w-full" disabled={!stripe || busy} aria-busy={busy}>
        {busy ? (
          <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />
        ) : null}
        {payLabel}
      </button>
    </form>
  );
}
