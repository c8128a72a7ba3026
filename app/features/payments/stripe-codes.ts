import type { PaymentFailureCode } from "./provider";

/** Stripe's decline and error codes as ours. Shared by the server and the card form in the browser, so it imports nothing. */

const CARD_CODES: readonly PaymentFailureCode[] = [
  "card_declined",
  "insufficient_funds",
  "incorrect_number",
  "expired_card",
  "incorrect_cvc",
  "authentication_required",
];

export function failureCodeOf(code: string | null | undefined, declineCode?: string | null): PaymentFailureCode {
  for (const candidate of [declineCode, code]) {
    // Stripe.js checks the field before sending it: an unfinished number, date or code.
    if (candidate === "invalid_number" || candidate === "incorrect_number" || candidate === "incomplete_number")
      return "incorrect_number";
    if (candidate === "invalid_cvc" || candidate === "incomplete_cvc") return "incorrect_cvc";
    if (candidate?.startsWith("invalid_expiry") || candidate === "incomplete_expiry") return "expired_card";
    if (candidate === "setup_intent_authentication_failure" || candidate === "payment_intent_authentication_failure")
      return "authentication_required";
    if (candidate && (CARD_CODES as readonly string[]).includes(candidate)) return candidate as PaymentFailureCode;
  }
  return "card_declined";
}
