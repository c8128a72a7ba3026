import type { APIResponse } from "@playwright/test";
import { expect, logIn, logOut, newPerson, signUpAndConfirm, test } from "./support";

/** What every response must carry, pages and resource routes alike. */
function expectSecurityHeaders(response: APIResponse) {
  const headers = response.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
  expect(csp).not.toContain("'unsafe-inline' 'nonce");
  expect(csp.split(";").find((part) => part.trim().startsWith("script-src"))).not.toContain("unsafe-inline");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("geolocation=(self)");
  // Served over plain http here: HSTS is only sent when APP_URL is https (platform.test.ts).
  expect(headers["strict-transport-security"]).toBeUndefined();
  return csp.match(/'nonce-([^']+)'/)?.[1];
}

test("every response carries the security headers, with a fresh script nonce each time", async ({ request, jsEnabled }) => {
  test.skip(!jsEnabled, "headers do not depend on the browser");
  const nonces = new Set<string | undefined>();
  for (const path of ["/welcome", "/welcome", "/auth?mode=login", "/healthz", "/no/such/page", "/media/not-a-key.webp", "/locales/en/common"]) {
    nonces.add(expectSecurityHeaders(await request.get(path)));
  }
  expect(nonces.size).toBe(7);
});

test("sessions: HttpOnly SameSite=Lax cookie, a new id at each sign-in, dead after logout", async ({ page, browser, jsEnabled }) => {
  test.skip(!jsEnabled, "cookies do not depend on the browser's JavaScript");
  const owner = newPerson("owner");
  await signUpAndConfirm(page, owner, jsEnabled);
  const first = (await page.context().cookies()).find((cookie) => cookie.name.includes("session"));
  expect(first).toBeDefined();
  expect(first!.httpOnly).toBe(true);
  expect(first!.sameSite).toBe("Lax");
  await logOut(page);
  expect((await page.context().cookies()).find((cookie) => cookie.name === first!.name)).toBeUndefined();

  // The old cookie, replayed by someone who kept it, no longer opens anything.
  const thief = await browser.newContext();
  await thief.addCookies([{ ...first!, expires: -1 }]);
  const thiefPage = await thief.newPage();
  await thiefPage.goto("/profile");
  await expect(thiefPage).toHaveURL(/\/auth\?mode=login/);
  await thief.close();

  await logIn(page, owner.email, owner.password);
  await page.waitForURL("**/dashboard");
  const second = (await page.context().cookies()).find((cookie) => cookie.name === first!.name);
  expect(second!.value).not.toBe(first!.value);
});

test("state never changes on GET: action routes only redirect", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "one run is enough");
  const owner = newPerson("owner");
  await signUpAndConfirm(page, owner, jsEnabled);
  const before = await page.request.get("/notifications");
  for (const path of ["/logout", "/bookings/some-booking", "/settings/language?lng=de"]) {
    await page.request.get(path, { maxRedirects: 0 });
  }
  // Still signed in, still in English, the notifications page unchanged.
  const after = await page.request.get("/notifications");
  expect(after.url()).toContain("/notifications");
  expect((await after.text()).includes("Mark all as read")).toBe((await before.text()).includes("Mark all as read"));
  await page.goto("/profile");
  await expect(page.getByRole("heading", { name: owner.name })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
});

test("a redirectTo that a browser would read as another site (tab, line breaks) leads to the dashboard after sign-in, never a 500", async ({ page, jsEnabled, baseURL }) => {
  const owner = newPerson("owner");
  await signUpAndConfirm(page, owner, jsEnabled);
  for (const escape of ["%0D", "%0A", "%0D%0A", "%09"]) {
    // Signed in already: the page sends the visitor on at once.
    const signedIn = await page.request.get(`/auth?mode=login&redirectTo=/${escape}/evil.example`, { maxRedirects: 0 });
    expect(signedIn.status()).toBe(302);
    expect(signedIn.headers()["location"]).toBe("/dashboard");
  }
  await logOut(page);
  for (const escape of ["%0D", "%0A", "%09"]) {
    expect((await page.request.get(`/auth?mode=login&redirectTo=/${escape}/evil.example`)).status()).toBe(200);
  }
  await page.goto("/auth?mode=login&redirectTo=/%09/evil.example");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password", { exact: true }).fill(owner.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL((url) => url.pathname === "/dashboard");
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
});

test("a form post larger than any form sends is refused with a short translated page before it is read; the Stripe webhook takes at most a megabyte", async ({ request, jsEnabled, baseURL }) => {
  test.skip(!jsEnabled, "the browser's JavaScript plays no part");
  const form = await request.post("/auth?mode=login", {
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseURL!, Accept: "text/html", "Accept-Language": "es-ES,es;q=0.9" },
    data: `intent=login&email=${"a".repeat(70 * 1024)}`,
  });
  expect(form.status()).toBe(413);
  const page = await form.text();
  expect(page).toContain("Se ha enviado demasiado");
  expect(page.length).toBeLessThan(2_000);
  expect(form.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  const webhook = await request.post("/webhooks/stripe", { headers: { "Content-Type": "application/json" }, data: `{"a":"${"x".repeat(1.1 * 1024 * 1024)}"}` });
  expect(webhook.status()).toBe(413);
  // Under the limit, the webhook reads it (and finds no valid signature).
  const small = await request.post("/webhooks/stripe", { headers: { "Content-Type": "application/json" }, data: `{"a":"${"x".repeat(500 * 1024)}"}` });
  expect(small.status()).toBeLessThan(500);
  expect(small.status()).not.toBe(413);
  // The server is still up and answering.
  expect((await request.get("/healthz")).status()).toBe(200);
});
