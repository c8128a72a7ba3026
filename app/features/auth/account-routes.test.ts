import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { resetClockAfterEach } from "~/testing/clock";
import { env } from "~/platform/env.server";
import { getUser, startSession } from "~/platform/session.server";
import { action as authAction } from "~/routes/auth";
import { action as callbackAction } from "~/routes/auth-callback";
import { action as forgotAction } from "~/routes/forgot-password";
import { action as resetAction } from "~/routes/reset-password";
import { verifyLogin } from "./accounts.server";
import { issueEmailToken } from "./tokens.server";
import { Browser, answerOf, context, honeypotFields, signupFields } from "~/testing/browser";
import { PASSWORD, emailsTo, person } from "~/testing/people";

/**
 * The account pages' actions, called as a browser (or an attacker's script) would call them:
 * links in emails, the answer to a taken address at sign-up, and changing the password.
 */

let counter = 0;
const freshEmail = () => `routes-${Date.now().toString(36)}-${(counter += 1)}@example.com`;

resetClockAfterEach();

describe("links in emails", () => {
  // The request comes to an address of the attacker's choosing, with a forged Host header too.
  const forged = {
    origin: "http://evil.example",
    headers: { Host: "evil.example", "X-Forwarded-Host": "evil.example" },
  };
  const linksIn = (text: string) => text.match(/https?:\/\/[^\s]+/g) ?? [];

  function expectOnlyAppUrlLinks(text: string) {
    const links = linksIn(text);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.startsWith(`${env.APP_URL}/`), link).toBe(true);
    expect(text).not.toContain("evil.example");
  }

  it("always start at APP_URL, whatever Host the request names: sign-up, resend, confirmation, reset and the taken-address notice", async () => {
    const browser = new Browser();
    const email = freshEmail();
    expect(
      (
        await answerOf(
          authAction({ request: browser.post("/auth", signupFields(email), forged), params: {}, context: context() }),
        )
      ).status,
    ).toBe(302);
    const [confirmation] = await emailsTo(email);
    expectOnlyAppUrlLinks(confirmation!.text_body);
    expect(confirmation!.html_body).not.toContain("evil.example");

    await answerOf(
      authAction({
        request: browser.post("/auth", { intent: "resend", email, ...honeypotFields() }, forged),
        params: {},
        context: context(),
      }),
    );
    const resent = (await emailsTo(email)).at(-1)!;
    expect(resent.text_body).not.toBe(confirmation!.text_body);
    expectOnlyAppUrlLinks(resent.text_body);

    const token = /token=([\w-]+)/.exec(resent.text_body)![1]!;
    const confirmed = await answerOf(
      callbackAction({ request: browser.post("/auth/callback", { token }, forged), params: {}, context: context() }),
    );
    expect(confirmed.status).toBe(200);
    expectOnlyAppUrlLinks((await emailsTo(email)).at(-1)!.text_body);

    expect(
      (
        await answerOf(
          forgotAction({
            request: browser.post("/forgot-password", { email, ...honeypotFields() }, forged),
            params: {},
            context: context(),
          }),
        )
      ).status,
    ).toBe(302);
    const reset = (await emailsTo(email)).at(-1)!;
    expect(reset.text_body).toContain(`${env.APP_URL}/reset-password?token=`);
    expectOnlyAppUrlLinks(reset.text_body);

    await answerOf(
      authAction({ request: browser.post("/auth", signupFields(email), forged), params: {}, context: context() }),
    );
    const notice = (await emailsTo(email)).at(-1)!;
    expect(notice.subject).toBe("Someone tried to sign up with your email");
    expectOnlyAppUrlLinks(notice.text_body);
  });
});

describe("sign-up with an address that already has an account", () => {
  it("answers exactly like a new sign-up: same status, same page, same cookies", async () => {
    const owner = await person("owner", { password: PASSWORD });
    // An address of the same length, so only what the server says could differ.
    const newcomerEmail = `${owner.email.slice(0, owner.email.indexOf("@") - 1)}x@example.net`;
    expect(newcomerEmail).toHaveLength(owner.email.length);
    const newcomer = await answerOf(
      authAction({ request: new Browser().post("/auth", signupFields(newcomerEmail)), params: {}, context: context() }),
    );
    expect(newcomer.location).toBe("/auth?mode=login&sent=1");
    const taken = await answerOf(
      authAction({ request: new Browser().post("/auth", signupFields(owner.email)), params: {}, context: context() }),
    );
    expect(taken.status).toBe(newcomer.status);
    expect(taken.location).toBe(newcomer.location);
    expect(taken.errors).toEqual([]);
    const shape = (cookies: string[]) =>
      cookies.map((cookie) => ({
        name: cookie.split("=")[0],
        length: cookie.length,
        attributes: cookie.split(";").slice(1).join(";"),
      }));
    expect(shape(taken.setCookies)).toEqual(shape(newcomer.setCookies));
    // The toast (the page's message) is the very same.
    const toastOf = (cookies: string[]) => cookies.find((cookie) => cookie.startsWith("toast="));
    expect(toastOf(taken.setCookies)).toBe(toastOf(newcomer.setCookies));
    // The owner was told; no second account exists.
    expect((await emailsTo(owner.email)).map((email) => email.subject)).toEqual([
      "Someone tried to sign up with your email",
    ]);
    expect(await db.selectFrom("users").select("id").where("email", "=", owner.email).execute()).toHaveLength(1);
  });
});

describe("changing the password at /reset-password", () => {
  const change = (browser: Browser, fields: Record<string, string>) =>
    answerOf(
      resetAction({ request: browser.post("/reset-password", fields), params: {}, context: context() }),
      browser,
    );

  async function signedInOnTwoDevices() {
    const owner = await person("owner", { password: PASSWORD, signedIn: true });
    const browser = new Browser();
    browser.keep([owner.cookie]);
    const otherDevice = new Browser();
    otherDevice.keep([await startSession(owner.id)]);
    return { owner, browser, otherDevice };
  }

  it("from a session asks for the current password, and a wrong one changes nothing", async () => {
    const { owner, browser, otherDevice } = await signedInOnTwoDevices();
    const missing = await change(browser, { password: "a-fresh-secret-9", confirmPassword: "a-fresh-secret-9" });
    expect(missing.status).toBe(400);
    expect(missing.fieldErrors).toEqual({ currentPassword: ["validation.passwordRequired"] });

    const wrong = await change(browser, {
      currentPassword: "not-my-password",
      password: "a-fresh-secret-9",
      confirmPassword: "a-fresh-secret-9",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.fieldErrors).toEqual({ currentPassword: ["auth:reset.currentWrong"] });
    expect((await verifyLogin(owner.email, PASSWORD)).status).toBe("ok");
    expect((await getUser(otherDevice.get("/dashboard")))?.id).toBe(owner.id);
  });

  it("with the right current password changes it, ends the other sessions and keeps this device signed in", async () => {
    const { owner, browser, otherDevice } = await signedInOnTwoDevices();
    const done = await change(browser, {
      currentPassword: PASSWORD,
      password: "a-fresh-secret-9",
      confirmPassword: "a-fresh-secret-9",
    });
    expect(done.status).toBe(302);
    expect(done.location).toBe("/reset-password?done=1");
    expect(await getUser(otherDevice.get("/dashboard"))).toBeNull();
    expect((await getUser(browser.get("/dashboard")))?.id).toBe(owner.id);
    expect((await verifyLogin(owner.email, "a-fresh-secret-9")).status).toBe("ok");
  });

  it("without a session (and without a link) changes nothing", async () => {
    const owner = await person("owner", { password: PASSWORD });
    const answer = await change(new Browser(), {
      currentPassword: PASSWORD,
      password: "a-fresh-secret-9",
      confirmPassword: "a-fresh-secret-9",
    });
    expect(answer.status).toBe(400);
    expect(answer.errors).toEqual(["auth:reset.noSession"]);
    expect((await verifyLogin(owner.email, PASSWORD)).status).toBe("ok");
  });

  it("with the emailed link needs no current password, signed in or not, and still follows the password rules", async () => {
    const { owner, browser } = await signedInOnTwoDevices();
    const token = await issueEmailToken(owner.id, "reset");
    const weak = await change(browser, { token, password: "password123", confirmPassword: "password123" });
    expect(weak.fieldErrors).toEqual({ password: ["validation.passwordCommon"] });
    const done = await change(new Browser(), {
      token,
      password: "a-fresh-secret-9",
      confirmPassword: "a-fresh-secret-9",
    });
    expect(done.status).toBe(302);
    expect((await verifyLogin(owner.email, "a-fresh-secret-9")).status).toBe("ok");
  });
});
