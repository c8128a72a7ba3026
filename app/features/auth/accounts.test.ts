import { describe, expect, it, onTestFinished, vi } from "vitest";
import { db } from "~/platform/db.server";
import { advanceClock, resetClockAfterEach } from "~/testing/clock";
import { env } from "~/platform/env.server";
import { signInBackoff } from "~/platform/rate-limit.server";
import { getUser, startSession } from "~/platform/session.server";
import {
  changePassword,
  confirmEmail,
  passwordProblem,
  requestPasswordReset,
  resetPassword,
  signUp,
  verifyLogin,
} from "./accounts.server";
import { signupSchema } from "./schema";
import { person as account, signupInput } from "~/testing/people";

/** Where every link in an email points (APP_URL). */
const origin = env.APP_URL;
/** The token in the newest email to this address, read back from the outbox as a user would. */
async function tokenFromLatestEmail(to: string): Promise<string> {
  const email = await db
    .selectFrom("email_outbox")
    .selectAll()
    .where("to_address", "=", to)
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  const match = /token=([\w-]+)/.exec(email.text_body);
  if (!match?.[1]) throw new Error(`No link in: ${email.text_body}`);
  return match[1];
}

function cookieRequest(setCookie: string): Request {
  return new Request(`${origin}/dashboard`, { headers: { Cookie: setCookie.split(";")[0]! } });
}

resetClockAfterEach();

describe("sign-up", () => {
  it("creates the account, a welcome notification and a translated confirmation email together", async () => {
    const person = signupInput();
    const result = await signUp(person, "es");
    expect(result.status).toBe("created");
    const user = await db.selectFrom("users").selectAll().where("email", "=", person.email).executeTakeFirstOrThrow();
    expect(user.role).toBe("owner");
    expect(user.email_verified_at).toBeNull();
    expect(user.password_hash).not.toContain(person.password);
    const notifications = await db.selectFrom("notifications").selectAll().where("user_id", "=", user.id).execute();
    expect(notifications.map((n) => n.type)).toEqual(["welcome"]);
    const email = await db
      .selectFrom("email_outbox")
      .selectAll()
      .where("to_address", "=", person.email)
      .executeTakeFirstOrThrow();
    expect(email.subject).not.toBe("Confirm your email for Trusted Sitters");
    expect(email.text_body).toContain(`${origin}/auth/callback?type=signup&token=`);
  });

  it("refuses a second account for the same email, whatever its case, and changes nothing", async () => {
    const person = signupInput();
    await signUp(person, "en");
    const before = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const parsed = signupSchema.parse({ ...person, email: person.email.toUpperCase() });
    expect(await signUp(parsed, "en")).toEqual({ status: "email-taken" });
    const after = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it("makes one account of the same address signed up twice at the same moment, and answers the other 'taken'", async () => {
    const person = signupInput();
    const results = await Promise.all([signUp(person, "en"), signUp(person, "en"), signUp(person, "en")]);
    expect(results.map((result) => result.status).sort()).toEqual(["created", "email-taken", "email-taken"]);
    const rows = await db.selectFrom("users").select("id").where("email", "=", person.email).execute();
    expect(rows).toHaveLength(1);
  });

  it("tells the owner of a taken address, in their language, with a way to sign in and to reset, at most once an hour", async () => {
    const person = signupInput();
    await signUp(person, "de");
    const user = await db.selectFrom("users").selectAll().where("email", "=", person.email).executeTakeFirstOrThrow();
    const passwordHash = user.password_hash;
    // Someone else tries the address, in another language and with another password.
    expect(await signUp({ ...person, name: "Mallory", password: "another-secret-77" }, "en")).toEqual({
      status: "email-taken",
    });
    const emails = await db
      .selectFrom("email_outbox")
      .selectAll()
      .where("to_address", "=", person.email)
      .orderBy("id")
      .execute();
    expect(emails).toHaveLength(2);
    const notice = emails[1]!;
    expect(notice.subject).toBe("Jemand wollte sich mit deiner E-Mail-Adresse registrieren");
    expect(notice.text_body).toContain("Hallo Ana García");
    expect(notice.text_body).toContain(`${origin}/auth?mode=login`);
    expect(notice.text_body).toContain(`${origin}/forgot-password`);
    expect(notice.text_body).not.toMatch(/token=/);
    // Nothing about the account changed.
    const after = await db.selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(after.password_hash).toBe(passwordHash);
    expect(after.name).toBe("Ana García");

    // A second try within the hour does not send another notice; an hour later one may go again.
    await signUp(person, "en");
    expect(
      await db.selectFrom("email_outbox").select("id").where("to_address", "=", person.email).execute(),
    ).toHaveLength(2);
    advanceClock(61 * 60 * 1000);
    await signUp(person, "en");
    expect(
      await db.selectFrom("email_outbox").select("id").where("to_address", "=", person.email).execute(),
    ).toHaveLength(3);
  });

  it("rejects common passwords and a password equal to the email", () => {
    expect(passwordProblem("password123", "a@b.co")).toBe("validation.passwordCommon");
    expect(passwordProblem("qwerty", "a@b.co")).toBe("validation.passwordCommon");
    expect(passwordProblem("A@B.co", "a@b.co")).toBe("validation.passwordIsEmail");
    expect(passwordProblem("walkies-at-dawn", "a@b.co")).toBeNull();
    expect(passwordProblem("x7!", "a@b.co")).toBe("validation.passwordTooShort");
    expect(passwordProblem("x".repeat(129), "a@b.co")).toBe("validation.passwordTooLong");
  });

  it("refuses a common password or one equal to the email when called directly, and creates nothing", async () => {
    const common = signupInput({ password: "password123" });
    expect(await signUp(common, "en")).toEqual({ status: "weak", problem: "validation.passwordCommon" });
    const sameAsEmail = signupInput();
    expect(await signUp({ ...sameAsEmail, password: sameAsEmail.email.toUpperCase() }, "en")).toEqual({
      status: "weak",
      problem: "validation.passwordIsEmail",
    });
    expect(await signUp(signupInput({ password: "abc" }), "en")).toEqual({
      status: "weak",
      problem: "validation.passwordTooShort",
    });
    const created = await db
      .selectFrom("users")
      .select("id")
      .where("email", "in", [common.email, sameAsEmail.email])
      .execute();
    expect(created).toHaveLength(0);
    expect(
      await db
        .selectFrom("email_outbox")
        .select("id")
        .where("to_address", "in", [common.email, sameAsEmail.email])
        .execute(),
    ).toHaveLength(0);
  });

  it("validates every field with translation keys, and accepts 'walker' as the sitter role", () => {
    const result = signupSchema.safeParse({
      role: "walker",
      name: " ",
      city: "",
      postalCode: "<b>",
      phone: "abc",
      email: "nope",
      password: "12345",
    });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join("."), issue.message]));
    expect(messages).toEqual({
      name: "validation.required",
      city: "validation.required",
      postalCode: "validation.postalCodeInvalid",
      phone: "validation.phoneInvalid",
      email: "validation.emailInvalid",
      password: "validation.passwordTooShort",
    });
    expect(signupSchema.parse({ ...signupInput(), role: "walker" }).role).toBe("sitter");
    expect(signupSchema.safeParse({ ...signupInput(), name: "x".repeat(10_000) }).success).toBe(false);
  });
});

describe("confirmation and sign-in", () => {
  it("signs in only after the email is confirmed, and the link works once", async () => {
    const person = signupInput({ role: "sitter" });
    await signUp(person, "en");
    expect((await verifyLogin(person.email, person.password)).status).toBe("unconfirmed");
    const token = await tokenFromLatestEmail(person.email);
    const confirmed = await confirmEmail(token);
    expect(confirmed.status).toBe("confirmed");
    expect((await confirmEmail(token)).status).toBe("invalid");
    expect((await verifyLogin(person.email, person.password)).status).toBe("ok");
    expect((await verifyLogin(person.email, "wrong-password")).status).toBe("invalid");
    expect((await verifyLogin("nobody@example.com", person.password)).status).toBe("invalid");
  });

  it("refuses an expired confirmation link", async () => {
    const person = signupInput();
    await signUp(person, "en");
    const token = await tokenFromLatestEmail(person.email);
    advanceClock(49 * 60 * 60 * 1000);
    expect((await confirmEmail(token)).status).toBe("expired");
  });

  it("of two simultaneous uses of one link, exactly one confirms", async () => {
    const person = signupInput();
    await signUp(person, "en");
    const token = await tokenFromLatestEmail(person.email);
    const results = await Promise.all([confirmEmail(token), confirmEmail(token)]);
    expect(results.map((r) => r.status).sort()).toEqual(["confirmed", "invalid"]);
  });
});

describe("password reset", () => {
  it("sets the new password once and ends every session", async () => {
    const person = signupInput();
    const user = await account("owner", { email: person.email, password: person.password });
    const cookie = await startSession(user.id);
    expect((await getUser(cookieRequest(cookie)))?.id).toBe(user.id);

    await requestPasswordReset(person.email);
    const token = await tokenFromLatestEmail(person.email);
    expect((await resetPassword(token, "a-brand-new-secret")).status).toBe("changed");
    expect((await resetPassword(token, "another-new-secret")).status).toBe("invalid");

    expect(await getUser(cookieRequest(cookie))).toBeNull();
    expect((await verifyLogin(person.email, person.password)).status).toBe("invalid");
    expect((await verifyLogin(person.email, "a-brand-new-secret")).status).toBe("ok");
  });

  it("holds a reset link to the password rules itself, and a refused password leaves the link usable", async () => {
    const person = signupInput();
    await account("owner", { email: person.email, password: person.password });
    await requestPasswordReset(person.email);
    const token = await tokenFromLatestEmail(person.email);
    expect(await resetPassword(token, "password123")).toEqual({ status: "weak", problem: "validation.passwordCommon" });
    expect(await resetPassword(token, person.email.toUpperCase())).toEqual({
      status: "weak",
      problem: "validation.passwordIsEmail",
    });
    expect(await resetPassword(token, "abc")).toEqual({ status: "weak", problem: "validation.passwordTooShort" });
    expect((await verifyLogin(person.email, person.password)).status).toBe("ok");
    expect((await resetPassword(token, "a-brand-new-secret")).status).toBe("changed");
  });

  it("expires the link after one hour", async () => {
    const person = signupInput();
    await account("owner", { email: person.email, password: person.password });
    await requestPasswordReset(person.email);
    const token = await tokenFromLatestEmail(person.email);
    advanceClock(61 * 60 * 1000);
    expect((await resetPassword(token, "a-brand-new-secret")).status).toBe("expired");
  });

  it("sends nothing for an unknown address and says the same", async () => {
    const before = await db
      .selectFrom("email_outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    await expect(requestPasswordReset("ghost@example.com")).resolves.toBeUndefined();
    const after = await db
      .selectFrom("email_outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});

describe("changing the password from a session", () => {
  it("needs the current password: a wrong one changes nothing and keeps every session", async () => {
    const person = signupInput();
    const { cookie, ...user } = await account("owner", {
      email: person.email,
      password: person.password,
      signedIn: true,
    });
    expect(await changePassword(user.id, "not-my-password", "a-brand-new-secret")).toEqual({
      status: "refused",
      errors: { currentPassword: ["auth:reset.currentWrong"] },
    });
    expect((await getUser(cookieRequest(cookie)))?.id).toBe(user.id);
    expect((await verifyLogin(person.email, person.password)).status).toBe("ok");
    expect((await verifyLogin(person.email, "a-brand-new-secret")).status).toBe("invalid");
  });

  it("holds the new password to the rules, reporting both problems at once", async () => {
    const person = signupInput();
    const user = await account("owner", { email: person.email, password: person.password });
    expect(await changePassword(user.id, "not-my-password", "password123")).toEqual({
      status: "refused",
      errors: { currentPassword: ["auth:reset.currentWrong"], password: ["validation.passwordCommon"] },
    });
    expect(await changePassword(user.id, person.password, person.email)).toEqual({
      status: "refused",
      errors: { password: ["validation.passwordIsEmail"] },
    });
    expect((await verifyLogin(person.email, person.password)).status).toBe("ok");
  });

  it("with the right current password sets the new one and ends every session", async () => {
    const person = signupInput();
    const { cookie, ...user } = await account("owner", {
      email: person.email,
      password: person.password,
      signedIn: true,
    });
    expect(await changePassword(user.id, person.password, "a-brand-new-secret")).toEqual({ status: "changed" });
    expect(await getUser(cookieRequest(cookie))).toBeNull();
    expect((await verifyLogin(person.email, person.password)).status).toBe("invalid");
    expect((await verifyLogin(person.email, "a-brand-new-secret")).status).toBe("ok");
  });

  it("makes wrong current passwords wait like sign-in failures, on a count of their own that guessers at the sign-in form do not touch", async () => {
    const person = signupInput();
    const user = await account("owner", { email: person.email, password: person.password });
    // Time stands still (Date only), so "right away" does not depend on how busy the machine is.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => void vi.useRealTimers());
    for (let failure = 0; failure < signInBackoff.freeAttempts; failure += 1) {
      expect((await changePassword(user.id, `guess-${failure}`, "a-brand-new-secret")).status).toBe("refused");
    }
    // Right away, even the right current password waits; signing in elsewhere does not.
    expect(await changePassword(user.id, person.password, "a-brand-new-secret")).toEqual({ status: "wait" });
    expect((await verifyLogin(person.email, person.password)).status).toBe("ok");
    // Wrong passwords at the sign-in form, from wherever, do not make the signed-in owner wait.
    for (let failure = 0; failure < signInBackoff.freeAttempts * 2; failure += 1)
      await verifyLogin(person.email, `guess-${failure}`);
    advanceClock(signInBackoff.firstDelayMs);
    expect(await changePassword(user.id, person.password, "a-brand-new-secret")).toEqual({ status: "changed" });
  });
});

describe("sessions", () => {
  it("ends after 14 idle days and never outlives 30 days", async () => {
    const person = signupInput();
    const created = await signUp(person, "en");
    if (created.status !== "created") throw new Error("sign-up failed");
    const cookie = await startSession(created.user.id);
    advanceClock(13 * 24 * 60 * 60 * 1000);
    expect(await getUser(cookieRequest(cookie))).not.toBeNull();
    advanceClock(13 * 24 * 60 * 60 * 1000);
    expect(await getUser(cookieRequest(cookie))).not.toBeNull();
    advanceClock(5 * 24 * 60 * 60 * 1000);
    expect(await getUser(cookieRequest(cookie))).toBeNull();

    const idle = await startSession(created.user.id);
    advanceClock(15 * 24 * 60 * 60 * 1000);
    expect(await getUser(cookieRequest(idle))).toBeNull();
  });

  it("ignores a forged or tampered cookie", async () => {
    expect(await getUser(cookieRequest("__session=forged-value"))).toBeNull();
    expect(await getUser(cookieRequest("__session=%22abc%22.bad-signature"))).toBeNull();
  });
});
