import { env } from "~/platform/env.server";
import type { PaymentProvider } from "./provider";
import { testProvider } from "./test-provider.server";

/** The provider in use: the offline test one unless the operator configured another. */
export function paymentProvider(name: string = env.PAYMENT_PROVIDER): PaymentProvider {
  if (name === "test") return testProvider;
  throw new Error(`Payment provider "${name}" is not available`);
}
