/**
 * Every call carries an idempotency key: the same key always gets the first answer, so retries
 * after a crash or a timeout never charge twice. Holds are authorisations captured later
 * (Stripe: PaymentIntents with manual capture).
 */

/** Digits: the offline test provider; token: Stripe Elements. */
export type CardInput =
  | { kind: "digits"; number: string; expMonth: number; expYear: number; cvc: string; name: string }
  | { kind: "token"; token: string; name: string };

export type PaymentFailureCode =
  | "card_declined"
  | "insufficient_funds"
  | "incorrect_number"
  | "expired_card"
  | "incorrect_cvc"
  | "authentication_required"
  | "processing_error"
  /** A card entry made for another payer, booking or purpose: nothing is saved. */
  | "foreign_card";

export interface CardDetails {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export type PaymentResult<T extends object = object> = ({ ok: true } & T) | { ok: false; code: PaymentFailureCode };

export interface PaymentProvider {
  readonly name: string;
  /** A token is accepted only when made on `customerRef` for this `purpose`, else `foreign_card`. */
  saveCard(input: {
    card: CardInput;
    email: string;
    customerRef?: string | null;
    purpose: CardPurpose;
    idempotencyKey: string;
  }): Promise<PaymentResult<{ cardRef: string; label: string; details: CardDetails }>>;
  /** `offSession`: the payer is not at the screen (a hold placed days after the card was saved). */
  hold(input: HoldInput): Promise<PaymentResult<{ holdRef: string }>>;
  /** `amountCents` below the hold releases the rest; `feeCents` then replaces the platform fee set on the hold. */
  capture(input: {
    holdRef: string;
    amountCents: number;
    feeCents?: number;
    idempotencyKey: string;
  }): Promise<PaymentResult>;
  voidHold(input: { holdRef: string; idempotencyKey: string }): Promise<PaymentResult>;
  /**
   * Gives back part or all of a captured hold or a charge. A hold is a destination charge: the sitter's
   * share and the platform fee go back in proportion. A `platformCharge` (a stay's charge, paid out later)
   * only gives back the platform's money: a payout already made is reversed with `reversePayout`.
   */
  refund(input: {
    holdRef: string;
    amountCents: number;
    platformCharge?: boolean;
    idempotencyKey: string;
  }): Promise<PaymentResult>;
  /** Takes the amount now from a saved card, the payer not at the screen; `reference` ties it to a booking. */
  charge(input: {
    cardRef: string;
    amountCents: number;
    description: string;
    reference?: string;
    idempotencyKey: string;
  }): Promise<PaymentResult<{ chargeRef: string }>>;
  /** Sends part of a charge on to the sitter's payout account (Stripe: a transfer from that charge). */
  payOut(input: {
    chargeRef: string;
    payeeRef: string;
    amountCents: number;
    reference: string;
    idempotencyKey: string;
  }): Promise<PaymentResult<{ payoutRef: string }>>;
  /** Takes back part or all of a payout, for a refund after it (Stripe: a transfer reversal). */
  reversePayout(input: { payoutRef: string; amountCents: number; idempotencyKey: string }): Promise<PaymentResult>;
  removeCard(input: { cardRef: string; idempotencyKey: string }): Promise<PaymentResult>;
  createCustomer?(input: {
    userId: string;
    email: string;
    name: string;
    idempotencyKey: string;
  }): Promise<PaymentResult<{ customerRef: string }>>;
  /** Stripe Elements: the secret lets the page confirm the card without the digits reaching us. */
  startCardEntry?(input: CardEntryInput): Promise<PaymentResult<{ clientSecret: string }>>;
  readonly billing?: SubscriptionBilling;
}

export interface HoldInput {
  cardRef: string;
  amountCents: number;
  feeCents: number;
  payeeRef: string | null;
  offSession: boolean;
  description: string;
  /** The booking id, kept at the processor so its events find their way back. */
  reference: string;
  idempotencyKey: string;
}

export type CardPurpose =
  | { kind: "booking"; userId: string; bookingId: string }
  | { kind: "subscription"; userId: string; planId: string }
  | { kind: "card"; userId: string };

/** Stripe metadata: every field must match when the entry comes back. */
export function purposeMetadata(purpose: CardPurpose): Record<string, string> {
  switch (purpose.kind) {
    case "booking":
      return { purpose: "booking", booking_id: purpose.bookingId, user_id: purpose.userId };
    case "subscription":
      return { purpose: "subscription", user_id: purpose.userId, plan: purpose.planId };
    case "card":
      return { purpose: "card", user_id: purpose.userId };
  }
}

export interface CardEntryInput {
  customerRef: string;
  purpose: CardPurpose;
  idempotencyKey: string;
}

export const failureMessage = (code: PaymentFailureCode) => `bookings:payment.errors.${code}`;

/** Stripe Billing: our scheduler charges nothing; the processor's subscription is the truth. */
export interface SubscriptionBilling {
  priceFor(plan: PlanPrice): Promise<PaymentResult<{ priceRef: string }>>;
  subscribe(input: {
    customerRef: string;
    priceRef: string;
    reference: string;
    userId: string;
    idempotencyKey: string;
  }): Promise<PaymentResult<{ subscription: ProviderSubscription }>>;
  setCancelAtPeriodEnd(input: {
    subscriptionRef: string;
    cancel: boolean;
    idempotencyKey: string;
  }): Promise<PaymentResult<{ subscription: ProviderSubscription }>>;
  cancelNow(input: {
    subscriptionRef: string;
    idempotencyKey: string;
  }): Promise<PaymentResult<{ subscription: ProviderSubscription }>>;
  setDefaultCard(input: {
    cardRef: string;
    subscriptionRef: string | null;
    idempotencyKey: string;
  }): Promise<PaymentResult>;
  payNow(input: {
    subscriptionRef: string;
    idempotencyKey: string;
  }): Promise<PaymentResult<{ subscription: ProviderSubscription }>>;
  /** Null when the processor does not know it; network failures throw. */
  fetch(subscriptionRef: string): Promise<ProviderSubscription | null>;
}

export interface PlanPrice {
  planId: string;
  name: string;
  amountCents: number;
  currency: string;
  intervalMonths: number;
  priceRef: string | null;
}

export type ProviderSubscriptionStatus =
  "incomplete" | "incomplete_expired" | "active" | "past_due" | "unpaid" | "canceled";

/** Times are ISO strings. */
export interface ProviderSubscription {
  ref: string;
  reference: string | null;
  status: ProviderSubscriptionStatus;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  endedAt: string | null;
  paymentError: PaymentFailureCode | null;
  /** 3-D Secure: the secret the page confirms the latest payment with. */
  actionSecret: string | null;
}
