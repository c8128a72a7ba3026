import Stripe from "stripe";
import {
  purposeMetadata,
  type CardDetails,
  type CardPurpose,
  type PaymentFailureCode,
  type PaymentProvider,
  type PaymentResult,
} from "./provider";
import { createStripeBilling } from "./stripe-billing.server";
import { failureCodeOf } from "./stripe-codes";
import { logger } from "~/platform/log.server";

export { failureCodeOf };

/**
 * A card entry the page posts back is taken only if its customer, metadata and status are right.
 * What the payer cannot fix (network, 5xx, rate limits) is `processing_error`, retried with the
 * same idempotency key.
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

/** A slow Stripe must not hang pages; what is still unanswered is a processing_error finished later. */
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

const cardDetailsOf = (
  card:
    | { brand?: string | null; last4?: string | null; exp_month?: number | null; exp_year?: number | null }
    | null
    | undefined,
): CardDetails => ({
  brand: BRANDS[card?.brand ?? ""] ?? "Card",
  last4: card?.last4 ?? "????",
  expMonth: card?.exp_month ?? 0,
  expYear: card?.exp_year ?? 0,
});

export function failureOfError(error: unknown): PaymentFailureCode {
  if (error instanceof Stripe.errors.StripeCardError) return failureCodeOf(error.code, error.decline_code);
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError ||
    error instanceof Stripe.errors.StripeInvalidRequestError
  ) {
    // Our mistake, not the payer's: keep it visible in the logs; the scheduler retries a few times.
    logger.error(
      { event: "stripe.refused", type: error.type, code: error.code ?? null, error: error.message },
      "Stripe refused a request",
    );
  }
  return "processing_error";
}

function intentStatusOf(error: unknown): string | undefined {
  return error instanceof Stripe.errors.StripeError
    ? (error.payment_intent as { status?: string } | undefined)?.status
    : undefined;
}

const fail = (code: PaymentFailureCode) => ({ ok: false as const, code });

async function attempt<T extends object>(
  work: () => Promise<PaymentResult<T>>,
  settled?: (error: unknown) => PaymentResult<T> | null,
): Promise<PaymentResult<T>> {
  try {
    return await work();
  } catch (error) {
    return settled?.(error) ?? fail(failureOfError(error));
  }
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

function metadataMatches(metadata: Stripe.Metadata | null | undefined, purpose: CardPurpose): boolean {
  return Object.entries(purposeMetadata(purpose)).every(([key, value]) => metadata?.[key] === value);
}

/** An id Stripe does not know (made up, or from another account) is not the payer's card entry. */
const unknownObject = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing"
    ? fail("foreign_card")
    : null;

function splitCardRef(cardRef: string): { customer: string; paymentMethod: string } | null {
  const [customer, paymentMethod, ...rest] = cardRef.split(":");
  return customer && paymentMethod && rest.length === 0 ? { customer, paymentMethod } : null;
}

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
    {
      ...params,
      currency: CURRENCY,
      customer: card.customer,
      payment_method: card.paymentMethod,
      allowed_payment_method_types: ["card"],
      confirm: true,
    },
    { idempotencyKey },
  );
  if (done.includes(intent.status)) return { ok: true as const, intentId: intent.id };
  if (intent.status === "requires_action") return fail("authentication_required");
  if (intent.status === "requires_payment_method")
    return fail(failureCodeOf(intent.last_payment_error?.code, intent.last_payment_error?.decline_code));
  return fail("processing_error");
}

export function createStripeProvider(stripe: Stripe): PaymentProvider {
  return {
    name: "stripe",
    billing: createStripeBilling(stripe, failureOfError),

    createCustomer({ userId, email, name, idempotencyKey }) {
      return attempt(async () => {
        const customer = await stripe.customers.create(
          { email, name, metadata: { user_id: userId } },
          { idempotencyKey },
        );
        return { ok: true as const, customerRef: customer.id };
      });
    },

    startCardEntry({ customerRef, purpose, idempotencyKey }) {
      return attempt(async () => {
        const intent = await stripe.setupIntents.create(
          {
            customer: customerRef,
            usage: "off_session",
            allowed_payment_method_types: ["card"],
            metadata: purposeMetadata(purpose),
          },
          { idempotencyKey },
        );
        if (!intent.client_secret) return fail("processing_error");
        return { ok: true as const, clientSecret: intent.client_secret };
      });
    },

    saveCard({ card, customerRef, purpose }) {
      return attempt<{ cardRef: string; label: string; details: CardDetails }>(async () => {
        if (card.kind !== "token" || !customerRef) return fail("foreign_card");
        if (card.token.startsWith("seti_")) {
          const intent = await stripe.setupIntents.retrieve(card.token, { expand: ["payment_method"] });
          const method = intent.payment_method;
          if (idOf(intent.customer) !== customerRef || !metadataMatches(intent.metadata, purpose))
            return fail("foreign_card");
          if (intent.status === "requires_action") return fail("authentication_required");
          if (intent.status !== "succeeded")
            return fail(
              intent.last_setup_error
                ? failureCodeOf(intent.last_setup_error.code, intent.last_setup_error.decline_code)
                : "processing_error",
            );
          if (!method || typeof method === "string" || idOf(method.customer) !== customerRef)
            return fail("foreign_card");
          return {
            ok: true as const,
            cardRef: `${customerRef}:${method.id}`,
            label: cardLabelOf(method.card),
            details: cardDetailsOf(method.card),
          };
        }
        if (!card.token.startsWith("pm_")) return fail("foreign_card");
        // A card already saved under the payer's customer (never attached here: someone else's would be taken over).
        const method = await stripe.paymentMethods.retrieve(card.token);
        if (idOf(method.customer) !== customerRef) return fail("foreign_card");
        return {
          ok: true as const,
          cardRef: `${customerRef}:${method.id}`,
          label: cardLabelOf(method.card),
          details: cardDetailsOf(method.card),
        };
      }, unknownObject);
    },

    charge({ cardRef, amountCents, description, reference, idempotencyKey }) {
      return attempt(async () => {
        const charged = await confirmOnCard(
          stripe,
          cardRef,
          {
            amount: amountCents,
            off_session: true,
            description,
            // A booking's charge: its payout to the sitter is a transfer of the same group, made later.
            ...(reference
              ? { transfer_group: reference, metadata: { purpose: "booking", booking_id: reference } }
              : {}),
          },
          idempotencyKey,
          ["succeeded"],
        );
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
        (error) =>
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          /not attached|no such paymentmethod/i.test(error.message)
            ? { ok: true as const }
            : null,
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
            metadata: { purpose: "booking", booking_id: reference },
          },
          idempotencyKey,
          ["requires_capture", "succeeded"],
        );
        return held.ok ? { ok: true as const, holdRef: held.intentId } : held;
      });
    },

    capture({ holdRef, amountCents, feeCents, idempotencyKey }) {
      return attempt(
        async () => {
          // Capturing less than the hold gives the rest back to the payer at once.
          const intent = await stripe.paymentIntents.capture(
            holdRef,
            { amount_to_capture: amountCents, ...(feeCents !== undefined ? { application_fee_amount: feeCents } : {}) },
            { idempotencyKey },
          );
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

    refund({ holdRef, amountCents, platformCharge = false, idempotencyKey }) {
      return attempt(async () => {
        // A destination charge: the sitter's transfer and the platform fee are given back in proportion.
        // A charge on the platform alone (a stay) has neither; its payout is reversed on its own.
        const refund = await stripe.refunds.create(
          {
            payment_intent: holdRef,
            amount: amountCents,
            ...(platformCharge ? {} : { reverse_transfer: true, refund_application_fee: true }),
          },
          { idempotencyKey },
        );
        return refund.status === "failed" || refund.status === "canceled"
          ? fail("processing_error")
          : { ok: true as const };
      });
    },

    payOut({ chargeRef, payeeRef, amountCents, reference, idempotencyKey }) {
      return attempt(async () => {
        // From the charge itself (source_transaction), so the transfer never waits for the platform's balance.
        const intent = await stripe.paymentIntents.retrieve(chargeRef);
        const charge = typeof intent.latest_charge === "string" ? intent.latest_charge : intent.latest_charge?.id;
        if (intent.status !== "succeeded" || !charge) return fail("processing_error");
        const transfer = await stripe.transfers.create(
          {
            amount: amountCents,
            currency: CURRENCY,
            destination: payeeRef,
            source_transaction: charge,
            transfer_group: reference,
            metadata: { purpose: "booking", booking_id: reference },
          },
          { idempotencyKey },
        );
        return { ok: true as const, payoutRef: transfer.id };
      });
    },

    reversePayout({ payoutRef, amountCents, idempotencyKey }) {
      return attempt(async () => {
        await stripe.transfers.createReversal(payoutRef, { amount: amountCents }, { idempotencyKey });
        return { ok: true as const };
      });
    },
  };
}
