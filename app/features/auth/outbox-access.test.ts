import { describe, expect, it } from "vitest";
import { env } from "~/platform/env.server";
import { startSession } from "~/platform/session.server";
import { action as authAction } from "~/routes/auth";
import { action as forgotAction } from "~/routes/forgot-password";
import { loader as outboxLoader } from "~/routes/dev-outbox";
import { Browser, answerOf, context, honeypotFields, signupFields } from "~/testing/browser";
import { PASSWORD, emailsTo, person } from "~/testing/people";

/**
 * /dev/outbox (development, tests and demo mode) shows each browser only its own emails: to the
 * signed-in person, and to accounts the browser created or proved it owns. A stranger who types
 * someone's address into a public form sees nothing of theirs.
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
  answerOf(forgotAction({ request: browser.post("/forgot-password", { email, ...honeypotFields() }), params: {}, context: context() }), browser);

const logIn = (browser: Browser, email: string, password: string) =>
  answerOf(authAction({ request: browser.post("/auth", { intent: "login", email, password, ...honeypotFields() }), params: {}, context: context() }), browser);

async function outboxOf(browser: Browser): Promise<{ to: string; subject: string; text: string }[]> {
  return (await outboxLoader({ request: browser.get("/dev/outbox"), params: {}, context: context() })).emails;
}

const addressesIn = async (browser: Browser) => [...new Set((await outboxOf(browser)).map((email) => email.to))];

describe("/dev/outbox", () => {
  it("shows a browser the emails of the account it created, and a stranger's browser none of them", async () => {
    const email = freshEmail();
    const mine = new Browser();
    await signUp(mine, email);
    expect((await outboxOf(mine)).map((sent) => sent.subject)).toEqual(["Confirm your email for Trusted Sitters"]);
    expect(await outboxOf(new Browser())).toEqual([]);
  });

  it("shows a stranger nothing of an account whose address they typed: not the reset link, not the sign-up notice, not a resent confirmation", async () => {
    const victim = await person("owner", { password: PASSWORD });
    const unconfirmed = await person("owner", { password: PASSWORD, verified: false });
    const stranger = new Browser();
    expect((await askReset(stranger, victim.email)).status).toBe(302);
    expect((await signUp(stranger, victim.email)).status).toBe(302);
    await answerOf(authAction({ request: stranger.post("/auth", { intent: "resend", email: unconfirmed.email, ...honeypotFields() }), params: {}, context: context() }), stranger);
    // Those emails exist: the stranger just cannot read them.
    expect((await emailsTo(victim.email)).map((sent) => sent.subject)).toEqual(["Reset your Trusted Sitters password", "Someone tried to sign up with your email"]);
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
    await answerOf(authAction({ request: browser.post("/auth", { intent: "resend", email: unconfirmed.email, ...honeypotFields() }), params: {}, context: context() }));
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
    expect((await addressesIn(browser)).sort()).toEqual(created.slice(1).sort());

    // The cookie holds a JSON string (Remix's cookie encoding) that is the sealed list.
    const value = browser.header().Cookie!.split("; ").find((cookie) => cookie.startsWith("outbox="))!.slice("outbox=".length);
    const sealed: string = JSON.parse(atob(decodeURIComponent(value)));
    const asCookie = (content: unknown) => `outbox=${encodeURIComponent(btoa(JSON.stringify(content)))}`;
    const middle = Math.floor(sealed.length / 2);
    const tampered = sealed.slice(0, middle) + (sealed[middle] === "A" ? "B" : "A") + sealed.slice(middle + 1);
    // The untouched value still works; one character changed, or a readable list written by hand, shows nothing.
    for (const [cookie, expected] of [[asCookie(sealed), 5], [asCookie(tampered), 0], [asCookie([{ a: created[5], o: 1 }]), 0]] as const) {
      const other = new Browser();
      other.keep([cookie]);
      expect(await addressesIn(other)).toHaveLength(expected);
    }
  });

  it("does not exist outside development, tests and demo mode", async () => {
    const devTools = env.devToolsEnabled;
    env.devToolsEnabled = false;
    try {
      const thrown = await outboxLoader({ request: new Browser().get("/dev/outbox"), params: {}, context: context() }).catch((error: unknown) => error);
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(404);
    } finally {
      env.devToolsEnabled = devTools;
    }
  });
});
