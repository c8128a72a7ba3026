import { isEmail, maxLength, minLength, uuid, z } from "~/platform/validation";

const cardFields = {
  attempt: uuid("subscription:errors.stale"),
  number: z.pipe(
    z.pipe(
      z.string("subscription:errors.numberInvalid").check(maxLength(40, "subscription:errors.numberInvalid")),
      z.transform((value: string) => value.replace(/[\s-]/g, "")),
    ),
    z.string().check(z.regex(/^\d{12,19}$/, "subscription:errors.numberInvalid")),
  ),
  expiry: z
    .string("subscription:errors.expiryInvalid")
    .check(
      z.trim(),
      maxLength(10, "subscription:errors.expiryInvalid"),
      z.regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, "subscription:errors.expiryInvalid"),
    ),
  cvc: z
    .string("subscription:errors.cvcInvalid")
    .check(z.trim(), z.regex(/^\d{3,4}$/, "subscription:errors.cvcInvalid")),
};

const fullName = z
  .string("subscription:errors.nameRequired")
  .check(z.trim(), minLength(1, "subscription:errors.nameRequired"), maxLength(100, "validation.tooLong"));

export const checkoutSchema = z.object({
  ...cardFields,
  name: fullName,
  email: z
    .string("subscription:errors.emailInvalid")
    .check(z.trim(), maxLength(254, "validation.tooLong"), isEmail("subscription:errors.emailInvalid")),
});

export const addCardSchema = z.object({ ...cardFields, name: fullName });

const id = z.string().check(z.trim(), minLength(1), maxLength(64));

export const manageSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("cancel"), subscriptionId: id }),
  z.object({ intent: z.literal("reactivate"), subscriptionId: id }),
  z.object({ intent: z.literal("keep-plan"), subscriptionId: id }),
  z.object({ intent: z.literal("retry"), subscriptionId: id }),
  z.object({ intent: z.literal("set-default"), methodId: id }),
  z.object({ intent: z.literal("remove-card"), methodId: id }),
]);

export function expiryParts(expiry: string): { expMonth: number; expYear: number } {
  const [month = "0", year = "0"] = expiry.split("/").map((part) => part.trim());
  return { expMonth: Number(month), expYear: year.length === 2 ? 2000 + Number(year) : Number(year) };
}
