import { maxLength, minLength, z } from "~/platform/validation";
import { REPLY_MAX } from "./rules";

export const replySchema = z.object({
  reviewId: z
    .string("disputes:reviews.errors.notFound")
    .check(minLength(1, "disputes:reviews.errors.notFound"), maxLength(64, "disputes:reviews.errors.notFound")),
  reply: z
    .string("disputes:reviews.errors.replyRequired")
    .check(z.trim(), minLength(1, "disputes:reviews.errors.replyRequired"), maxLength(REPLY_MAX, "validation.tooLong")),
});
