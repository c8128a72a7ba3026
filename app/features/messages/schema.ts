import { maxLength, minLength, z } from "~/platform/validation";

export const MESSAGE_MAX = 2000;

export const sendSchema = z.object({
  conversationId: z.string().check(minLength(1), maxLength(64)),
  body: z._default(z.optional(z.string().check(maxLength(MESSAGE_MAX, "validation.tooLong"))), ""),
});
