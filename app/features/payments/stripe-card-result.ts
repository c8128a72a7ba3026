import { maxLength, minLength, z } from "~/platform/validation";

export const stripeCardResultSchema = z.object({
  setupIntent: z.string().check(z.regex(/^seti_\w+$/)),
  name: z.string().check(z.trim(), minLength(1), maxLength(200)),
  attempt: z.string().check(minLength(8), maxLength(64)),
});

export const stripeConfirmedSchema = z.object({
  subscriptionId: z.string().check(z.trim(), minLength(1), maxLength(64)),
  attempt: z.string().check(minLength(8), maxLength(64)),
});
