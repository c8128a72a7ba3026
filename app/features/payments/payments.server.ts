import type Stripe from "stripe";
import { env } from "~/platform/env.server";
import type { PaymentProvider } from "./provider";
import { createStripeClient, createStripeProvider } from "./stripe-provider.server";
import { testProvider } from "./test-provider.server";

let stripeClient: Stripe | null = null;
let stripeProvider: PaymentProvider | null = null;

export function stripe(): Stripe {
  if (!stripeClient) {
    if (!env.STRIPE_SECRET_KEY) throw new Error("Stripe is not configured: set STRIPE_SECRET_KEY");
    stripeClient = createStripeClient({
      secretKey: env.STRIPE_SECRET_KEY,
      host: env.STRIPE_API_HOST,
      port: env.STRIPE_API_PORT,
      protocol: env.STRIPE_API_PROTOCOL,
    });
  }
  return stripeClient;
}

export function useStripeClient(client: Stripe | null) {
  stripeClient = client;
  stripeProvider = null;
}

export function paymentProvider(name: string = env.PAYMENT_PROVIDER): PaymentProvider {
  if (name === "test") return testProvider;
  if (name === "stripe") return (stripeProvider ??= createStripeProvider(stripe()));
  throw new Error(`Payment provider "${name}" is not available`);
}

export const paysOutThroughStripe = (provider: PaymentProvider = paymentProvider()) => provider.name === "stripe";
