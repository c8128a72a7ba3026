import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { deleteAccount } from "~/features/account/index.server";
import { startSession } from "~/platform/session.server";
import { action as authAction } from "~/routes/auth";
import { action as forgotAction } from "~/routes/forgot-password";
import { loader as outboxLoader } from "~/routes/dev-outbox";
import { Browser, answerOf, context, honeypotFields, signupFields } from "~/testing/browser";
import { PASSWORD, emailsTo, person } from "~/testing/people";

/**
 * /dev/outbox (development, tests and demo mode) shows each browser only its own emails: those of
 * the account it is signed in to, and of accounts it signed in to before with their current
 * password. A stranger who types someone's address into a public form sees nothing of theirs, and
 * neither does a browser that once made an account with an address someone else has now.
 */

let counter = 0;
const freshEmail = () => `outbox-${Date.now().toString(36)}-${(counter += 1)}@example.com`;

const signUp = (browser: Browser, email: string) =>
  answerOf(
    authAction({
      request: browser.post("/auth", signupFields(email, "Olga Outbox")),
      params: {},
      context: context(),
    }),
    browser,
  );

const askReset = (browser: Browser, email: string) =>
  answerOf(
    forgotAction({
      request: browser.post("/forgot-password", { email, ...honeypotFields() }),
      params: {},
      context: context(),
    }),
    browser,
  );

const logIn = (browser: Browser, email: string, password: string) =>
  answerOf(
    authAction({
      request: browser.post("/auth", { intent: "login", email, password, ...honeypotFields() }),
      params: {},
      context: context(),
    }),
    browser,
  );

async function outboxPage(browser: Browser) {
  return outboxLoader({ request: browser.get("/dev/outbox"), params: {}, context: context() });
}

async function outboxOf(browser: Browser): Promise<{ to: string; subject: string; text: string }[]> {
  return (await outboxPage(browser)).emails;
}

const addressesIn = async (browser: Browser) => [...new Set((await outboxOf(browser)).map((email) => email.to))];

describe("/dev/outbox", () => {
  it("shows the browser that signed up only a waiting entry, and the account's emails once it gives the password; a stranger's browser none of them", async () => {
    const email = freshEmail();
    const mine = new Browser();
    await signUp(mine, email);
    expect(await outboxPage(mine)).toEqual({ emails: [], waiting: [email] });
    expect((await logIn(mine, email, PASSWORD)).errors).toEqual(["auth:login.unconfirmed"]);
    expect(await outboxPage(mine)).toMatchObject({
      emails: [{ subject: "Confirm your email for Trusted Sitters" }],
      waiting: [],
    });
    expect(await outboxPage(new Browser())).toEqual({ emails: [], waiting: [] });
  });

  it("shows a browser that signs up with a taken address exactly what it shows one whose sign-up made an account", async () => {
    const taken = await person("owner", { password: PASSWORD });
    const fresh = freshEmail();
    const [squatter, newcomer] = [new Browser(), new Browser()];
    await signUp(squatter, taken.email);
    await signUp(newcomer, fresh);
    const [seen, made] = await Promise.all([outboxPage(squatter), outboxPage(newcomer)]);
    expect(JSON.stringify(seen).replaceAll(taken.email, "ADDRESS")).toBe(
      JSON.stringify(made).replaceAll(fresh, "ADDRESS"),
    );
    expect(seen).toEqual({ emails: [], waiting: [taken.email] });
  });

  it("never shows a password reset email to a browser that only made the account", async () => {
    const email = freshEmail();
    const maker = new Browser();
    await signUp(maker, email);
    await askReset(new Browser(), email);
    expect(await emailsTo(email)).toHaveLength(2);
    expect(await outboxOf(maker)).toEqual([]);
  });

  it("shows nothing of the next account with an address to a browser that made, proved and deleted an earlier one", async () => {
    const email = freshEmail();
    const squatter = new Browser();
    await signUp(squatter, email);
    await logIn(squatter, email, PASSWORD);
    const first = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    expect(await outboxOf(squatter)).toHaveLength(1);
    expect((await deleteAccount(first.id, PASSWORD)).status).toBe("deleted");

    // Someone else signs up with the address, and later asks for a reset link.
    const victim = new Browser();
    expect((await signUp(victim, email)).status).toBe(302);
    await askReset(victim, email);
    expect((await emailsTo(email)).map((sent) => sent.subject)).toEqual(
      expect.arrayContaining(["Confirm your email for Trusted Sitters", "Reset your Trusted Sitters password"]),
    );
    expect(await outboxOf(squatter)).toEqual([]);
    // The victim's browser, once it gives its password, reads both.
    await logIn(victim, email, PASSWORD);
    expect((await outboxOf(victim)).map((sent) => sent.subject).sort()).toEqual([
      "Confirm your email for Trusted Sitters",
      "Reset your Trusted Sitters password",
    ]);
  });

  it("shows the reset email to a browser the owner signed in from, until the password changes", async () => {
    const owner = await person("owner", { password: PASSWORD });
    const laptop = new Browser();
    expect((await logIn(laptop, owner.email, PASSWORD)).status).toBe(302);
    // Signed out (the session cookie gone), the laptop is still a browser the owner signed in from.
    const signedOut = new Browser();
    signedOut.keep([
      laptop
        .header()
        .Cookie!.split("; ")
        .find((cookie) => cookie.startsWith("device="))!,
    ]);
    await askReset(new Browser(), owner.email);
    expect((await outboxOf(signedOut)).map((sent) => sent.subject)).toEqual(["Reset your Trusted Sitters password"]);
    await db.updateTable("users").set({ password_hash: "changed elsewhere" }).where("id", "=", owner.id).execute();
    expect(await outboxOf(signedOut)).toEqual([]);
  });

  it("shows a stranger nothing of an account whose address they typed: not the reset link, not the sign-up notice, not a resent confirmation", async () => {
    const victim = await person("owner", { password: PASSWORD });
    const unconfirmed = await person("owner", { password: PASSWORD, verified: false });
    const stranger = new Browser();
    expect((await askReset(stranger, victim.email)).status).toBe(302);
    expect((await signUp(stranger, victim.email)).status).toBe(302);
    await answerOf(
      authAction({
        request: stranger.post("/auth", { intent: "resend", email: unconfirmed.email, ...honeypotFields() }),
        params: {},
        context: context(),
      }),
      stranger,
    );
    // Those emails exist: the stranger just cannot read them.
    expect((await emailsTo(victim.email)).map((sent) => sent.subject)).toEqual([
      "Reset your Trusted Sitters password",
      "Someone tried to sign up with your email",
    ]);
    expect(await emailsTo(unconfirmed.email)).toHaveLength(1);
    expect(await outboxOf(stranger)).toEqual([]);
    // A wrong password for the unconfirmed account proves nothing either.
    await logIn(stranger, unconfirmed.email, "not-the-password");
    expect(await outboxOf(stranger)).toEqual([]);
  });

  it("shows a signed-in person the emails to their own address, and never anyone else's", async () => {
    const me = await person("owner", { password: PASSWORD });
    const someoneElse = await person("owner", { password: PASSWORD });
    const mine = new Browser();
    await askReset(new Browser(), me.email);
    await askReset(new Browser(), someoneElse.email);
    expect(await outboxOf(mine)).toEqual([]);
    mine.keep([await startSession(me.id)]);
    expect(await addressesIn(mine)).toEqual([me.email]);
  });

  it("lets the browser that gave the right password of an unconfirmed account read its confirmation emails", async () => {
    const unconfirmed = await person("owner", { password: PASSWORD, verified: false });
    const browser = new Browser();
    await answerOf(
      authAction({
        request: browser.post("/auth", { intent: "resend", email: unconfirmed.email, ...honeypotFields() }),
        params: {},
        context: context(),
      }),
    );
    expect(await outboxOf(browser)).toEqual([]);
    const refused = await logIn(browser, unconfirmed.email, PASSWORD);
    expect(refused.errors).toEqual(["auth:login.unconfirmed"]);
    expect(await addressesIn(browser)).toEqual([unconfirmed.email]);
  });

  it("keeps only the five newest addresses, and ignores a cookie it did not seal", async () => {
    const browser = new Browser();
    const created: string[] = [];
    for (let n = 0; n < 6; n += 1) {
      created.push(freshEmail());
      await signUp(browser, created.at(-1)!);
    }
    expect((await outboxPage(browser)).waiting.sort()).toEqual(created.slice(1).sort());

    // The cookie holds a JSON string (Remix's cookie encoding) that is the sealed list.
    const value = browser
      .header()
      .Cookie!.split("; ")
      .find((cookie) => cookie.startsWith("outbox="))!
      .slice("outbox=".length);
    const sealed: string = JSON.parse(atob(decodeURIComponent(value)));
    const asCookie = (content: unknown) => `outbox=${encodeURIComponent(btoa(JSON.stringify(content)))}`;
    const middle = Math.floor(sealed.length / 2);
    const tampered = sealed.slice(0, middle) + (sealed[middle] === "A" ? "B" : "A") + sealed.slice(middle + 1);
    // The untouched value still works; one character changed, or a readable list written by hand, shows nothing.
    for (const [cookie, expected] of [
      [asCookie(sealed), 5],
      [asCookie(tampered), 0],
      [asCookie([{ a: created[5] }]), 0],
    ] as const) {
      const other = new Browser();
      other.keep([cookie]);
      expect((await outboxPage(other)).waiting).toHaveLength(expected);
    }
  });

  it("does not exist outside development, tests and demo mode", async () => {
    const devTools = env.devToolsEnabled;
    env.devToolsEnabled = false;
    try {
      const thrown = await outboxLoader({
        request: new Browser().get("/dev/outbox"),
        params: {},
        context: context(),
      }).catch((error: unknown) => error);
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(404);
    } finally {
      env.devToolsEnabled = devTools;
    }
  });
});
