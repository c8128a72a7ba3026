import { isEmail, maxLength, minLength, z } from "~/platform/validation";

/** The seed also spells the sitter role "walker"; it is stored as "sitter". */
export const signupRoleSchema = z.pipe(
  z.transform((value: unknown) => (value === "walker" ? "sitter" : value)),
  z.enum(["owner", "sitter"], "validation.roleRequired"),
);

export function parseSignupRole(value: string | null): "owner" | "sitter" | null {
  const parsed = z.safeParse(signupRoleSchema, value);
  return parsed.success ? parsed.data : null;
}

const requiredText = (max: number, ...checks: z.core.$ZodCheck<string>[]) =>
  z
    .string("validation.required")
    .check(z.trim(), minLength(1, "validation.required"), maxLength(max, "validation.tooLong"), ...checks);

const email = (requiredMessage: string) =>
  z.pipe(
    z
      .string(requiredMessage)
      .check(
        z.trim(),
        minLength(1, requiredMessage),
        maxLength(254, "validation.emailInvalid"),
        isEmail("validation.emailInvalid"),
      ),
    z.transform((value: string) => value.toLowerCase()),
  );

export const emailSchema = email("validation.emailRequired");

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

export const newPasswordSchema = z
  .string("validation.passwordRequired")
  .check(minLength(PASSWORD_MIN, "validation.passwordTooShort"), maxLength(PASSWORD_MAX, "validation.passwordTooLong"));

export const signupSchema = z
  .object({
    role: signupRoleSchema,
    name: requiredText(80),
    city: requiredText(80),
    postalCode: requiredText(12, z.regex(/^[\p{L}\p{N}][\p{L}\p{N} -]*$/u, "validation.postalCodeInvalid")),
    phone: requiredText(24, z.regex(/^\+?[\d\s().-]{6,}$/, "validation.phoneInvalid")),
    email: emailSchema,
    password: newPasswordSchema,
    /** The browser's zone (a hidden field set by script); one it does not know falls back to the city's. */
    timeZone: z.optional(z.string().check(maxLength(64))),
  })
  .check(
    z.refine((value) => value.password.toLowerCase() !== value.email, {
      path: ["password"],
      message: "validation.passwordIsEmail",
      // Compared only with an email that passed its checks (the lower-cased address).
      when: ({ issues }) => issues.every((issue) => issue.continue === true && issue.path?.[0] !== "email"),
    }),
  );

export const loginSchema = z.object({
  email: emailSchema,
  password: z
    .string("validation.passwordRequired")
    .check(minLength(1, "validation.passwordRequired"), maxLength(PASSWORD_MAX, "validation.passwordTooLong")),
  redirectTo: z.optional(z.string().check(maxLength(2000))),
});

export const resendConfirmationSchema = z.object({ email: emailSchema });

export const forgotPasswordSchema = z.object({ email: email("validation.enterEmailFirst") });

const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>(
  (value) => value.password === value.confirmPassword,
  {
    path: ["confirmPassword"],
    message: "validation.passwordsDontMatch",
  },
);

export const resetPasswordSchema = z
  .object({
    token: z.optional(z.string().check(maxLength(200))),
    password: newPasswordSchema,
    confirmPassword: z.string("validation.passwordRequired"),
  })
  .check(passwordsMatch);

export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string("validation.passwordRequired")
      .check(minLength(1, "validation.passwordRequired"), maxLength(PASSWORD_MAX, "validation.passwordTooLong")),
    password: newPasswordSchema,
    confirmPassword: z.string("validation.passwordRequired"),
  })
  .check(passwordsMatch);
