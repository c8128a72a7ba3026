/**
 * What the marketplace needs from a card processor. Every call carries an idempotency key: the
 * same key always gets the first answer, so retries after a crash or a timeout never charge twice.
 * Holds are authorisations captured later (Stripe: PaymentIntents with manual capture); cards
 * are saved for holds placed later (Stripe: SetupIntents).
 *
 * Subscriptions bill each period themselves: `charge` takes an amount from a saved card at once
 * (Stripe: an off-session PaymentIntent, confirmed, automatic capture, on the customer that owns
 * the PaymentMethod). Saved cards are listed from our payment_methods table, which keeps the
 * provider's reference and the details saveCard returned; `removeCard` tells the provider to
 * forget one (Stripe: detach the PaymentMethod).
 */

/** How the payment form hands over a card: typed digits (the offline test provider) or a processor token (Stripe Elements). */
export type CardInput =
  | { kind: "digits"; number: string; expMonth: number; expYear: number; cvc: string; name: string }
  | { kind: "token"; token: string; name: string };

export type PaymentFailureCode =
  | "card_declined"
  | "insufficient_funds"
  | "incorrect_number"
  | "expired_card"
  | "incorrect_cvc"
  | "processing_error";

/** What a card list shows: never the number, only the brand, the last four digits and the expiry. */
export interface CardDetails {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type PaymentResult<T extends object = object> = ({ ok: true } & T) | { ok: false; code: PaymentFailureCode };

export interface PaymentProvider {
  readonly name: string;
  /** Checks and keeps a card for later charges; nothing is charged. */
  saveCard(input: { card: CardInput; email: string; idempotencyKey: string }): Promise<PaymentResult<{ cardRef: string; label: string; details: CardDetails }>>;
  /** Reserves an amount on a saved card without charging it. */
  hold(input: { cardRef: string; amountCents: number; description: string; idempotencyKey: string }): Promise<PaymentResult<{ holdRef: string }>>;
  /** Charges a held amount. */
  capture(input: { holdRef: string; amountCents: number; idempotencyKey: string }): Promise<PaymentResult>;
  /** Gives a hold back in full. */
  voidHold(input: { holdRef: string; idempotencyKey: string }): Promise<PaymentResult>;
  /** Pays back a captured amount (in full, or the part given). */
  refund(input: { holdRef: string; amountCents: number; idempotencyKey: string }): Promise<PaymentResult>;
  /** Charges an amount on a saved card now, without the customer present (a subscription period). */
  charge(input: { cardRef: string; amountCents: number; description: string; idempotencyKey: string }): Promise<PaymentResult<{ chargeRef: string }>>;
  /** Forgets a saved card; later charges on it fail. */
  removeCard(input: { cardRef: string; idempotencyKey: string }): Promise<PaymentResult>;
}

/** A payment failure's message, as a translation key of the bookings namespace. */
export const failureMessage = (code: PaymentFailureCode) => `bookings:payment.errors.${code}`;
