import { maxLength, minLength, z } from "~/platform/validation";

import { MESSAGE_MAX } from "./limits";

// The limit lives apart from the schema, so that a page showing it does not load zod.
export { MESSAGE_MAX };

export const sendSchema = z.object({
  conversationId: z.string().check(minLength(1), maxLength(64)),
  body: z._default(z.optional(z.string().check(maxLength(MESSAGE_MAX, "validation.tooLong"))), ""),
});
