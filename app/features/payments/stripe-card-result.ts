import { z } from "zod";

/** What Stripe's card form posts once Stripe.js confirmed the card: the SetupIntent, the name on the card and the page's attempt. */
export const stripeCardResultSchema = z.object({
  setupIntent: z.string().regex(/^seti_\w+$/),
  name: z.string().trim().min(1).max(200),
  attempt: z.string().min(8).max(64),
});

/** What it posts after the payer confirmed a payment in Stripe's frame (3-D Secure): the subscription it was for. */
export const stripeConfirmedSchema = z.object({
  subscriptionId: z.string().trim().min(1).max(64),
  attempt: z.string().min(8).max(64),
});
