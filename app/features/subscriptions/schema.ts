import { z } from "zod";

const cardFields = {
  attempt: z.string({ required_error: "subscription:errors.stale" }).uuid("subscription:errors.stale"),
  number: z
    .string({ required_error: "subscription:errors.numberInvalid" })
    .max(40, "subscription:errors.numberInvalid")
    .transform((value) => value.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, "subscription:errors.numberInvalid")),
  expiry: z
    .string({ required_error: "subscription:errors.expiryInvalid" })
    .trim()
    .max(10, "subscription:errors.expiryInvalid")
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, "subscription:errors.expiryInvalid"),
  cvc: z.string({ required_error: "subscription:errors.cvcInvalid" }).trim().regex(/^\d{3,4}$/, "subscription:errors.cvcInvalid"),
};

const fullName = z.string({ required_error: "subscription:errors.nameRequired" }).trim().min(1, "subscription:errors.nameRequired").max(100, "validation.tooLong");

/** The subscription payment form: full name and email (both required), and the offline provider's card fields. */
export const checkoutSchema = z.object({
  ...cardFields,
  name: fullName,
  email: z.string({ required_error: "subscription:errors.emailInvalid" }).trim().max(254, "validation.tooLong").email("subscription:errors.emailInvalid"),
});

/** Adding a card to the saved payment methods. */
export const addCardSchema = z.object({ ...cardFields, name: fullName });

const id = z.string().trim().min(1).max(64);

/** The buttons of 'My Subscription': each posts an intent and the id it acts on. */
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

export const TABS = ["plans", "mine"] as const;
export type SubscriptionTab = (typeof TABS)[number];
