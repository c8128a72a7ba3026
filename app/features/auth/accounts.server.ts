import { randomUUID } from "node:crypto";
import type { User } from "~db/schema";
import { db, isUniqueViolation } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { enqueueEmail, deliverSoon, publicOrigin } from "~/platform/email.server";
import { isLanguage, type Language } from "~/platform/i18n";
import { claimAttempts, clearAttempts, signInBackoff, takeAttempt } from "~/platform/rate-limit.server";
import { notify } from "~/features/notifications/index.server";
import { coordinatesOfCity, storedPosition, timeZoneOfCity } from "~/features/geo/index.server";
import { isTimeZone } from "~/platform/time";
import { confirmationEmail, resetEmail, signupAttemptEmail, welcomeEmail } from "./emails.server";
import { deviceOf, type KnownDevice } from "./known-devices.server";
import { hashPassword, isCommonPassword, spendVerifyTime, verifyPassword } from "./passwords.server";
import { PASSWORD_MAX, PASSWORD_MIN } from "./schema";
import { checkEmailToken, consumeEmailToken, issueEmailToken, type TokenCheck } from "./tokens.server";
import { endAllSessions } from "~/platform/session.server";

/** The users table's default time zone (migration 0001): used when neither the browser nor the city tells. */
const NEW_ACCOUNT_TIME_ZONE = "Europe/Madrid";

/** The browser's zone when its script sent one, else the city's from the gazetteer, else Madrid. */
export async function timeZoneFor(browserZone: string | undefined, city: string): Promise<string> {
  if (browserZone && isTimeZone(browserZone)) return browserZone;
  return (await timeZoneOfCity(city)) ?? NEW_ACCOUNT_TIME_ZONE;
}

export interface SignupInput {
  role: "owner" | "sitter";
  name: string;
  city: string;
  postalCode: string;
  phone: string;
  email: string;
  password: string;
  timeZone?: string;
}

export function passwordProblem(password: string, email: string): string | null {
  if (password.length < PASSWORD_MIN) return "validation.passwordTooShort";
  if (password.length > PASSWORD_MAX) return "validation.passwordTooLong";
  if (password.toLowerCase() === email.toLowerCase()) return "validation.passwordIsEmail";
  if (isCommonPassword(password)) return "validation.passwordCommon";
  return null;
}

/** Links in emails always start at APP_URL (publicOrigin), never at a request's Host. */
export function confirmationLink(token: string): string {
  return `${publicOrigin()}/auth/callback?type=signup&token=${encodeURIComponent(token)}`;
}

export function resetLink(token: string): string {
  return `${publicOrigin()}/reset-password?token=${encodeURIComponent(token)}`;
}

const languageOfUser = (user: Pick<User, "language">): Language => (isLanguage(user.language) ? user.language : "en");

/** So nobody can flood a mailbox with "someone tried to sign up with your address" emails. */
const SIGNUP_ATTEMPT_NOTICES = { max: 1, windowSeconds: 3600 };

export type SignupResult =
  | { status: "created"; user: User }
  | { status: "email-taken" }
  /** The password breaks a rule (a translation key); checked before the address, so it tells nothing about it. */
  | { status: "weak"; problem: string };

export async function signUp(input: SignupInput, language: Language): Promise<SignupResult> {
  const problem = passwordProblem(input.password, input.email);
  if (problem) return { status: "weak", problem };
  const passwordHash = await hashPassword(input.password);
  const timeZone = await timeZoneFor(input.timeZone, input.city);
  const place = await coordinatesOfCity(input.city, timeZone);
  const at = nowIso();
  const user = await db
    .transaction()
    .execute(async (trx) => {
      const existing = await trx.selectFrom("users").selectAll().where("email", "=", input.email).executeTakeFirst();
      if (existing) return { existing };
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
          time_zone: timeZone,
          language,
          // Signing up is accepting the terms and the privacy policy, as the form says beside its button.
          terms_accepted_at: at,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await notify({ userId: created.id, type: "welcome", data: { name: created.name }, link: "/profile" }, trx);
      const token = await issueEmailToken(created.id, "confirm", trx);
      await enqueueEmail(await confirmationEmail(created, confirmationLink(token), language), trx);
      return created;
    })
    .catch(async (error: unknown) => {
      // The same address signed up at the same moment: the unique address refused the second one.
      if (!isUniqueViolation(error)) throw error;
      return {
        existing: await db.selectFrom("users").selectAll().where("email", "=", input.email).executeTakeFirstOrThrow(),
      };
    });
  if ("existing" in user) {
    await tellOwnerOfSignupAttempt(user.existing);
    return { status: "email-taken" };
  }
  deliverSoon();
  return { status: "created", user };
}

async function tellOwnerOfSignupAttempt(owner: User): Promise<void> {
  if (!(await takeAttempt(`signup-attempt-notice:${owner.id}`, SIGNUP_ATTEMPT_NOTICES))) return;
  const origin = publicOrigin();
  await enqueueEmail(
    await signupAttemptEmail(
      owner,
      { signIn: `${origin}/auth?mode=login`, reset: `${origin}/forgot-password` },
      languageOfUser(owner),
    ),
  );
  deliverSoon();
}

export type LoginResult =
  | { status: "ok"; user: User }
  | { status: "invalid" }
  | { status: "unconfirmed"; user: User }
  | { status: "suspended" }
  | { status: "wait" };

/** Where a sign-in attempt comes from: the client's address, and the accounts its browser signed in to before. */
export interface SignInClient {
  address: string;
  devices: KnownDevice[];
}

const UNKNOWN_CLIENT: SignInClient = { address: "unknown", devices: [] };

const signInKey = (email: string) => `sign-in:${email.toLowerCase()}`;

/**
 * The delays an attempt waits on. A browser that signed in to the account before (with its current
 * password) waits only on its own wrong passwords. Any other waits on the wrong passwords from its
 * address for that account and on those from every unknown browser for it: guessing from many
 * addresses stays slow, while the owner's own browsers are never held up by it.
 */
function signInKeys(
  email: string,
  user: Pick<User, "id" | "password_hash"> | undefined,
  client: SignInClient,
): string[] {
  const device = user ? deviceOf(client.devices, user) : null;
  if (user && device) return [`sign-in-device:${user.id}:${device}`];
  return [signInKey(email), `${signInKey(email)} from ${client.address}`];
}

/**
 * Each attempt past the free failures waits longer (about a minute at most) under every key it
 * counts under; unknown emails have the same budget. The right password clears those keys.
 */
async function checkPassword(
  keys: string[],
  passwordHash: string | null,
  password: string,
): Promise<"right" | "wrong" | "wait"> {
  if ((await claimAttempts(keys, signInBackoff)) > 0) return "wait";
  if (passwordHash === null) {
    await spendVerifyTime(password);
    return "wrong";
  }
  if (!(await verifyPassword(passwordHash, password))) return "wrong";
  await clearAttempts(...keys);
  return "right";
}

export async function verifyLogin(
  email: string,
  password: string,
  client: SignInClient = UNKNOWN_CLIENT,
): Promise<LoginResult> {
  const user = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  const check = await checkPassword(signInKeys(email, user, client), user?.password_hash ?? null, password);
  if (check === "wait") return { status: "wait" };
  if (!user || check === "wrong") return { status: "invalid" };
  if (!user.email_verified_at) return { status: "unconfirmed", user };
  // Told only after the right password, so the answer reveals nothing to someone guessing.
  if (user.suspended_at) return { status: "suspended" };
  return { status: "ok", user };
}

export async function resendConfirmation(email: string, language: Language): Promise<void> {
  const user = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  if (!user || user.email_verified_at) return;
  await db.transaction().execute(async (trx) => {
    const token = await issueEmailToken(user.id, "confirm", trx);
    await enqueueEmail(await confirmationEmail(user, confirmationLink(token), language), trx);
  });
  deliverSoon();
}

export function checkConfirmationToken(token: string): Promise<TokenCheck> {
  return checkEmailToken(token, "confirm");
}

export type ConfirmResult = { status: "confirmed"; user: User } | { status: "expired" } | { status: "invalid" };

export async function confirmEmail(token: string): Promise<ConfirmResult> {
  const result = await db.transaction().execute(async (trx): Promise<ConfirmResult> => {
    const check = await consumeEmailToken(token, "confirm", trx);
    if (check.status !== "valid") return check;
    const user = await trx
      .updateTable("users")
      .set({ email_verified_at: nowIso(), updated_at: nowIso() })
      .where("id", "=", check.userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await enqueueEmail(await welcomeEmail(user, `${publicOrigin()}/auth?mode=login`, languageOfUser(user)), trx);
    return { status: "confirmed", user };
  });
  if (result.status === "confirmed") deliverSoon();
  return result;
}

/** Always behaves the same whether or not the email has an account, so the form reveals nothing. */
export async function requestPasswordReset(email: string): Promise<void> {
  const user = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  if (!user) return;
  await db.transaction().execute(async (trx) => {
    const token = await issueEmailToken(user.id, "reset", trx);
    await enqueueEmail(await resetEmail(user, resetLink(token), languageOfUser(user)), trx);
  });
  deliverSoon();
}

export function checkResetToken(token: string): Promise<TokenCheck> {
  return checkEmailToken(token, "reset");
}

export type PasswordChange =
  | { status: "changed"; user: User }
  | { status: "expired" }
  | { status: "invalid" }
  | { status: "weak"; problem: string };

/** The link (single use) is the proof: no current password is asked. Every session of the account ends. */
export async function resetPassword(token: string, password: string): Promise<PasswordChange> {
  const check = await checkResetToken(token);
  if (check.status !== "valid") return check;
  const owner = await db.selectFrom("users").select("email").where("id", "=", check.userId).executeTakeFirst();
  if (!owner) return { status: "invalid" };
  const problem = passwordProblem(password, owner.email);
  if (problem) return { status: "weak", problem };
  const passwordHash = await hashPassword(password);
  const result = await db.transaction().execute(async (trx): Promise<PasswordChange> => {
    const used = await consumeEmailToken(token, "reset", trx);
    if (used.status !== "valid") return used;
    const user = await trx
      .updateTable("users")
      .set({
        password_hash: passwordHash,
        // Following the emailed link proves the address, as confirming would.
        email_verified_at: (eb) => eb.fn.coalesce("email_verified_at", eb.val(nowIso())),
        updated_at: nowIso(),
      })
      .where("id", "=", used.userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await endAllSessions(user.id, trx);
    return { status: "changed", user };
  });
  // Whoever holds the link owns the address: earlier wrong guesses no longer make them wait.
  if (result.status === "changed") await clearAttempts(signInKey(result.user.email));
  return result;
}

/**
 * Asked again of someone signed in (a session is a browser they signed in from): its own delays,
 * so a stolen session guesses slowly and nobody's sign-in guesses lock the owner out of settings.
 */
const ownPasswordKey = (userId: string) => `own-password:${userId}`;

/** Whether `password` is the person's, with the same waits as signing in. */
export async function checkOwnPassword(userId: string, password: string): Promise<"right" | "wrong" | "wait"> {
  const user = await db
    .selectFrom("users")
    .select(["email", "password_hash"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) return "wrong";
  return checkPassword([ownPasswordKey(userId)], user.password_hash, password);
}

export type SessionPasswordChange =
  | { status: "changed" }
  | { status: "wait" }
  | { status: "refused"; errors: { currentPassword?: string[]; password?: string[] } };

/**
 * Only with the current password: a session alone, on a borrowed or stolen device, must not be
 * enough. Every session ends; the caller starts a fresh one.
 */
export async function changePassword(
  userId: string,
  currentPassword: string,
  password: string,
): Promise<SessionPasswordChange> {
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "password_hash"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const check = await checkPassword([ownPasswordKey(user.id)], user.password_hash, currentPassword);
  if (check === "wait") return { status: "wait" };
  const problem = passwordProblem(password, user.email);
  if (check === "wrong" || problem) {
    return {
      status: "refused",
      errors: {
        ...(check === "wrong" ? { currentPassword: ["auth:reset.currentWrong"] } : {}),
        ...(problem ? { password: [problem] } : {}),
      },
    };
  }
  const passwordHash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("users")
      .set({ password_hash: passwordHash, updated_at: nowIso() })
      .where("id", "=", user.id)
      .execute();
    await endAllSessions(user.id, trx);
  });
  return { status: "changed" };
}

export async function saveLanguage(userId: string, language: Language): Promise<void> {
  await db.updateTable("users").set({ language, updated_at: nowIso() }).where("id", "=", userId).execute();
}

export function setupPathFor(role: User["role"]): string {
  if (role === "owner") return "/pet-profile-setup";
  if (role === "sitter") return "/sitter-profile-setup";
  return "/dashboard";
}
