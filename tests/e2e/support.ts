import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Browser, type Page } from "@playwright/test";

export { expect };

const pagesWithoutJs = new WeakMap<Page, Browser>();

// axe is a script, so a page without JavaScript is checked through a copy: the same HTML (scripts
// removed, <noscript> shown) served at the same address to a page that may run axe.
export async function expectAccessible(page: Page) {
  await page.waitForLoadState("load");
  const browser = pagesWithoutJs.get(page);
  const target = browser ? await scriptFreeCopy(page, browser) : page;
  try {
    const results = await new AxeBuilder({ page: target }).analyze();
    const problems = results.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
    expect(problems, `axe violations on ${page.url()}`).toEqual([]);
  } finally {
    if (target !== page) await target.context().close();
  }
}

async function scriptFreeCopy(page: Page, browser: Browser): Promise<Page> {
  const html = (await page.content())
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "")
    .replace(/<(\/?)noscript>/gi, "<$1div>");
  const context = await browser.newContext({ viewport: page.viewportSize(), javaScriptEnabled: true });
  const copy = await context.newPage();
  const url = page.url();
  await copy.route("**/*", (route) =>
    route.request().url() === url
      ? route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html })
      : route.request().resourceType() === "script"
        ? route.abort()
        : route.continue(),
  );
  await copy.goto(url);
  return copy;
}

/** Every test also ends with an accessibility check of the last page it saw. */
export const test = base.extend<{ jsEnabled: boolean }>({
  jsEnabled: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  page: async ({ page, browser, javaScriptEnabled }, use) => {
    if (javaScriptEnabled === false) pagesWithoutJs.set(page, browser);
    await use(page);
    if (page.url().startsWith("http")) await expectAccessible(page);
  },
});

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

export function newPerson(role: Person["role"] = "owner", details: Partial<Pick<Person, "name" | "city">> = {}): Person {
  return { name: role === "owner" ? "Olga Owner" : "Sam Sitter", city: "Madrid", email: uniqueEmail(role), password: PASSWORD, role, ...details };
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

// /dev/outbox shows a browser only the emails of accounts it signed up or signed in with.
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

export async function signUpAndConfirm(page: Page, person: Person, jsEnabled: boolean) {
  await page.goto(`/auth?mode=signup&role=${person.role === "sitter" ? "walker" : "owner"}`);
  await fillSignup(page, person);
  await expect(page.getByText("We sent you a confirmation link")).toBeVisible();
  await confirmEmail(page, person, jsEnabled);
}

export async function confirmEmail(page: Page, person: Person, jsEnabled: boolean) {
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
