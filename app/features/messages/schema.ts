import { z } from "zod";

export const MESSAGE_MAX = 2000;

export const sendSchema = z.object({
  conversationId: z.string().min(1).max(64),
  body: z.string().max(MESSAGE_MAX, "validation.tooLong").optional().default(""),
});
