import type { APIResponse } from "@playwright/test";
import { accountAndEmails } from "./database";
import { ownerWithDog, sitterIn } from "./people";
import {
  PASSWORD,
  expect,
  expectAccessible,
  linkFromEmail,
  logIn,
  logOut,
  newPerson,
  signUpAndConfirm,
  test,
} from "./support";

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

test("every response carries the security headers, with a fresh script nonce each time", async ({
  request,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "headers do not depend on the browser");
  const nonces = new Set<string | undefined>();
  for (const path of [
    "/welcome",
    "/welcome",
    "/auth?mode=login",
    "/healthz",
    "/no/such/page",
    "/media/not-a-key.webp",
    "/locales/en",
  ]) {
    nonces.add(expectSecurityHeaders(await request.get(path)));
  }
  expect(nonces.size).toBe(7);
});

test("sessions: HttpOnly SameSite=Lax cookie, a new id at each sign-in, dead after logout", async ({
  page,
  browser,
  jsEnabled,
}) => {
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

test("six tabs of one person: the oldest tab's live updates end and stay closed until it is looked at again, with no reconnect loop", async ({
  page,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "live updates need JavaScript");
  const context = page.context();
  // Counts each tab's event streams and what happens to them.
  await context.addInitScript(() => {
    const Native = window.EventSource;
    const live = { opened: 0, displaced: 0, sources: [] as EventSource[] };
    Object.assign(window, { __live: live });
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        live.opened += 1;
        live.sources.push(this);
        this.addEventListener("displaced", () => (live.displaced += 1));
      }
    };
  });
  let streamRequests = 0;
  context.on("request", (request) => {
    if (new URL(request.url()).pathname === "/events") streamRequests += 1;
  });
  type Live = { opened: number; displaced: number; states: number[] };
  const liveOf = (tab: typeof page) =>
    tab.evaluate(() => {
      const live = (window as unknown as { __live: { opened: number; displaced: number; sources: EventSource[] } })
        .__live;
      return {
        opened: live.opened,
        displaced: live.displaced,
        states: live.sources.map((source) => source.readyState),
      } satisfies Live;
    });
  const OPEN = 1;
  const CLOSED = 2;

  await signUpAndConfirm(page, newPerson("owner"), jsEnabled);
  const tabs = [page];
  for (let i = 0; i < 6; i += 1) {
    const tab = i === 0 ? page : await context.newPage();
    if (i > 0) tabs.push(tab);
    await tab.goto("/profile");
    await expect.poll(async () => (await liveOf(tab)).states.at(-1)).toBe(OPEN);
    // From here on, every stream request is one of the six tabs' on /profile.
    if (i === 0) streamRequests = 1;
  }
  expect(streamRequests).toBe(6);

  await expect.poll(() => liveOf(tabs[0]!)).toEqual({ opened: 1, displaced: 1, states: [CLOSED] });
  for (const tab of tabs.slice(1)) expect(await liveOf(tab)).toEqual({ opened: 1, displaced: 0, states: [OPEN] });

  // Looked at again, the first tab connects afresh; the oldest other tab makes way and stays closed.
  await tabs[0]!.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect.poll(async () => (await liveOf(tabs[0]!)).states).toEqual([CLOSED, OPEN]);
  await expect.poll(() => liveOf(tabs[1]!)).toEqual({ opened: 1, displaced: 1, states: [CLOSED] });
  for (const tab of tabs.slice(2)) expect(await liveOf(tab)).toEqual({ opened: 1, displaced: 0, states: [OPEN] });
  expect(streamRequests).toBe(7);
  for (const tab of tabs.slice(1)) await tab.close();
});

test("the deck sends nobody's position and no distance finer than the whole kilometres it shows", async ({
  page,
  jsEnabled,
}) => {
  test.skip(
    !jsEnabled,
    "what the server sends does not depend on the browser; the victim's phone needs JavaScript to share its position",
  );
  test.setTimeout(150_000);
  // A sitter whose phone shares its exact position…
  const victim = await sitterIn(page, jsEnabled, { name: "Vera Pinpoint", city: "Elgin" });
  const victimAt = { latitude: 57.6498765, longitude: -3.3187654 };
  await page.context().grantPermissions(["geolocation"]);
  await page.context().setGeolocation(victimAt);
  await logIn(page, victim.email, victim.password);
  await page.waitForURL("**/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(page.getByText("Location enabled")).toBeVisible();
  await logOut(page);

  // …and someone 2.4 km away who sets their own position by hand and reads what the deck sends.
  await ownerWithDog(page, jsEnabled, { name: "Ivo Curious", city: "Elgin", dog: "Sniff" });
  const sent = await page.request.post("/dashboard", {
    form: { intent: "location", latitude: "57.6701234", longitude: "-3.3012345", tab: "sitters" },
    maxRedirects: 0,
  });
  expect(sent.status()).toBe(302);
  const html = await (await page.request.get("/dashboard?tab=sitters")).text();
  const data = await (await page.request.get("/dashboard.data?tab=sitters")).text();
  for (const body of [html, data]) {
    expect(body).toContain("Vera Pinpoint");
    // No coordinates (the victim's, as sent or as stored, or the asker's own) and no raw distance:
    // no figure with three decimals or more outside a timestamp's seconds.
    for (const coordinate of ["57.649", "-3.318", "57.65", "57.67", "-3.301"]) expect(body).not.toContain(coordinate);
    expect(body.match(/(?<![\d:.])-?\d+\.\d{3,}/g) ?? []).toEqual([]);
    expect(body).not.toMatch(/\d[.,]\d+\s?km/);
  }
  await page.goto("/dashboard?tab=sitters");
  await expect(page.getByTestId("top-card")).toContainText("Vera Pinpoint");
  await expect(page.getByTestId("top-card").getByText(/ away$/)).toHaveText(/^(< 1|\d+) km away$/);
  await expect(page.getByTestId("top-card").getByText(/ away$/)).toHaveText("2 km away");
});

test("a position moves ten times a day at most: then the deck keeps the last one and says why, and a new city is refused", async ({
  page,
  jsEnabled,
}) => {
  const owner = newPerson("owner", { name: "Mo Mover", city: jsEnabled ? "Kirkwall" : "Lerwick" });
  await signUpAndConfirm(page, owner, jsEnabled);
  const move = (index: number) =>
    page.request.post("/dashboard", {
      form: { intent: "location", latitude: String(59 + index * 0.02), longitude: "-3", tab: "sitters" },
      maxRedirects: 0,
    });
  for (let index = 0; index < 10; index += 1) expect((await move(index)).status()).toBe(302);
  // The same place again is free; another is refused. The request shares the page's cookies, so the page shows the toast.
  expect((await move(9)).status()).toBe(302);
  expect((await move(10)).status()).toBe(302);
  await page.goto("/dashboard");
  await expect(page.getByText("Your location was not updated")).toBeVisible();
  await expect(page.getByText("You can change your location 10 times a day.", { exact: false })).toBeVisible();
  await expectAccessible(page);

  // Location turned off goes back to the city, and a new city would be an eleventh move.
  await page.request.post("/dashboard", { form: { intent: "location-error", code: "denied" }, maxRedirects: 0 });
  await page.goto("/profile/edit");
  await page.getByLabel("City", { exact: true }).fill("Thurso");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("You have changed your location too many times today.", { exact: false })).toBeVisible();
  await expectAccessible(page);
  await page.goto("/profile/edit");
  await expect(page.getByLabel("City", { exact: true })).toHaveValue(owner.city);
});

test("the outbox shows a stranger's browser no one else's email, even after typing their address into the public forms", async ({
  page,
  browser,
  jsEnabled,
}) => {
  const owner = newPerson("owner");
  await signUpAndConfirm(page, owner, jsEnabled);
  await logOut(page);
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText("If an account exists for that address")).toBeVisible();
  // The browser the owner signed in from reads the account's emails, the reset link included.
  expect(await linkFromEmail(page, owner.email, "/reset-password?token=")).toContain("/reset-password?token=");

  const stranger = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto("/dev/outbox");
  await expect(
    strangerPage.getByText("For privacy, you only see the emails of the account you are signed in to"),
  ).toBeVisible();
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
  await expect(
    page.getByText("For privacy, you only see the emails of the account you are signed in to"),
  ).toBeVisible();
});

test("a public form posted without its honeypot fields is refused as spam", async ({ request, jsEnabled }) => {
  test.skip(!jsEnabled, "a script's post does not depend on the browser");
  const owner = newPerson("owner");
  const origin = { Origin: new URL(test.info().project.use.baseURL!).origin };
  const posts: { path: string; form: Record<string, string> }[] = [
    { path: "/auth?mode=login", form: { intent: "login", email: owner.email, password: PASSWORD } },
    {
      path: "/auth?mode=signup&role=owner",
      form: {
        intent: "signup",
        role: "owner",
        name: "Bo Bot",
        city: "Madrid",
        postalCode: "28004",
        phone: "+34 600 111 222",
        email: owner.email,
        password: PASSWORD,
      },
    },
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

test("a redirectTo that a browser would read as another site (tab, line breaks) leads to the dashboard after sign-in, never a 500", async ({
  page,
  jsEnabled,
  baseURL,
}) => {
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

test("a form post larger than any form sends is refused with a short translated page before it is read; the Stripe webhook takes at most a megabyte", async ({
  request,
  jsEnabled,
  baseURL,
}) => {
  test.skip(!jsEnabled, "the browser's JavaScript plays no part");
  const form = await request.post("/auth?mode=login", {
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: baseURL!,
      Accept: "text/html",
      "Accept-Language": "es-ES,es;q=0.9",
    },
    data: `intent=login&email=${"a".repeat(70 * 1024)}`,
  });
  expect(form.status()).toBe(413);
  const page = await form.text();
  expect(page).toContain("Se ha enviado demasiado");
  expect(page.length).toBeLessThan(2_000);
  expect(form.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  const webhook = await request.post("/webhooks/stripe", {
    headers: { "Content-Type": "application/json" },
    data: `{"a":"${"x".repeat(1.1 * 1024 * 1024)}"}`,
  });
  expect(webhook.status()).toBe(413);
  // Under the limit, the webhook reads it (and finds no valid signature).
  const small = await request.post("/webhooks/stripe", {
    headers: { "Content-Type": "application/json" },
    data: `{"a":"${"x".repeat(500 * 1024)}"}`,
  });
  expect(small.status()).toBeLessThan(500);
  expect(small.status()).not.toBe(413);
  // The server is still up and answering.
  expect((await request.get("/healthz")).status()).toBe(200);
});
