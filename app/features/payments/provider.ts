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
  | "authentication_required"
  | "processing_error"
  /** The card entry posted back was not made for this payer and this purpose (another person's, another booking's): nothing is saved. */
  | "foreign_card";

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
  /**
   * Checks and keeps a card for later charges; nothing is charged. `customerRef` is the payer's
   * record at the processor as our database has it: a token (a card entry) is accepted only when
   * it was made on that record for this `purpose`; anything else is `foreign_card`.
   */
  saveCard(input: {
    card: CardInput;
    email: string;
    customerRef?: string | null;
    purpose: CardPurpose;
    idempotencyKey: string;
  }): Promise<PaymentResult<{ cardRef: string; label: string; details: CardDetails }>>;
  /**
   * Reserves an amount on a saved card without charging it. The sitter's part goes to their
   * payout account (`payeeRef`) when the processor pays sitters out; the platform keeps `feeCents`.
   * `offSession` says the payer is not at the screen (a hold placed days after the card was saved).
   */
  hold(input: HoldInput): Promise<PaymentResult<{ holdRef: string }>>;
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
  /** Processors that keep a record per payer (Stripe: a Customer) make it here, once per person, before any card entry. */
  createCustomer?(input: { userId: string; email: string; name: string; idempotencyKey: string }): Promise<PaymentResult<{ customerRef: string }>>;
  /**
   * Processors whose card field runs in the browser (Stripe Elements) start the card entry on the
   * server: the answer's secret lets the page confirm the card without the digits reaching us.
   */
  startCardEntry?(input: CardEntryInput): Promise<PaymentResult<{ clientSecret: string }>>;
  /** Present when the processor bills subscription periods itself (see SubscriptionBilling). */
  readonly billing?: SubscriptionBilling;
}

export interface HoldInput {
  cardRef: string;
  amountCents: number;
  feeCents: number;
  payeeRef: string | null;
  offSession: boolean;
  description: string;
  /** What the hold is for (the booking id), kept with it at the processor so its events find their way back. */
  reference: string;
  idempotencyKey: string;
}

/**
 * What a card is being entered for. The processor keeps it with the card entry, and saveCard
 * refuses an entry made for another person, booking, plan or purpose.
 */
export type CardPurpose =
  | { kind: "booking"; userId: string; bookingId: string }
  | { kind: "subscription"; userId: string; planId: string }
  | { kind: "card"; userId: string };

/** The purpose as the processor keeps it (Stripe metadata): every field must match when the entry comes back. */
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
  /** The payer's own record at the processor, made (createCustomer) and kept in our database first. */
  customerRef: string;
  purpose: CardPurpose;
  idempotencyKey: string;
}

/** A payment failure's message, as a translation key of the bookings namespace. */
export const failureMessage = (code: PaymentFailureCode) => `bookings:payment.errors.${code}`;

/**
 * Processors that bill the periods of a subscription themselves (Stripe Billing). With them our
 * scheduler charges nothing: the processor's subscription is the truth and its webhooks (or a
 * fresh read of it) move ours through the subscription rules.
 */
export interface SubscriptionBilling {
  /** The processor's price for a plan's amount, currency and interval, made the first time. */
  priceFor(plan: PlanPrice): Promise<PaymentResult<{ priceRef: string }>>;
  /** Starts a subscription billed to the customer's default card; the first period is charged at once. */
  subscribe(input: { customerRef: string; priceRef: string; reference: string; userId: string; idempotencyKey: string }): Promise<PaymentResult<{ subscription: ProviderSubscription }>>;
  /** Ends the subscription when its period ends (or withdraws that). */
  setCancelAtPeriodEnd(input: { subscriptionRef: string; cancel: boolean; idempotencyKey: string }): Promise<PaymentResult<{ subscription: ProviderSubscription }>>;
  /** Ends it now (nothing paid is left to run out). */
  cancelNow(input: { subscriptionRef: string; idempotencyKey: string }): Promise<PaymentResult<{ subscription: ProviderSubscription }>>;
  /** Makes a saved card the one the customer's invoices (and this subscription's, when given) are charged to. */
  setDefaultCard(input: { cardRef: string; subscriptionRef: string | null; idempotencyKey: string }): Promise<PaymentResult>;
  /** Pays the subscription's open invoice now, on the default card. */
  payNow(input: { subscriptionRef: string; idempotencyKey: string }): Promise<PaymentResult<{ subscription: ProviderSubscription }>>;
  /** The subscription as the processor has it now; null when it does not know it. Network failures throw. */
  fetch(subscriptionRef: string): Promise<ProviderSubscription | null>;
}

export interface PlanPrice {
  planId: string;
  name: string;
  amountCents: number;
  currency: string;
  intervalMonths: number;
  /** The price already made for this plan, if any. */
  priceRef: string | null;
}

export type ProviderSubscriptionStatus = "incomplete" | "incomplete_expired" | "active" | "past_due" | "unpaid" | "canceled";

/** A processor's subscription, as our rules need it. Times are ISO strings. */
export interface ProviderSubscription {
  ref: string;
  /** Our subscription's id, given at creation. */
  reference: string | null;
  status: ProviderSubscriptionStatus;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  endedAt: string | null;
  /** Why the latest payment failed, while it is unpaid. */
  paymentError: PaymentFailureCode | null;
  /** The payer must confirm the latest payment (3-D Secure): the secret the page confirms it with. */
  actionSecret: string | null;
}
