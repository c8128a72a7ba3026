import { maxLength, minLength, z } from "~/platform/validation";

/** What Stripe's card form posts once Stripe.js confirmed the card: the SetupIntent, the name on the card and the page's attempt. */
export const stripeCardResultSchema = z.object({
  setupIntent: z.string().check(z.regex(/^seti_\w+$/)),
  name: z.string().check(z.trim(), minLength(1), maxLength(200)),
  attempt: z.string().check(minLength(8), maxLength(64)),
});

/** What it posts after the payer confirmed a payment in Stripe's frame (3-D Secure): the subscription it was for. */
export const stripeConfirmedSchema = z.object({
  subscriptionId: z.string().check(z.trim(), minLength(1), maxLength(64)),
  attempt: z.string().check(minLength(8), maxLength(64)),
});
