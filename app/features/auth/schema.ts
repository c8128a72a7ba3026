import { z } from "zod";

/**
 * Form schemas shared by the browser (conform) and the server (actions).
 * Messages are translation keys in the `common` namespace (validation.*), translated where they show.
 */

/** The seed also spells the sitter role "walker"; it is stored as "sitter". */
export const signupRoleSchema = z.preprocess(
  (value) => (value === "walker" ? "sitter" : value),
  z.enum(["owner", "sitter"], { errorMap: () => ({ message: "validation.roleRequired" }) }),
);

export function parseSignupRole(value: string | null): "owner" | "sitter" | null {
  const parsed = signupRoleSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const requiredText = (max: number) =>
  z
    .string({ required_error: "validation.required", invalid_type_error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(max, "validation.tooLong");

export const emailSchema = z
  .string({ required_error: "validation.emailRequired", invalid_type_error: "validation.emailRequired" })
  .trim()
  .min(1, "validation.emailRequired")
  .max(254, "validation.emailInvalid")
  .email("validation.emailInvalid")
  .transform((email) => email.toLowerCase());

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

export const newPasswordSchema = z
  .string({ required_error: "validation.passwordRequired", invalid_type_error: "validation.passwordRequired" })
  .min(PASSWORD_MIN, "validation.passwordTooShort")
  .max(PASSWORD_MAX, "validation.passwordTooLong");

export const signupSchema = z
  .object({
    role: signupRoleSchema,
    name: requiredText(80),
    city: requiredText(80),
    postalCode: requiredText(12).regex(/^[\p{L}\p{N}][\p{L}\p{N} -]*$/u, "validation.postalCodeInvalid"),
    phone: requiredText(24).regex(/^\+?[\d\s().-]{6,}$/, "validation.phoneInvalid"),
    email: emailSchema,
    password: newPasswordSchema,
  })
  .refine((value) => value.password.toLowerCase() !== value.email, {
    path: ["password"],
    message: "validation.passwordIsEmail",
  });

export const loginSchema = z.object({
  email: emailSchema,
  password: z
    .string({ required_error: "validation.passwordRequired", invalid_type_error: "validation.passwordRequired" })
    .min(1, "validation.passwordRequired")
    .max(PASSWORD_MAX, "validation.passwordTooLong"),
  redirectTo: z.string().max(2000).optional(),
});

export const resendConfirmationSchema = z.object({ email: emailSchema });

export const forgotPasswordSchema = z.object({
  email: z
    .string({ required_error: "validation.enterEmailFirst", invalid_type_error: "validation.enterEmailFirst" })
    .trim()
    .min(1, "validation.enterEmailFirst")
    .max(254, "validation.emailInvalid")
    .email("validation.emailInvalid")
    .transform((email) => email.toLowerCase()),
});

export const resetPasswordSchema = z
  .object({
    token: z.string().max(200).optional(),
    password: newPasswordSchema,
    confirmPassword: z.string({ required_error: "validation.passwordRequired" }),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ["confirmPassword"],
    message: "validation.passwordsDontMatch",
  });
