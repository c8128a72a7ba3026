import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { composeEmail } from "./email.server";
import { takeAttempt } from "./rate-limit.server";
import { advanceClock } from "~/testing/clock";
import { isCrossSiteWrite, securityHeaders } from "./security.server";
import { badgeText } from "./ui/bottom-nav";
import { formDataOf } from "./forms.server";
import { FORM_BODY_MAX_BYTES, STRIPE_WEBHOOK_BODY_MAX_BYTES } from "./request-limits";
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
    expect(securityHeaders({ nonce: "abc", https: true, development: false })["Strict-Transport-Security"]).toContain(
      "max-age",
    );
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
  const statusOf = (request: Request) =>
    formDataOf(request).then(
      () => 200,
      (thrown: Response) => thrown.status,
    );

  it("reads a form with tabs and line breaks, and refuses control characters and unreadable bodies with a 400", async () => {
    expect((await formDataOf(post("bio=one%0D%0Atwo%09three"))).get("bio")).toBe("one\r\ntwo\tthree");
    expect(await statusOf(post("bio=a%00b"))).toBe(400);
    expect(await statusOf(post("bio=%1B%5B2J"))).toBe(400);
    expect(await statusOf(post("na%07me=x"))).toBe(400);
    expect(await statusOf(post('{"bio":"x"}', "application/json"))).toBe(400);
    expect(await statusOf(post("", "multipart/form-data; boundary=x"))).toBe(400);
  });

  it("refuses a form over FORM_BODY_MAX_BYTES with a 413: by Content-Length without reading it, else when the count passes the limit", async () => {
    expect(await statusOf(post(`bio=${"a".repeat(FORM_BODY_MAX_BYTES)}`))).toBe(413);
    expect((await formDataOf(post(`bio=${"a".repeat(FORM_BODY_MAX_BYTES - 4)}`))).get("bio")).toHaveLength(
      FORM_BODY_MAX_BYTES - 4,
    );
    let pulled = 0;
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(16 * 1024).fill(97));
        },
      });
    const streamed = (headers: Record<string, string>) =>
      new Request("http://localhost/", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: endless(),
        duplex: "half",
      } as RequestInit);
    expect(await statusOf(streamed({ "Content-Length": String(200 * 1024 * 1024) }))).toBe(413);
    // A stream starts by filling its queue once; nothing more was read.
    expect(pulled).toBeLessThanOrEqual(1);
    pulled = 0;
    expect(await statusOf(streamed({}))).toBe(413);
    expect(pulled * 16 * 1024).toBeLessThanOrEqual(FORM_BODY_MAX_BYTES + 2 * 16 * 1024);
  });

  it("refuses a Stripe webhook body over a megabyte with a 413 before checking it", async () => {
    const { action } = await import("~/routes/webhooks-stripe");
    const post = (bytes: number) =>
      action({
        request: new Request("http://localhost/webhooks/stripe", {
          method: "POST",
          body: "x".repeat(bytes),
          headers: { "Stripe-Signature": "t=1,v1=x" },
        }),
        params: {},
        context: { cspNonce: "", clientAddress: "127.0.0.1" },
      }).catch((thrown: Response) => thrown);
    expect((await post(STRIPE_WEBHOOK_BODY_MAX_BYTES + 1)).status).toBe(413);
    expect((await post(1000)).status).toBe(400);
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
    const extra = cspSourcesOf([
      { i18n: ["common"] },
      undefined,
      {
        csp: {
          "script-src": ["https://js.stripe.com"],
          "frame-src": ["https://js.stripe.com", "https://hooks.stripe.com"],
        },
      },
    ]);
    const policy = contentSecurityPolicy({ nonce: "abc", development: false, extra });
    expect(policy).toContain("script-src 'self' 'nonce-abc' https://js.stripe.com");
    expect(policy).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com");
    expect(policy).toContain("connect-src 'self';");
    expect(securityHeaders({ nonce: "abc", https: false, development: false })["Content-Security-Policy"]).toBe(
      contentSecurityPolicy({ nonce: "abc", development: false }),
    );
    expect(contentSecurityPolicy({ nonce: "abc", development: false })).not.toContain("stripe");
  });
});
