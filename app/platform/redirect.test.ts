import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { honeypotFields } from "~/testing/browser";
import { PASSWORD, person } from "~/testing/people";
import { requireUser } from "~/platform/session.server";
import { action as authAction, loader as authLoader } from "~/routes/auth";
import { REDIRECT_TARGET_MAX_LENGTH, safeRedirectTarget } from "./redirect.server";

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
const ORIGIN = "https://app.example";
const FALLBACK = "/fallback";

/** Pieces that have led browsers off-site: slashes of both kinds, what browsers drop, schemes, hosts, dot segments. */
const PIECES = [
  "/",
  "//",
  "\\",
  "/\\",
  "\\/",
  "\t",
  "\n",
  "\r",
  "\u0000",
  "\u001f",
  "\u007f",
  "\u0085",
  " ",
  "\u00a0",
  "\u2028",
  "\u3000",
  "\ufeff",
  "%09",
  "%0A",
  "%0D",
  "%00",
  "%2F",
  "%2f",
  "%5C",
  "%5c",
  "%2E",
  "%252F",
  "http:",
  "https:",
  "javascript:",
  "data:",
  "evil.example",
  "@evil.example",
  "user:pass@",
  ":",
  "?",
  "#",
  ".",
  "..",
  "./",
  "../",
  "/./",
  "/../",
  "a",
  "dashboard",
  "é",
  "😀",
  "\ud800",
];
const piecewise = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((parts) => parts.join(""));
/** The same strings once percent-decoded, as URLSearchParams and form parsing hand them over. */
const decoded = piecewise.map((text) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
});
const candidates = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }).map((text) => `/${text}`),
  piecewise,
  piecewise.map((text) => `/${text}`),
  decoded,
  decoded.map((text) => `/${text}`),
  fc.webUrl(),
  fc.webPath(),
);

/** What a browser does to a Location before resolving it: drops tab and line breaks, reads "\" as "/". */
const asBrowserReadsIt = (target: string) => target.replace(/[\t\n\r]/g, "").replace(/\\/g, "/");

describe("redirect targets", () => {
  it("keeps only paths of this origin that no browser can read as protocol-relative", () => {
    fc.assert(
      fc.property(candidates, (value) => {
        const result = safeRedirectTarget(value, FALLBACK);
        if (result === FALLBACK) return;
        expect(result.startsWith("/")).toBe(true);
        expect(result).not.toMatch(/^\/[/\\]/);
        expect(asBrowserReadsIt(result)).not.toMatch(/^\/[/\\]/);
        // eslint-disable-next-line no-control-regex -- the point of the check
        expect(result).not.toMatch(/[\u0000-\u0020\u007f-\u009f\\]/);
        expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
        expect(new URL(asBrowserReadsIt(result), `${ORIGIN}/some/page?x=1`).origin).toBe(ORIGIN);
        expect(result.length).toBeLessThanOrEqual(REDIRECT_TARGET_MAX_LENGTH);
        // It is already what it resolves to, so a route that parses it again gets the same path.
        expect(safeRedirectTarget(result, FALLBACK)).toBe(result);
        const { pathname, search, hash } = new URL(result, ORIGIN);
        expect(`${pathname}${search}${hash}`).toBe(result);
      }),
      { numRuns: 2000, seed: SEED },
    );
  });

  it("refuses the known tricks and keeps ordinary paths", () => {
    for (const trick of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r/evil.example",
      "/\r\n/evil.example",
      "//evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "/.//evil.example",
      "/a/..//evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      " /dashboard",
      "/dash\u0000board",
      "dashboard",
      "",
      null,
      undefined,
      42,
      ["/dashboard"],
      `/${"a".repeat(REDIRECT_TARGET_MAX_LENGTH)}`,
    ]) {
      expect(safeRedirectTarget(trick, FALLBACK), JSON.stringify(trick)).toBe(FALLBACK);
    }
    expect(safeRedirectTarget("/profile?lng=en", FALLBACK)).toBe("/profile?lng=en");
    expect(safeRedirectTarget("/pet/abc/edit#photos", FALLBACK)).toBe("/pet/abc/edit#photos");
    expect(safeRedirectTarget("/photos/../profile", FALLBACK)).toBe("/profile");
    expect(safeRedirectTarget("/users/%2F%2Fevil.example", FALLBACK)).toBe("/users/%2F%2Fevil.example");
    expect(safeRedirectTarget("/café", FALLBACK)).toBe("/caf%C3%A9");
  });
});

describe("sign-in's redirectTo", () => {
  const context = { clientAddress: "198.51.100.20", cspNonce: "" };

  const signIn = (email: string, redirectTo: string) =>
    authAction({
      request: new Request("http://localhost/auth?mode=login", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "login", email, password: PASSWORD, redirectTo, ...honeypotFields() }),
      }),
      params: {},
      context,
    }) as Promise<Response>;

  async function loaderAnswer(query: string, cookie?: string): Promise<Response | { redirectTo?: string }> {
    const request = new Request(`http://localhost/auth?mode=login&${query}`, {
      headers: cookie ? { Cookie: cookie } : {},
    });
    try {
      return (await authLoader({ request, params: {}, context })) as { redirectTo?: string };
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  it("sends a sign-in with a control character in redirectTo to the dashboard", async () => {
    const owner = await person("owner", { password: PASSWORD });
    for (const redirectTo of [
      "/\t/evil.example",
      "/\r/evil.example",
      "/\n/evil.example",
      "//evil.example",
      "/\\evil.example",
    ]) {
      const response = await signIn(owner.email, redirectTo);
      expect(response.status, JSON.stringify(redirectTo)).toBe(302);
      expect(response.headers.get("Location")).toBe("/dashboard");
    }
    expect((await signIn(owner.email, "/profile")).headers.get("Location")).toBe("/profile");
  });

  it("answers /auth?redirectTo=/%09/…, /%0D/… and /%0A/… without a 500: the form gets no target, a signed-in visitor goes to the dashboard", async () => {
    const { cookie } = await person("owner", { signedIn: true });
    for (const escape of ["%09", "%0D", "%0A", "%0D%0A"]) {
      const page = await loaderAnswer(`redirectTo=/${escape}/evil.example`);
      expect(page).not.toBeInstanceOf(Response);
      expect((page as { redirectTo?: string }).redirectTo).toBeUndefined();
      const signedIn = (await loaderAnswer(`redirectTo=/${escape}/evil.example`, cookie)) as Response;
      expect(signedIn.status).toBe(302);
      expect(signedIn.headers.get("Location")).toBe("/dashboard");
    }
    expect(((await loaderAnswer("redirectTo=%2Fprofile")) as { redirectTo?: string }).redirectTo).toBe("/profile");
  });
});

describe("the redirect to sign-in", () => {
  const redirectOf = (url: string) =>
    requireUser(new Request(url)).then(
      () => null,
      (thrown: Response) => thrown.headers.get("Location"),
    );

  it("brings a visitor back to the page they asked for, and never to a path a browser reads as another site", async () => {
    expect(await redirectOf("http://localhost/bookings?tab=past")).toBe(
      `/auth?${new URLSearchParams({ mode: "login", redirectTo: "/bookings?tab=past" })}`,
    );
    expect(await redirectOf("http://localhost//evil.example/x")).toBe("/auth?mode=login");
    expect(await redirectOf("http://localhost/")).toBe("/auth?mode=login");
  });
});
