import { isEmail, maxLength, minLength, z } from "~/platform/validation";

const PASSWORD_MAX = 128;

const currentPassword = z
  .string("validation.passwordRequired")
  .check(minLength(1, "validation.passwordRequired"), maxLength(PASSWORD_MAX, "validation.passwordTooLong"));

export const changeEmailSchema = z.object({
  newEmail: z.pipe(
    z
      .string("validation.emailRequired")
      .check(
        z.trim(),
        minLength(1, "validation.emailRequired"),
        maxLength(254, "validation.emailInvalid"),
        isEmail("validation.emailInvalid"),
      ),
    z.transform((value: string) => value.toLowerCase()),
  ),
  password: currentPassword,
});

export const deleteAccountSchema = z.object({
  password: currentPassword,
});

const emailChoice = z._default(
  z.optional(z.enum(["email", "in-app"], "settings:notifications.invalidChoice")),
  "in-app",
);

export const notificationPreferencesSchema = z.object({
  messages: emailChoice,
  bookings: emailChoice,
  reviews: emailChoice,
  marketing: z._default(z.optional(z.enum(["email", "none"], "settings:notifications.invalidChoice")), "none"),
});

export const timeZoneSchema = z.object({
  timeZone: z.optional(z.string().check(maxLength(64))),
});

export const emailChangeTokenSchema = z.object({
  token: z
    .string("settings:changeEmail.linkInvalid")
    .check(minLength(1, "settings:changeEmail.linkInvalid"), maxLength(200, "settings:changeEmail.linkInvalid")),
});
