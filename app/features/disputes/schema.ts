import { maxLength, minLength, noContactData, z } from "~/platform/validation";
import { OPERATOR_NOTE_MAX, POST_MAX, PROBLEM_REASONS, SETTLEMENTS, centsOf } from "./rules";

const words = (required: string, max: number) =>
  z.string(required).check(z.trim(), minLength(1, required), maxLength(max, "validation.tooLong"));
// An operator's note is also the audit log's reason, kept for good.
const operatorNote = z
  .string("disputes:errors.noteRequired")
  .check(
    z.trim(),
    minLength(1, "disputes:errors.noteRequired"),
    maxLength(OPERATOR_NOTE_MAX, "validation.tooLong"),
    noContactData("admin:errors.reasonContact"),
  );
const amount = z
  .string("disputes:errors.amountInvalid")
  .check(z.refine((value) => centsOf(value) !== null, "disputes:errors.amountInvalid"));

export const reportSchema = z.object({
  reason: z.enum(PROBLEM_REASONS, "disputes:errors.reasonRequired"),
  details: words("disputes:errors.detailsRequired", POST_MAX),
});

export const postSchema = z.object({
  body: words("disputes:errors.bodyRequired", POST_MAX),
});

export const resolveSchema = z
  .object({
    outcome: z.enum(SETTLEMENTS, "disputes:errors.outcomeRequired"),
    amount: z.optional(z.string()),
    note: operatorNote,
  })
  .check(
    z.refine((value) => value.outcome !== "partial" || centsOf(value.amount) !== null, {
      error: "disputes:errors.amountInvalid",
      path: ["amount"],
    }),
  );

export const refundSchema = z.object({
  amount,
  note: operatorNote,
});
