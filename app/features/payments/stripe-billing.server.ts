import Stripe from "stripe";
import type {
  PaymentFailureCode,
  PaymentResult,
  ProviderSubscription,
  ProviderSubscriptionStatus,
  SubscriptionBilling,
} from "./provider";
import { failureCodeOf } from "./stripe-codes";

/**
 * We read Stripe's subscription back after every call and webhook. The first period is charged at
 * creation (allow_incomplete): a decline or 3-D Secure leaves it `incomplete`.
 */

const EXPAND = ["latest_invoice.confirmation_secret", "latest_invoice.payments"];

const fail = (code: PaymentFailureCode) => ({ ok: false as const, code });

const iso = (seconds: number | null | undefined) =>
  typeof seconds === "number" ? new Date(seconds * 1000).toISOString() : null;

const STATUSES: Record<string, ProviderSubscriptionStatus> = {
  incomplete: "incomplete",
  incomplete_expired: "incomplete_expired",
  active: "active",
  // A trial is a paid-up period as far as the perks go (we start none ourselves).
  trialing: "active",
  past_due: "past_due",
  unpaid: "unpaid",
  // A paused subscription bills nothing and gives nothing, like an unpaid one.
  paused: "unpaid",
  canceled: "canceled",
};

export function createStripeBilling(
  stripe: Stripe,
  failureOfError: (error: unknown) => PaymentFailureCode,
): SubscriptionBilling {
  async function attempt<T extends object>(work: () => Promise<PaymentResult<T>>): Promise<PaymentResult<T>> {
    try {
      return await work();
    } catch (error) {
      return fail(failureOfError(error));
    }
  }

  async function describe(subscription: Stripe.Subscription): Promise<ProviderSubscription> {
    const item = subscription.items?.data?.[0];
    const status = STATUSES[subscription.status] ?? "unpaid";
    const invoice = typeof subscription.latest_invoice === "object" ? subscription.latest_invoice : null;
    let paymentError: PaymentFailureCode | null = null;
    let actionSecret: string | null = null;
    if (
      invoice &&
      invoice.status === "open" &&
      (status === "incomplete" || status === "past_due" || status === "unpaid")
    ) {
      const payment = invoice.payments?.data?.find((entry) => entry.is_default) ?? invoice.payments?.data?.[0];
      const intentId =
        typeof payment?.payment?.payment_intent === "string"
          ? payment.payment.payment_intent
          : payment?.payment?.payment_intent?.id;
      if (intentId) {
        const intent = await stripe.paymentIntents.retrieve(intentId);
        if (intent.status === "requires_action") {
          paymentError = "authentication_required";
          actionSecret = invoice.confirmation_secret?.client_secret ?? intent.client_secret ?? null;
        } else if (intent.status === "requires_payment_method" && intent.last_payment_error) {
          paymentError = failureCodeOf(intent.last_payment_error.code, intent.last_payment_error.decline_code);
        }
      }
    }
    return {
      ref: subscription.id,
      reference: subscription.metadata?.subscription_id ?? null,
      status,
      currentPeriodStart: iso(item?.current_period_start),
      currentPeriodEnd: iso(item?.current_period_end),
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      endedAt: iso(subscription.ended_at),
      paymentError,
      actionSecret,
    };
  }

  const described = async (subscription: Stripe.Subscription) => ({
    ok: true as const,
    subscription: await describe(subscription),
  });

  return {
    priceFor(plan) {
      return attempt(async () => {
        if (plan.priceRef) return { ok: true as const, priceRef: plan.priceRef };
        // The key names everything the price is made of: a plan whose amount changes gets a new price.
        const facts = `${plan.planId}:${plan.amountCents}:${plan.currency.toLowerCase()}:${plan.intervalMonths}m`;
        const price = await stripe.prices.create(
          {
            currency: plan.currency.toLowerCase(),
            unit_amount: plan.amountCents,
            recurring: { interval: "month", interval_count: plan.intervalMonths },
            product_data: { name: `Trusted Sitters premium: ${plan.name}`, metadata: { plan_id: plan.planId } },
            metadata: { plan_id: plan.planId },
          },
          { idempotencyKey: `price:${facts}` },
        );
        return { ok: true as const, priceRef: price.id };
      });
    },

    subscribe({ customerRef, priceRef, reference, userId, idempotencyKey }) {
      return attempt(async () => {
        const subscription = await stripe.subscriptions.create(
          {
            customer: customerRef,
            items: [{ price: priceRef }],
            payment_behavior: "allow_incomplete",
            off_session: true,
            metadata: { subscription_id: reference, user_id: userId },
            expand: EXPAND,
          },
          { idempotencyKey },
        );
        return described(subscription);
      });
    },

    setCancelAtPeriodEnd({ subscriptionRef, cancel, idempotencyKey }) {
      return attempt(async () =>
        described(
          await stripe.subscriptions.update(
            subscriptionRef,
            { cancel_at_period_end: cancel, expand: EXPAND },
            { idempotencyKey },
          ),
        ),
      );
    },

    cancelNow({ subscriptionRef, idempotencyKey }) {
      return attempt(async () => {
        try {
          return await described(
            await stripe.subscriptions.cancel(subscriptionRef, { expand: EXPAND }, { idempotencyKey }),
          );
        } catch (error) {
          // Cancelled already (at Stripe, or an expired first payment): read it back instead.
          if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code !== "resource_missing") {
            return described(await stripe.subscriptions.retrieve(subscriptionRef, { expand: EXPAND }));
          }
          throw error;
        }
      });
    },

    setDefaultCard({ cardRef, subscriptionRef, idempotencyKey }) {
      return attempt(async () => {
        const [customer, paymentMethod] = cardRef.split(":");
        if (!customer || !paymentMethod) return fail("processing_error");
        await stripe.customers.update(
          customer,
          { invoice_settings: { default_payment_method: paymentMethod } },
          { idempotencyKey: `${idempotencyKey}:customer` },
        );
        if (subscriptionRef)
          await stripe.subscriptions.update(
            subscriptionRef,
            { default_payment_method: paymentMethod },
            { idempotencyKey: `${idempotencyKey}:subscription` },
          );
        return { ok: true as const };
      });
    },

    payNow({ subscriptionRef, idempotencyKey }) {
      return attempt(async () => {
        const subscription = await stripe.subscriptions.retrieve(subscriptionRef);
        const invoiceId =
          typeof subscription.latest_invoice === "string"
            ? subscription.latest_invoice
            : subscription.latest_invoice?.id;
        if (invoiceId) {
          try {
            await stripe.invoices.pay(invoiceId, { off_session: true }, { idempotencyKey });
          } catch (error) {
            if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
          }
        }
        return described(await stripe.subscriptions.retrieve(subscriptionRef, { expand: EXPAND }));
      });
    },

    async fetch(subscriptionRef) {
      try {
        return await describe(await stripe.subscriptions.retrieve(subscriptionRef, { expand: EXPAND }));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing") return null;
        throw error;
      }
    },
  };
}
