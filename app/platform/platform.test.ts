import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { composeEmail } from "./email.server";
import { takeAttempt } from "./rate-limit.server";
import { advanceClock } from "./clock.server";
import { isCrossSiteWrite, securityHeaders } from "./security.server";
import { badgeText } from "./ui/bottom-nav";
import { formDataOf } from "./forms.server";
import { isSpam } from "./honeypot.server";

describe("rate limits", () => {
  it("allows the configured number of attempts per window, then refuses, then resets", async () => {
    const limit = { max: 3, windowSeconds: 3600 };
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await takeAttempt("test:a", limit));
    expect(results).toEqual([true, true, true, false, false]);
    expect(await takeAttempt("test:b", limit)).toBe(true);
    advanceClock(3600 * 1000);
    expect(await takeAttempt("test:a", limit)).toBe(true);
  });

  it("counts concurrent attempts exactly", async () => {
    const limit = { max: 10, windowSeconds: 3600 };
    const results = await Promise.all(Array.from({ length: 25 }, () => takeAttempt("test:burst", limit)));
    expect(results.filter(Boolean)).toHaveLength(10);
  });
});

describe("security", () => {
  it("refuses state-changing requests from other sites", () => {
    expect(isCrossSiteWrite("POST", { host: "app.test", origin: "https://evil.test" })).toBe(true);
    expect(isCrossSiteWrite("POST", { host: "app.test", origin: "null" })).toBe(true);
    expect(isCrossSiteWrite("POST", { host: "app.test", "sec-fetch-site": "cross-site" })).toBe(true);
    expect(isCrossSiteWrite("POST", { host: "app.test", origin: "https://app.test" })).toBe(false);
    expect(isCrossSiteWrite("GET", { host: "app.test", origin: "https://evil.test" })).toBe(false);
  });

  it("sends a nonce-only script policy and HSTS only over https", () => {
    const headers = securityHeaders({ nonce: "abc", https: false, development: false });
    expect(headers["Content-Security-Policy"]).toContain("script-src 'self' 'nonce-abc'");
    expect(headers["Content-Security-Policy"]).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(headers["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(headers["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders({ nonce: "abc", https: true, development: false })["Strict-Transport-Security"]).toContain("max-age");
  });
});

describe("emails", () => {
  it("escapes every value in the HTML part", () => {
    const email = composeEmail({
      to: "a@b.co",
      subject: "Hi",
      greeting: "Hello <script>alert(1)</script>,",
      paragraphs: ["a & b"],
      action: { label: "Go", url: 'https://x.test/?a="b"' },
      footer: "bye",
    });
    expect(email.html).not.toContain("<script>");
    expect(email.html).toContain("&lt;script&gt;");
    expect(email.html).toContain("a &amp; b");
    expect(email.text).toContain('Go: https://x.test/?a="b"');
  });
});

describe("posted forms", () => {
  const post = (body: string, type = "application/x-www-form-urlencoded") =>
    new Request("http://localhost/", { method: "POST", headers: { "Content-Type": type }, body });
  const statusOf = (request: Request) => formDataOf(request).then(() => 200, (thrown: Response) => thrown.status);

  it("reads a form with tabs and line breaks, and refuses control characters and unreadable bodies with a 400", async () => {
    expect((await formDataOf(post("bio=one%0D%0Atwo%09three"))).get("bio")).toBe("one\r\ntwo\tthree");
    expect(await statusOf(post("bio=a%00b"))).toBe(400);
    expect(await statusOf(post("bio=%1B%5B2J"))).toBe(400);
    expect(await statusOf(post("na%07me=x"))).toBe(400);
    expect(await statusOf(post('{"bio":"x"}', "application/json"))).toBe(400);
    expect(await statusOf(post("", "multipart/form-data; boundary=x"))).toBe(400);
  });

  it("counts a honeypot value that cannot be decrypted as spam, not as an error", () => {
    const form = new FormData();
    form.set("name__confirm", "");
    // Random base64 (a forged value): the cipher throws on about one in eight of these.
    for (let attempt = 0; attempt < 64; attempt++) {
      form.set("from__confirm", randomBytes(33).toString("base64"));
      expect(isSpam(form)).toBe(true);
    }
  });
});

describe("badge", () => {
  it("caps at 9+", () => {
    expect(badgeText(3)).toBe("3");
    expect(badgeText(9)).toBe("9");
    expect(badgeText(10)).toBe("9+");
  });
});

describe("a page's own Content-Security-Policy", () => {
  it("adds the origins a route declares to the default policy, and nothing for other pages", async () => {
    const { contentSecurityPolicy, cspSourcesOf, securityHeaders } = await import("./security.server");
    const extra = cspSourcesOf([{ i18n: ["common"] }, undefined, { csp: { "script-src": ["https://js.stripe.com"], "frame-src": ["https://js.stripe.com", "https://hooks.stripe.com"] } }]);
    const policy = contentSecurityPolicy({ nonce: "abc", development: false, extra });
    expect(policy).toContain("script-src 'self' 'nonce-abc' https://js.stripe.com");
    expect(policy).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com");
    expect(policy).toContain("connect-src 'self';");
    expect(securityHeaders({ nonce: "abc", https: false, development: false })["Content-Security-Policy"]).toBe(contentSecurityPolicy({ nonce: "abc", development: false }));
    expect(contentSecurityPolicy({ nonce: "abc", development: false })).not.toContain("stripe");
  });
});
