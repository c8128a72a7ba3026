import AxeBuilder from "@axe-core/playwright";
import { createHash } from "node:crypto";
import { test as base, expect, type Browser, type Page } from "@playwright/test";

export { expect };

const pagesWithoutJs = new WeakMap<Page, Browser>();
/** What this worker has already checked: the same markup gives axe the same answer. */
const checkedMarkup = new Set<string>();
const copyPages = new WeakMap<Browser, Page>();

// axe is a script, so a page without JavaScript is checked through a copy: the same HTML (scripts and
// module preloads removed, <noscript> shown, its address as the base of its links) in a page that may
// run axe, one page per browser: a new page per check, or a route serving the copy (which turns off the
// browser's cache), cost more than axe itself.
export async function expectAccessible(page: Page) {
  await page.waitForLoadState("load");
  const browser = pagesWithoutJs.get(page);
  const html = await page.content();
  // Nonces and the ids React makes per render change nothing axe looks at.
  const markup = createHash("sha256")
    .update(`${browser ? "no-js" : "js"} ${page.viewportSize()?.width} ${page.url()} `)
    .update(html.replace(/\snonce="[^"]*"/g, "").replace(/:r[0-9a-z]+:/g, ":r:"))
    .digest("hex");
  if (checkedMarkup.has(markup)) return;
  const target = browser ? await scriptFreeCopy(page, browser, html) : page;
  // axe.run in the page itself (our pages have no cross-origin frames), reporting only violations:
  // the default finishes each check in a new blank page and serialises every passing node.
  const results = await new AxeBuilder({ page: target })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] })
    .analyze();
  const problems = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
  expect(problems, `axe violations on ${page.url()}`).toEqual([]);
  checkedMarkup.add(markup);
}

async function scriptFreeCopy(page: Page, browser: Browser, html: string): Promise<Page> {
  const address = page.url();
  const copyHtml = html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, "")
    .replace(/<(\/?)noscript>/gi, "<$1div>")
    .replace(/<head>/i, `<head><base href="${address.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}">`);
  let copy = copyPages.get(browser);
  if (!copy) {
    const context = await browser.newContext({ javaScriptEnabled: true });
    copy = await context.newPage();
    copyPages.set(browser, copy);
  }
  await copy.setViewportSize(page.viewportSize() ?? { width: 393, height: 851 });
  await copy.setContent(copyHtml, { waitUntil: "load" });
  // A written document may style its elements before its stylesheet arrives: colours then fade in.
  await copy.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
  return copy;
}

/**
 * Every test also ends with an accessibility check of the last page it saw, and fails if a script of
 * its pages threw: a page whose server and browser render different text (a date in another zone)
 * throws away its server HTML while the person is already pressing it.
 */
export const test = base.extend<{ jsEnabled: boolean }>({
  jsEnabled: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  page: async ({ page, browser, javaScriptEnabled }, use) => {
    if (javaScriptEnabled === false) pagesWithoutJs.set(page, browser);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
    await use(page);
    expect(errors, "errors thrown by the page's scripts").toEqual([]);
    if (page.url().startsWith("http")) await expectAccessible(page);
  },
});

/** Waits until React has hydrated the page: it marks each element it has hydrated, <body> once everything inside it is. */
export async function reactHydrated(page: Page) {
  await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith("__reactFiber$")));
}

export async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  await expectAccessible(page);
  return response;
}

let sequence = 0;
export function uniqueEmail(prefix = "user"): string {
  sequence += 1;
  return `${prefix}-${Date.now().toString(36)}-${sequence}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

export const PASSWORD = "walkies-at-dawn-42";

export interface Person {
  name: string;
  email: string;
  password: string;
  role: "owner" | "sitter";
  city: string;
}

export function newPerson(
  role: Person["role"] = "owner",
  details: Partial<Pick<Person, "name" | "city">> = {},
): Person {
  return {
    name: role === "owner" ? "Olga Owner" : "Sam Sitter",
    city: "Madrid",
    email: uniqueEmail(role),
    password: PASSWORD,
    role,
    ...details,
  };
}

export async function fillSignup(page: Page, person: Person) {
  await page.getByLabel("Full name").fill(person.name);
  await page.getByLabel("City").fill(person.city);
  await page.getByLabel("Postal code").fill("28004");
  await page.getByLabel("Phone").fill("+34 600 123 456");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password", { exact: true }).fill(person.password);
  await page.getByRole("button", { name: "Sign Up" }).click();
}

// /dev/outbox shows a browser only the emails of the account it is signed in to, or of accounts it signed in to before.
export async function linkFromEmail(page: Page, to: string, part: string): Promise<string> {
  await page.goto("/dev/outbox");
  const email = page
    .getByRole("article")
    .filter({ has: page.getByTestId("email-to").getByText(to, { exact: true }) })
    .filter({ has: page.getByRole("link").filter({ hasText: part }) })
    .first();
  const href = await email.getByRole("link").filter({ hasText: part }).first().getAttribute("href");
  if (!href) throw new Error(`No ${part} link in the email to ${to}`);
  return href;
}

/** Signs up through the screens a person sees (accounts.spec.ts), and confirms the email. */
export async function signUpAndConfirmInBrowser(page: Page, person: Person, jsEnabled: boolean) {
  await page.goto(`/auth?mode=signup&role=${person.role === "sitter" ? "walker" : "owner"}`);
  await fillSignup(page, person);
  await expect(page.getByText("We sent you a confirmation link")).toBeVisible();
  await confirmEmail(page, person, jsEnabled);
}

/**
 * A new person for a test about something else: signed up and confirmed through the same routes and
 * fields as the screens (honeypot included, cookies kept in the page's browser), without drawing each
 * step; the screens themselves are tested in accounts.spec.ts, with and without JavaScript. Ends, as
 * a person would, on their setup page.
 */
export async function signUpAndConfirm(page: Page, person: Person, jsEnabled: boolean) {
  const request = page.context().request;
  const signup = `/auth?mode=signup&role=${person.role === "sitter" ? "walker" : "owner"}`;
  const signupPage = await request.get(signup);
  const origin = new URL(signupPage.url()).origin;
  const fields = formFieldsOf(await signupPage.text(), "signup");
  // With JavaScript the form sends the browser's time zone.
  if (jsEnabled) fields.timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  Object.assign(fields, {
    name: person.name,
    city: person.city,
    postalCode: "28004",
    phone: "+34 600 123 456",
    email: person.email,
    password: person.password,
  });
  const signedUp = await request.post(signup, { form: fields, headers: { Origin: origin }, maxRedirects: 0 });
  expect(signedUp.status(), "sign-up answers with a redirect").toBe(302);
  // The outbox shows the account's emails once this browser has given its password.
  const loginPage = await request.get("/auth?mode=login");
  const login = Object.assign(formFieldsOf(await loginPage.text(), "login"), {
    email: person.email,
    password: person.password,
  });
  const unconfirmed = await request.post("/auth?mode=login", {
    form: login,
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(unconfirmed.status(), "the right password of an unconfirmed account is answered, not let in").toBe(400);
  const link = linkIn(await (await request.get("/dev/outbox")).text(), person.email, "/auth/callback");
  const confirmed = await request.post(link, {
    form: { token: new URL(link, origin).searchParams.get("token") ?? "" },
    headers: { Origin: origin },
  });
  expect(confirmed.ok(), "the confirmation link confirms").toBe(true);
  await page.goto(person.role === "owner" ? "/pet-profile-setup" : "/sitter-profile-setup");
  await page.waitForURL(person.role === "owner" ? "**/pet-profile-setup" : "**/sitter-profile-setup");
}

/** The fields a form of this page would send untouched: its hidden inputs and the honeypot's. */
export function formFieldsOf(html: string, formId?: string): Record<string, string> {
  let part = html;
  if (formId) {
    const start = html.indexOf(`id="${formId}"`);
    if (start < 0) throw new Error(`No form #${formId} on the page`);
    part = html.slice(html.lastIndexOf("<form", start), html.indexOf("</form>", start));
  }
  const fields: Record<string, string> = {};
  for (const input of part.matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]+)"/.exec(input[0])?.[1];
    if (!name || !/type="hidden"|autoComplete="nope"|tabindex="-1"/i.test(input[0])) continue;
    fields[name] = unescapeHtml(/\bvalue="([^"]*)"/.exec(input[0])?.[1] ?? "");
  }
  return fields;
}

const unescapeHtml = (text: string) =>
  text
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** The first link containing `part` in the outbox's email to `to` (the outbox page's HTML). */
function linkIn(outbox: string, to: string, part: string): string {
  for (const article of outbox.split("<article").slice(1)) {
    if (!article.includes(`>${to}<`)) continue;
    for (const match of article.matchAll(/href="([^"]+)"/g)) {
      const href = unescapeHtml(match[1]!);
      if (href.includes(part)) return href;
    }
  }
  throw new Error(`No ${part} link in the email to ${to}`);
}

/** Signing up is not enough to read the account's emails: the right password makes the browser the owner's. */
export async function proveUnconfirmedAccount(page: Page, person: Person) {
  await logIn(page, person.email, person.password);
  await expect(page.getByText("Please confirm your email address before signing in.")).toBeVisible();
}

export async function confirmEmail(page: Page, person: Person, jsEnabled: boolean) {
  await proveUnconfirmedAccount(page, person);
  const link = await linkFromEmail(page, person.email, "/auth/callback");
  await page.goto(link);
  if (!jsEnabled) {
    await page.getByRole("button", { name: "Confirm my email" }).click();
    await expect(page.getByRole("heading", { name: "Email confirmed!" })).toBeVisible();
    await page.getByRole("link", { name: "Continue" }).click();
  }
  await page.waitForURL(person.role === "owner" ? "**/pet-profile-setup" : "**/sitter-profile-setup");
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto("/auth?mode=login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

export async function logOut(page: Page) {
  await page.goto("/profile");
  await page.getByRole("button", { name: "Log out" }).click();
  await page.waitForURL("**/auth?mode=login");
}
