import type { APIResponse } from "@playwright/test";
import { accountAndEmails } from "./database";
import { PASSWORD, expect, linkFromEmail, logIn, logOut, newPerson, signUpAndConfirm, test } from "./support";

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

test("the outbox shows a stranger's browser no one else's email, even after typing their address into the public forms", async ({ page, browser, jsEnabled }) => {
  const owner = newPerson("owner");
  await signUpAndConfirm(page, owner, jsEnabled);
  await logOut(page);
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText("If an account exists for that address")).toBeVisible();
  // The browser that made the account reads its emails, the reset link included.
  expect(await linkFromEmail(page, owner.email, "/reset-password?token=")).toContain("/reset-password?token=");

  const stranger = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto("/dev/outbox");
  await expect(strangerPage.getByText("For privacy, you only see the emails sent to your own address")).toBeVisible();
  await expect(strangerPage.getByRole("article")).toHaveCount(0);
  // Asking for the owner's reset link, and trying their address at sign-up and sign-in, reveal nothing.
  await strangerPage.goto("/forgot-password");
  await strangerPage.getByLabel("Email").fill(owner.email);
  await strangerPage.getByRole("button", { name: "Send reset link" }).click();
  await expect(strangerPage.getByText("If an account exists for that address")).toBeVisible();
  await logIn(strangerPage, owner.email, "a-guess-at-it");
  await expect(strangerPage.getByText("Invalid login credentials")).toBeVisible();
  await strangerPage.goto("/dev/outbox");
  await expect(strangerPage.getByRole("article")).toHaveCount(0);
  await expect(strangerPage.getByText(owner.email)).toHaveCount(0);

  // Signed in as someone else, the stranger sees their own emails only.
  const other = newPerson("sitter");
  await signUpAndConfirm(strangerPage, other, jsEnabled);
  await strangerPage.goto("/dev/outbox");
  await expect(strangerPage.getByTestId("email-to").getByText(other.email, { exact: true }).first()).toBeVisible();
  await expect(strangerPage.getByText(owner.email)).toHaveCount(0);
  await stranger.close();
  // The closing accessibility check looks at the owner's outbox, with its note on whose emails show.
  await page.goto("/dev/outbox");
  await expect(page.getByText("For privacy, you only see the emails sent to your own address")).toBeVisible();
});

test("a public form posted without its honeypot fields is refused as spam", async ({ request, jsEnabled }) => {
  test.skip(!jsEnabled, "a script's post does not depend on the browser");
  const owner = newPerson("owner");
  const origin = { Origin: new URL(test.info().project.use.baseURL!).origin };
  const posts: { path: string; form: Record<string, string> }[] = [
    { path: "/auth?mode=login", form: { intent: "login", email: owner.email, password: PASSWORD } },
    { path: "/auth?mode=signup&role=owner", form: { intent: "signup", role: "owner", name: "Bo Bot", city: "Madrid", postalCode: "28004", phone: "+34 600 111 222", email: owner.email, password: PASSWORD } },
    { path: "/auth?mode=login", form: { intent: "resend", email: owner.email } },
    { path: "/forgot-password", form: { email: owner.email } },
  ];
  for (const { path, form } of posts) {
    const response = await request.post(path, { headers: origin, form, maxRedirects: 0 });
    expect(response.status(), path).toBe(429);
    expect(await response.text()).toContain("Your request could not be processed. Please try again.");
  }
  // Nothing was done: no account, no email.
  expect(accountAndEmails(owner.email)).toEqual({ account: false, emails: 0 });
});
