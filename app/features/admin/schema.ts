import { maxLength, minLength, noContactData, z } from "~/platform/validation";

export const REASON_MAX = 1000;

/**
 * Every operator action states why: the reason goes to the audit log, kept for good (and to the
 * person, for a suspension or warning), so it may hold no email address or phone number.
 */
const reason = z
  .string("admin:errors.reasonRequired")
  .check(
    z.trim(),
    minLength(1, "admin:errors.reasonRequired"),
    maxLength(REASON_MAX, "validation.tooLong"),
    noContactData("admin:errors.reasonContact"),
  );

export const suspendSchema = z.object({ intent: z.enum(["suspend", "lift"], "admin:errors.reasonRequired"), reason });

export const reportActionSchema = z.object({
  intent: z.enum(["dismiss", "hide", "warn", "suspend"], "admin:errors.action"),
  reportId: z
    .string("admin:errors.notFound")
    .check(minLength(1, "admin:errors.notFound"), maxLength(64, "admin:errors.notFound")),
  reason,
});
