import Stripe from "stripe";
import type { CardDetails, PaymentFailureCode, PaymentProvider, PaymentResult } from "./provider";
import { createStripeBilling } from "./stripe-billing.server";
import { failureCodeOf } from "./stripe-codes";

export { failureCodeOf };

/**
 * The real card processor: Stripe, with the card typed into Stripe Elements in the browser.
 *
 * - A card is saved with a SetupIntent the page confirms (usage off_session, so later holds need
 *   no customer present) or, for a bare PaymentMethod token, by attaching it to a new customer.
 *   `cardRef` is "<customer>:<payment method>".
 * - A hold is a PaymentIntent with manual capture, confirmed on the server with the saved card;
 *   the platform fee is the application fee and the rest goes to the sitter's connected account.
 * - capture, voidHold (cancel) and refund act on that PaymentIntent.
 *
 * Every call carries the caller's idempotency key (Stripe answers a repeated key with its first
 * answer). Failures the payer can fix come back as their PaymentFailureCode; everything else
 * (network, timeouts, 5xx, rate limits) is `processing_error`, which the scheduler retries with
 * the same key.
 */

export const CURRENCY = "eur";

export interface StripeConnection {
  secretKey: string;
  /** Only for tests: a local stand-in for api.stripe.com. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
  maxNetworkRetries?: number;
  timeoutMs?: number;
}

/**
 * Pages wait for Stripe, so a slow Stripe must not hang them: each request gives up after
 * STRIPE_TIMEOUT_MS and is retried (with the same idempotency key) at most STRIPE_MAX_RETRIES times.
 * What is still unanswered is a processing_error the user or the scheduler finishes later.
 */
export const STRIPE_TIMEOUT_MS = 8_000;
export const STRIPE_MAX_RETRIES = 1;

export function createStripeClient(connection: StripeConnection): Stripe {
  return new Stripe(connection.secretKey, {
    host: connection.host,
    port: connection.port,
    protocol: connection.protocol,
    maxNetworkRetries: connection.maxNetworkRetries ?? STRIPE_MAX_RETRIES,
    timeout: connection.timeoutMs ?? STRIPE_TIMEOUT_MS,
    appInfo: { name: "Trusted Sitters" },
  });
}

const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  cartes_bancaires: "Cartes Bancaires",
};

export const cardLabelOf = (card: { brand?: string | null; last4?: string | null } | null | undefined) =>
  `${BRANDS[card?.brand ?? ""] ?? "Card"} •••• ${card?.last4 ?? "????"}`;

/** What the saved-card list shows of a Stripe card. */
const cardDetailsOf = (card: { brand?: string | null; last4?: string | null; exp_month?: number | null; exp_year?: number | null } | null | undefined): CardDetails => ({
  brand: BRANDS[card?.brand ?? ""] ?? "Card",
  last4: card?.last4 ?? "????",
  expMonth: card?.exp_month ?? 0,
  expYear: card?.exp_year ?? 0,
});

/** What a thrown SDK error means for the booking: the payer's card said no, or ask again later. */
export function failureOfError(error: unknown): PaymentFailureCode {
  if (error instanceof Stripe.errors.StripeCardError) return failureCodeOf(error.code, error.decline_code);
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError || error instanceof Stripe.errors.StripeInvalidRequestError) {
    // Our mistake, not the payer's: keep it visible in the logs; the scheduler retries a few times.
    console.error(`Stripe refused a request (${error.type} ${error.code ?? ""}): ${error.message}`);
  }
  return "processing_error";
}

/** The state of a PaymentIntent a refused request was about, when Stripe sent it along (e.g. capturing one already captured). */
function intentStatusOf(error: unknown): string | undefined {
  return error instanceof Stripe.errors.StripeError ? (error.payment_intent as { status?: string } | undefined)?.status : undefined;
}

const fail = (code: PaymentFailureCode) => ({ ok: false as const, code });

async function attempt<T extends object>(work: () => Promise<PaymentResult<T>>, settled?: (error: unknown) => PaymentResult<T> | null): Promise<PaymentResult<T>> {
  try {
    return await work();
  } catch (error) {
    return settled?.(error) ?? fail(failureOfError(error));
  }
}

function splitCardRef(cardRef: string): { customer: string; paymentMethod: string } | null {
  const [customer, paymentMethod, ...rest] = cardRef.split(":");
  return customer && paymentMethod && rest.length === 0 ? { customer, paymentMethod } : null;
}

/**
 * A PaymentIntent on a saved card, confirmed at once: the intent's id when it reached `done`
 * (a hold waits for capture; a charge has succeeded), else what the payer must be told.
 */
async function confirmOnCard(
  stripe: Stripe,
  cardRef: string,
  params: Omit<Stripe.PaymentIntentCreateParams, "currency" | "customer" | "payment_method" | "confirm">,
  idempotencyKey: string,
  done: Stripe.PaymentIntent.Status[],
): Promise<PaymentResult<{ intentId: string }>> {
  const card = splitCardRef(cardRef);
  if (!card) return fail("processing_error");
  const intent = await stripe.paymentIntents.create(
    { ...params, currency: CURRENCY, customer: card.customer, payment_method: card.paymentMethod, allowed_payment_method_types: ["card"], confirm: true },
    { idempotencyKey },
  );
  if (done.includes(intent.status)) return { ok: true as const, intentId: intent.id };
  if (intent.status === "requires_action") return fail("authentication_required");
  if (intent.status === "requires_payment_method") return fail(failureCodeOf(intent.last_payment_error?.code, intent.last_payment_error?.decline_code));
  return fail("processing_error");
}

export function createStripeProvider(stripe: Stripe): PaymentProvider {
  return {
    name: "stripe",
    billing: createStripeBilling(stripe, failureOfError),

    startCardEntry({ customerRef, email, name, reference, referenceKind = "booking", idempotencyKey }) {
      return attempt(async () => {
        const customer = customerRef ?? (await stripe.customers.create({ email, name }, { idempotencyKey: `${idempotencyKey}:customer` })).id;
        const intent = await stripe.setupIntents.create(
          { customer, usage: "off_session", allowed_payment_method_types: ["card"], metadata: { [referenceKind === "booking" ? "booking_id" : "user_id"]: reference } },
          { idempotencyKey: `${idempotencyKey}:setup` },
        );
        if (!intent.client_secret) return fail("processing_error");
        return { ok: true as const, customerRef: customer, clientSecret: intent.client_secret };
      });
    },

    saveCard({ card, email, customerRef, idempotencyKey }) {
      return attempt(async () => {
        if (card.kind !== "token") return fail("processing_error");
        if (card.token.startsWith("seti_")) {
          // The page confirmed a SetupIntent: the card is already attached to its customer.
          const intent = await stripe.setupIntents.retrieve(card.token, { expand: ["payment_method"] });
          const customer = typeof intent.customer === "string" ? intent.customer : intent.customer?.id;
          const method = intent.payment_method;
          if (!customer || (customerRef && customer !== customerRef) || !method || typeof method === "string") return fail("processing_error");
          if (intent.status === "requires_action") return fail("authentication_required");
          if (intent.status !== "succeeded") return fail(intent.last_setup_error ? failureCodeOf(intent.last_setup_error.code, intent.last_setup_error.decline_code) : "processing_error");
          return { ok: true as const, cardRef: `${customer}:${method.id}`, label: cardLabelOf(method.card), details: cardDetailsOf(method.card) };
        }
        if (!card.token.startsWith("pm_")) return fail("processing_error");
        const customer = customerRef ?? (await stripe.customers.create({ email, name: card.name }, { idempotencyKey: `${idempotencyKey}:customer` })).id;
        const method = await stripe.paymentMethods.attach(card.token, { customer }, { idempotencyKey: `${idempotencyKey}:attach` });
        return { ok: true as const, cardRef: `${customer}:${method.id}`, label: cardLabelOf(method.card), details: cardDetailsOf(method.card) };
      });
    },

    charge({ cardRef, amountCents, description, idempotencyKey }) {
      return attempt(async () => {
        // A subscription period, charged at once on the saved card while the customer is away.
        const charged = await confirmOnCard(stripe, cardRef, { amount: amountCents, off_session: true, description }, idempotencyKey, ["succeeded"]);
        return charged.ok ? { ok: true as const, chargeRef: charged.intentId } : charged;
      });
    },

    removeCard({ cardRef, idempotencyKey }) {
      return attempt(
        async () => {
          const card = splitCardRef(cardRef);
          if (!card) return fail("processing_error");
          await stripe.paymentMethods.detach(card.paymentMethod, {}, { idempotencyKey });
          return { ok: true as const };
        },
        // Detached already: the card is gone either way.
        (error) => (error instanceof Stripe.errors.StripeInvalidRequestError && /not attached|no such paymentmethod/i.test(error.message) ? { ok: true as const } : null),
      );
    },

    hold({ cardRef, amountCents, feeCents, payeeRef, offSession, description, reference, idempotencyKey }) {
      return attempt(async () => {
        const held = await confirmOnCard(
          stripe,
          cardRef,
          {
            amount: amountCents,
            capture_method: "manual",
            ...(offSession ? { off_session: true } : {}),
            ...(payeeRef ? { application_fee_amount: feeCents, transfer_data: { destination: payeeRef } } : {}),
            description,
            metadata: { booking_id: reference },
          },
          idempotencyKey,
          ["requires_capture", "succeeded"],
        );
        return held.ok ? { ok: true as const, holdRef: held.intentId } : held;
      });
    },

    capture({ holdRef, amountCents, idempotencyKey }) {
      return attempt(
        async () => {
          const intent = await stripe.paymentIntents.capture(holdRef, { amount_to_capture: amountCents }, { idempotencyKey });
          return intent.status === "succeeded" ? { ok: true as const } : fail("processing_error");
        },
        // Captured already (say, our answer was lost on the way back): done.
        (error) => (intentStatusOf(error) === "succeeded" ? { ok: true as const } : null),
      );
    },

    voidHold({ holdRef, idempotencyKey }) {
      return attempt(
        async () => {
          const intent = await stripe.paymentIntents.cancel(holdRef, {}, { idempotencyKey });
          return intent.status === "canceled" ? { ok: true as const } : fail("processing_error");
        },
        (error) => (intentStatusOf(error) === "canceled" ? { ok: true as const } : null),
      );
    },

    refund({ holdRef, amountCents, idempotencyKey }) {
      return attempt(async () => {
        // A destination charge: the sitter's transfer and the platform fee are given back in proportion.
        const refund = await stripe.refunds.create({ payment_intent: holdRef, amount: amountCents, reverse_transfer: true, refund_application_fee: true }, { idempotencyKey });
        return refund.status === "failed" || refund.status === "canceled" ? fail("processing_error") : { ok: true as const };
      });
    },
  };
}
