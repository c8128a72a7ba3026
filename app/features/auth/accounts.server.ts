import { randomUUID } from "node:crypto";
import type { User } from "~db/schema";
import { db } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { enqueueEmail, deliverSoon } from "~/platform/email.server";
import type { Language } from "~/platform/i18n";
import { endAllSessions } from "~/platform/session.server";
import { notify } from "~/features/notifications/notifications.server";
import { coordinatesOfCity } from "~/features/discovery/places.server";
import { storedPosition } from "~/features/discovery/geo.server";
import { confirmationEmail, resetEmail, welcomeEmail } from "./emails.server";
import { hashPassword, isCommonPassword, spendVerifyTime, verifyPassword } from "./passwords.server";
import { checkEmailToken, consumeEmailToken, issueEmailToken, type TokenCheck } from "./tokens.server";

/** The users table's default time zone (migration 0001). */
const NEW_ACCOUNT_TIME_ZONE = "Europe/Madrid";

export interface SignupInput {
  role: "owner" | "sitter";
  name: string;
  city: string;
  postalCode: string;
  phone: string;
  email: string;
  password: string;
}

/** Rules on a new password beyond its length; each result is a translation key. */
export function passwordProblem(password: string, email: string): string | null {
  if (password.toLowerCase() === email.toLowerCase()) return "validation.passwordIsEmail";
  if (isCommonPassword(password)) return "validation.passwordCommon";
  return null;
}

export function confirmationLink(origin: string, token: string): string {
  return `${origin}/auth/callback?type=signup&token=${encodeURIComponent(token)}`;
}

export function resetLink(origin: string, token: string): string {
  return `${origin}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * Creates the account with its welcome notification and confirmation email in one transaction:
 * either all of it exists or none of it does.
 */
export async function signUp(
  input: SignupInput,
  language: Language,
  origin: string,
): Promise<{ status: "created"; user: User } | { status: "email-taken" }> {
  const passwordHash = await hashPassword(input.password);
  // New accounts start in the time zone the users table defaults to, so the city is looked up there.
  const place = await coordinatesOfCity(input.city, NEW_ACCOUNT_TIME_ZONE);
  const at = nowIso();
  const user = await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("users").select("id").where("email", "=", input.email).executeTakeFirst();
    if (existing) return null;
    const created = await trx
      .insertInto("users")
      .values({
        id: randomUUID(),
        email: input.email,
        password_hash: passwordHash,
        email_verified_at: null,
        name: input.name,
        phone: input.phone,
        city: input.city,
        postal_code: input.postalCode,
        role: input.role,
        bio: "",
        ...storedPosition(place),
        language,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await notify({ userId: created.id, type: "welcome", data: { name: created.name }, link: "/profile" }, trx);
    const token = await issueEmailToken(created.id, "confirm", trx);
    await enqueueEmail(await confirmationEmail(created, confirmationLink(origin, token), language), trx);
    return created;
  });
  if (!user) return { status: "email-taken" };
  deliverSoon();
  return { status: "created", user };
}

export type LoginResult =
  | { status: "ok"; user: User }
  | { status: "invalid" }
  | { status: "unconfirmed"; email: string };

export async function verifyLogin(email: string, password: string): Promise<LoginResult> {
  const user = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  if (!user) {
    await spendVerifyTime(password);
    return { status: "invalid" };
  }
  if (!(await verifyPassword(user.password_hash, password))) return { status: "invalid" };
  if (!user.email_verified_at) return { status: "unconfirmed", email: user.email };
  return { status: "ok", user };
}

/** Sends a fresh confirmation link to an unconfirmed account; silent for unknown or confirmed ones. */
export async function resendConfirmation(email: string, language: Language, origin: string): Promise<void> {
  const user = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  if (!user || user.email_verified_at) return;
  await db.transaction().execute(async (trx) => {
    const token = await issueEmailToken(user.id, "confirm", trx);
    await enqueueEmail(await confirmationEmail(user, confirmationLink(origin, token), language), trx);
  });
  deliverSoon();
}

export function checkConfirmationToken(token: string): Promise<TokenCheck> {
  return checkEmailToken(token, "confirm");
}

export type ConfirmResult = { status: "confirmed"; user: User } | { status: "expired" } | { status: "invalid" };

export async function confirmEmail(token: string, origin: string): Promise<ConfirmResult> {
  const result = await db.transaction().execute(async (trx): Promise<ConfirmResult> => {
    const check = await consumeEmailToken(token, "confirm", trx);
    if (check.status !== "valid") return check;
    const user = await trx
      .updateTable("users")
      .set({ email_verified_at: nowIso(), updated_at: nowIso() })
      .where("id", "=", check.userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await enqueueEmail(await welcomeEmail(user, `${origin}/auth?mode=login`, user.language as Language), trx);
    return { status: "confirmed", user };
  });
  if (result.status === "confirmed") deliverSoon();
  return result;
}

/** Always behaves the same whether or not the email has an account, so the form reveals nothing. */
export async function requestPasswordReset(email: string, origin: string): Promise<void> {
  const user = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  if (!user) return;
  await db.transaction().execute(async (trx) => {
    const token = await issueEmailToken(user.id, "reset", trx);
    await enqueueEmail(await resetEmail(user, resetLink(origin, token), user.language as Language), trx);
  });
  deliverSoon();
}

export function checkResetToken(token: string): Promise<TokenCheck> {
  return checkEmailToken(token, "reset");
}

export type PasswordChange = { status: "changed"; user: User } | { status: "expired" } | { status: "invalid" };

/** Sets a new password from a reset link (single use) and ends every session of the account. */
export async function resetPassword(token: string, password: string): Promise<PasswordChange> {
  const passwordHash = await hashPassword(password);
  const result = await db.transaction().execute(async (trx): Promise<PasswordChange> => {
    const check = await consumeEmailToken(token, "reset", trx);
    if (check.status !== "valid") return check;
    const user = await trx
      .updateTable("users")
      .set({
        password_hash: passwordHash,
        // Following the emailed link proves the address, as confirming would.
        email_verified_at: (eb) => eb.fn.coalesce("email_verified_at", eb.val(nowIso())),
        updated_at: nowIso(),
      })
      .where("id", "=", check.userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.deleteFrom("sessions").where("user_id", "=", user.id).execute();
    return { status: "changed", user };
  });
  return result;
}

/** A signed-in person sets a new password; every session ends and the caller starts a fresh one. */
export async function changePassword(userId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.updateTable("users").set({ password_hash: passwordHash, updated_at: nowIso() }).where("id", "=", userId).execute();
  await endAllSessions(userId);
}

/** Where a person goes after confirming their email: the setup screen for their role. */
export function setupPathFor(role: User["role"]): string {
  if (role === "owner") return "/pet-profile-setup";
  if (role === "sitter") return "/sitter-profile-setup";
  return "/dashboard";
}
