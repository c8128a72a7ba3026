import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "~/platform/db.server";
import { advanceClock, resetClockAfterEach } from "~/testing/clock";
import { authRateLimit, backoffDelayMs, resetEmailRateLimit, signInBackoff } from "~/platform/rate-limit.server";
import { action as authAction } from "~/routes/auth";
import { action as forgotAction } from "~/routes/forgot-password";
import { Browser, answerOf, context, honeypotFields, signupFields } from "~/testing/browser";
import { PASSWORD, emailsTo, person } from "~/testing/people";
import { hashPassword } from "~/features/auth/index.server";

/**
 * The public account forms, posted through their real route actions as one address would post
 * them: sign-in and sign-up share one budget per address, reset requests one per address and
 * email and one per address across emails; wrong passwords for one account make the next try
 * wait longer and longer. Past a budget, a 429 with a translated message, and nothing is done.
 */

const browser = new Browser();

const logIn = (address: string, email = "nobody@example.com", password = "not-the-password") =>
  answerOf(
    authAction({
      request: browser.post("/auth", { intent: "login", email, password, ...honeypotFields() }),
      params: {},
      context: context(address),
    }),
  );

const signUp = (address: string, email: string) =>
  answerOf(
    authAction({
      request: browser.post("/auth?mode=signup&role=owner", signupFields(email, "Rita Limit")),
      params: {},
      context: context(address),
    }),
  );

const askReset = (address: string, email: string) =>
  answerOf(
    forgotAction({
      request: browser.post("/forgot-password", { email, ...honeypotFields() }),
      params: {},
      context: context(address),
    }),
  );

/** Each call from its own address, so only the per-account budget is at work. */
let addresses = 0;
const freshAddress = () => `198.18.0.${(addresses += 1)}`;

resetClockAfterEach();

describe("rate limits on the public account forms", () => {
  it("refuses sign-in and sign-up from an address past its budget, creates nothing, and opens again after the window", async () => {
    const address = "203.0.113.7";
    for (let attempt = 0; attempt < authRateLimit.max; attempt += 1) {
      const { status, errors } = await logIn(address, `nobody${attempt}@example.com`);
      expect(status).toBe(400);
      expect(errors).not.toContain("auth:rateLimited");
    }
    expect(await logIn(address)).toMatchObject({ status: 429, errors: ["auth:rateLimited"] });
    // Sign-up shares the budget: refused, and no account is made.
    expect(await signUp(address, "rita.limit@example.com")).toMatchObject({
      status: 429,
      errors: ["auth:rateLimited"],
    });
    expect(
      await db.selectFrom("users").select("id").where("email", "=", "rita.limit@example.com").executeTakeFirst(),
    ).toBeUndefined();

    expect((await logIn("198.51.100.4")).status).toBe(400);

    advanceClock(authRateLimit.windowSeconds * 1000 + 1000);
    expect((await signUp(address, "rita.limit@example.com")).status).toBe(302);
    expect(
      await db.selectFrom("users").select("id").where("email", "=", "rita.limit@example.com").executeTakeFirst(),
    ).toBeDefined();
  });

  it("limits reset emails per address across every account, sends none past the limit, and leaves other addresses alone", async () => {
    const address = "203.0.113.8";
    const owner = await person("owner", { password: PASSWORD });
    for (let attempt = 0; attempt < resetEmailRateLimit.max; attempt += 1) {
      expect((await askReset(address, `reset.limit${attempt}@example.com`)).status).toBe(302);
    }
    // A new email each time, still refused: the budget is the address's, whatever the account.
    expect(await askReset(address, owner.email)).toMatchObject({
      status: 429,
      errors: ["auth:forgot.tooManyFromAddress"],
    });
    expect(await emailsTo(owner.email)).toHaveLength(0);
    for (let attempt = 0; attempt < resetEmailRateLimit.max; attempt += 1) {
      expect(
        await db
          .selectFrom("email_outbox")
          .select("id")
          .where("to_address", "=", `reset.limit${attempt}@example.com`)
          .execute(),
      ).toHaveLength(0);
    }

    // Another address may ask for the same account, and the owner gets the link.
    expect((await askReset("198.51.100.8", owner.email)).status).toBe(302);
    expect(await emailsTo(owner.email)).toHaveLength(1);

    advanceClock(resetEmailRateLimit.windowSeconds * 1000 + 1000);
    expect((await askReset(address, owner.email)).status).toBe(302);
  });
});

describe("a growing delay after wrong passwords for one account", () => {
  // Time stands still (Date only; hashing and timers run as usual), so a wait is exactly what the clock is moved by.
  beforeEach(() => void vi.useFakeTimers({ toFake: ["Date"] }));
  afterEach(() => void vi.useRealTimers());

  it("lets the free failures through, then refuses attempts inside a wait that doubles up to the cap, without checking the password", async () => {
    const { email } = await person("owner", { password: PASSWORD });
    for (let failure = 0; failure < signInBackoff.freeAttempts; failure += 1) {
      expect(await logIn(freshAddress(), email)).toMatchObject({ status: 400, errors: ["auth:login.invalid"] });
    }
    // Even the right password is refused inside the wait: it is not checked at all.
    expect(await logIn(freshAddress(), email, PASSWORD)).toMatchObject({ status: 429, errors: ["auth:login.wait"] });

    // Each wait is the double of the one before, counted from the last attempt let through.
    let expectedWait = signInBackoff.firstDelayMs;
    for (let round = 0; round < 4; round += 1) {
      expect(backoffDelayMs(signInBackoff.freeAttempts + round, signInBackoff)).toBe(
        Math.min(expectedWait, signInBackoff.maxDelayMs),
      );
      advanceClock(Math.min(expectedWait, signInBackoff.maxDelayMs) - 1);
      expect((await logIn(freshAddress(), email)).errors).toEqual(["auth:login.wait"]);
      advanceClock(1);
      expect((await logIn(freshAddress(), email)).errors).toEqual(["auth:login.invalid"]);
      expectedWait *= 2;
    }
    // However many failures, the wait never grows past the cap (about a minute).
    for (let failures = signInBackoff.freeAttempts; failures < 40; failures += 1) {
      expect(backoffDelayMs(failures, signInBackoff)).toBeLessThanOrEqual(signInBackoff.maxDelayMs);
    }
    expect(signInBackoff.maxDelayMs).toBeLessThanOrEqual(60_000);
  });

  it("does not make the wait longer for attempts refused inside it, lets the right password in after it, and starts again from zero", async () => {
    const { email } = await person("owner", { password: PASSWORD });
    for (let failure = 0; failure < signInBackoff.freeAttempts; failure += 1) await logIn(freshAddress(), email);
    const wait = backoffDelayMs(signInBackoff.freeAttempts, signInBackoff);
    // Someone keeps knocking during the wait: the wait still ends exactly when it would have.
    const step = Math.floor(wait / 10);
    for (let knock = 0; knock < 9; knock += 1) {
      expect((await logIn(freshAddress(), email)).errors).toEqual(["auth:login.wait"]);
      advanceClock(step);
    }
    advanceClock(wait - 9 * step);
    const signedIn = await logIn(freshAddress(), email, PASSWORD);
    expect(signedIn.status).toBe(302);
    expect(signedIn.setCookies.some((cookie) => cookie.startsWith("__session="))).toBe(true);

    // The success reset the count: the free failures are there again.
    for (let failure = 0; failure < signInBackoff.freeAttempts; failure += 1) {
      expect((await logIn(freshAddress(), email)).errors).toEqual(["auth:login.invalid"]);
    }
  });

  it("forgets old failures after the window, and counts unknown emails the same way as known ones", async () => {
    const { email } = await person("owner", { password: PASSWORD });
    for (let failure = 0; failure < signInBackoff.freeAttempts; failure += 1) await logIn(freshAddress(), email);
    advanceClock(signInBackoff.forgetAfterMs);
    expect((await logIn(freshAddress(), email)).errors).toEqual(["auth:login.invalid"]);

    const ghost = "ghost-of-the-budget@example.com";
    for (let failure = 0; failure < signInBackoff.freeAttempts; failure += 1) await logIn(freshAddress(), ghost);
    expect((await logIn(freshAddress(), ghost)).errors).toEqual(["auth:login.wait"]);
  });
});

describe("guessing from many addresses does not lock the owner out", () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ["Date"] }));
  afterEach(() => void vi.useRealTimers());

  const logInFrom = (browser: Browser, address: string, email: string, password: string) =>
    answerOf(
      authAction({
        request: browser.post("/auth", { intent: "login", email, password, ...honeypotFields() }),
        params: {},
        context: context(address),
      }),
      browser,
    );

  it("slows the guesses, lets the owner in at once from a browser they signed in from, and within a minute from a new one", async () => {
    const { email } = await person("owner", { password: PASSWORD });
    // The owner signed in on their phone last week.
    const phone = new Browser();
    expect((await logInFrom(phone, freshAddress(), email, PASSWORD)).status).toBe(302);
    expect(phone.header().Cookie).toMatch(/(^|; )device=/);
    advanceClock(7 * 24 * 60 * 60 * 1000);

    // 13 wrong guesses from 13 addresses in three minutes: past the free ones, most are told to wait.
    let letThrough = 0;
    for (let guess = 0; guess < 13; guess += 1) {
      const answer = await logInFrom(new Browser(), freshAddress(), email, `guess-${guess}`);
      if (answer.errors.includes("auth:login.invalid")) letThrough += 1;
      else expect(answer).toMatchObject({ status: 429, errors: ["auth:login.wait"] });
      advanceClock(15_000);
    }
    expect(letThrough).toBeLessThan(13);
    expect(letThrough).toBeGreaterThanOrEqual(signInBackoff.freeAttempts);
    const guessNow = () => logInFrom(new Browser(), freshAddress(), email, "one-more-guess");
    expect((await guessNow()).errors).toEqual(["auth:login.invalid"]);
    expect((await guessNow()).errors).toEqual(["auth:login.wait"]);

    // The owner's phone, from whatever network it is on, signs in at once...
    const signedIn = await logInFrom(phone, freshAddress(), email, PASSWORD);
    expect(signedIn.status).toBe(302);
    expect(signedIn.setCookies.some((cookie) => cookie.startsWith("__session="))).toBe(true);
    // ...and that does not open the door to the guessers: they still wait.
    expect((await guessNow()).errors).toEqual(["auth:login.wait"]);

    // A cookie written by hand, naming the account as the phone's does, is no known browser.
    const forged = new Browser();
    const phoneCookie = phone
      .header()
      .Cookie!.split("; ")
      .find((cookie) => cookie.startsWith("device="))!;
    const [payload] = decodeURIComponent(phoneCookie.slice("device=".length)).split(".");
    forged.keep([`device=${encodeURIComponent(payload!)}`]);
    expect((await logInFrom(forged, freshAddress(), email, PASSWORD)).errors).toEqual(["auth:login.wait"]);

    // From a new laptop the owner waits out at most the current delay, a minute at most.
    const laptop = new Browser();
    const waitedFrom = Date.now();
    let answer = await logInFrom(laptop, freshAddress(), email, PASSWORD);
    while (answer.status === 429 && Date.now() - waitedFrom < 60_000) {
      advanceClock(5_000);
      answer = await logInFrom(laptop, freshAddress(), email, PASSWORD);
    }
    expect(answer.status).toBe(302);
    expect(Date.now() - waitedFrom).toBeLessThanOrEqual(60_000);
  });

  it("wrong passwords from a known browser slow that browser alone, and a new password forgets every browser known for the old one", async () => {
    const { email, id } = await person("owner", { password: PASSWORD });
    const phone = new Browser();
    const tablet = new Browser();
    expect((await logInFrom(phone, freshAddress(), email, PASSWORD)).status).toBe(302);
    expect((await logInFrom(tablet, freshAddress(), email, PASSWORD)).status).toBe(302);
    for (let failure = 0; failure < signInBackoff.freeAttempts; failure += 1) {
      expect((await logInFrom(phone, freshAddress(), email, "fat-fingers")).errors).toEqual(["auth:login.invalid"]);
    }
    expect((await logInFrom(phone, freshAddress(), email, PASSWORD)).errors).toEqual(["auth:login.wait"]);
    expect((await logInFrom(tablet, freshAddress(), email, PASSWORD)).status).toBe(302);
    // Strangers' first tries are not held up by the phone's typing either.
    expect((await logInFrom(new Browser(), freshAddress(), email, "a-guess")).errors).toEqual(["auth:login.invalid"]);

    // The password changes (say, after a reset): the tablet is a new browser again.
    await db
      .updateTable("users")
      .set({ password_hash: await hashPassword("another-long-secret-7") })
      .where("id", "=", id)
      .execute();
    for (let guess = 0; guess < signInBackoff.freeAttempts; guess += 1)
      await logInFrom(new Browser(), freshAddress(), email, `guess-${guess}`);
    expect((await logInFrom(tablet, freshAddress(), email, "another-long-secret-7")).errors).toEqual([
      "auth:login.wait",
    ]);
  });
});

describe("the honeypot", () => {
  const without = (fields: Record<string, string>) => fields;
  const forms: [string, () => Promise<unknown>][] = [
    [
      "sign-in",
      () =>
        authAction({
          request: browser.post("/auth", without({ intent: "login", email: "a@example.com", password: PASSWORD })),
          params: {},
          context: context(),
        }),
    ],
    [
      "sign-up",
      () =>
        authAction({
          request: browser.post("/auth?mode=signup&role=owner", {
            intent: "signup",
            role: "owner",
            name: "Bo Bot",
            city: "Madrid",
            postalCode: "28004",
            phone: "+34 600 111 222",
            email: "bo.bot@example.com",
            password: PASSWORD,
          }),
          params: {},
          context: context(),
        }),
    ],
    [
      "resend",
      () =>
        authAction({
          request: browser.post("/auth", { intent: "resend", email: "bo.bot@example.com" }),
          params: {},
          context: context(),
        }),
    ],
    [
      "forgot password",
      () =>
        forgotAction({
          request: browser.post("/forgot-password", { email: "bo.bot@example.com" }),
          params: {},
          context: context(),
        }),
    ],
  ];

  for (const [name, post] of forms) {
    it(`refuses a ${name} post that leaves the honeypot fields out, like spam, and does nothing`, async () => {
      const before = await db
        .selectFrom("email_outbox")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      const answer = await answerOf(post());
      expect(answer.status).toBe(429);
      expect(answer.errors).toEqual(["auth:spam"]);
      expect(
        await db.selectFrom("users").select("id").where("email", "=", "bo.bot@example.com").executeTakeFirst(),
      ).toBeUndefined();
      const after = await db
        .selectFrom("email_outbox")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });
  }

  it("refuses a filled honeypot or a valid-from field alone", async () => {
    const fields = honeypotFields();
    const [nameField, validFromField] = Object.keys(fields);
    for (const honeypot of [
      { ...fields, [nameField!]: "i am a bot" },
      { [validFromField!]: fields[validFromField!]! },
      { [nameField!]: "" },
    ]) {
      const answer = await answerOf(
        authAction({
          request: browser.post("/auth", { intent: "login", email: "a@example.com", password: PASSWORD, ...honeypot }),
          params: {},
          context: context(),
        }),
      );
      expect(answer.errors).toEqual(["auth:spam"]);
    }
  });
});
