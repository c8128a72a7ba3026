import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { advanceClock, resetClock } from "~/platform/clock.server";
import { authRateLimit } from "~/platform/rate-limit.server";
import { action as authAction } from "~/routes/auth";
import { action as forgotAction } from "~/routes/forgot-password";

/**
 * The public account forms, posted through their real route actions as one address would post
 * them: sign-in and sign-up share one budget per address, reset requests one per address and
 * email. Past it, a 429 with the seed's message, and nothing is done.
 */

const origin = "http://localhost:3000";
type Answer = { data?: { reply?: { error?: Record<string, string[]> } } & { error?: Record<string, string[]> }; init?: { status?: number } };

function post(path: string, fields: Record<string, string>): Request {
  return new Request(`${origin}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

async function answer(run: Promise<unknown>): Promise<{ status: number; errors: string[] }> {
  const result = (await run) as Response | Answer;
  if (result instanceof Response) return { status: result.status, errors: [] };
  const reply = result.data?.reply ?? result.data;
  return { status: result.init?.status ?? 200, errors: Object.values(reply?.error ?? {}).flat() };
}

const logIn = (address: string, email = "nobody@example.com") =>
  answer(authAction({ request: post("/auth", { intent: "login", email, password: "not-the-password" }), params: {}, context: { clientAddress: address, cspNonce: "" } }));

const signUp = (address: string, email: string) =>
  answer(
    authAction({
      request: post("/auth?mode=signup&role=owner", {
        intent: "signup",
        role: "owner",
        name: "Rita Limit",
        city: "Madrid",
        postalCode: "28004",
        phone: "+34 600 111 222",
        email,
        password: "walkies-at-dawn-42",
      }),
      params: {},
      context: { clientAddress: address, cspNonce: "" },
    }),
  );

const askReset = (address: string, email: string) =>
  answer(forgotAction({ request: post("/forgot-password", { email }), params: {}, context: { clientAddress: address, cspNonce: "" } }));

afterEach(() => resetClock());

describe("rate limits on the public account forms", () => {
  it("refuses sign-in and sign-up from an address past its budget, creates nothing, and opens again after the window", async () => {
    const address = "203.0.113.7";
    for (let attempt = 0; attempt < authRateLimit.max; attempt += 1) {
      const { status, errors } = await logIn(address);
      expect(status).toBe(400);
      expect(errors).not.toContain("auth:rateLimited");
    }
    expect(await logIn(address)).toEqual({ status: 429, errors: ["auth:rateLimited"] });
    // Sign-up shares the budget: refused, and no account is made.
    expect(await signUp(address, "rita.limit@example.com")).toEqual({ status: 429, errors: ["auth:rateLimited"] });
    expect(await db.selectFrom("users").select("id").where("email", "=", "rita.limit@example.com").executeTakeFirst()).toBeUndefined();

    // Another address is not affected.
    expect((await logIn("198.51.100.4")).status).toBe(400);

    // The window passes: the address may try again.
    advanceClock(authRateLimit.windowSeconds * 1000 + 1000);
    expect((await signUp(address, "rita.limit@example.com")).status).toBe(302);
    expect(await db.selectFrom("users").select("id").where("email", "=", "rita.limit@example.com").executeTakeFirst()).toBeDefined();
  });

  it("limits reset requests per address and email, and sends no email past the limit", async () => {
    const address = "203.0.113.8";
    const email = "reset.limit@example.com";
    for (let attempt = 0; attempt < authRateLimit.max; attempt += 1) expect((await askReset(address, email)).status).toBe(302);
    expect(await askReset(address, email)).toEqual({ status: 429, errors: ["auth:forgot.tooManyAttempts"] });
    // Nobody has that address, so no email went out at all, and the answer was the same as for a known one.
    expect(await db.selectFrom("email_outbox").select("id").where("to_address", "=", email).execute()).toHaveLength(0);
    // Another email from the same address has its own budget.
    expect((await askReset(address, "someone.else@example.com")).status).toBe(302);
  });
});
