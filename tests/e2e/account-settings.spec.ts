import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { dataDir, databaseFile } from "./data-dir";
import {
  PASSWORD,
  expect,
  expectAccessible,
  logIn,
  newPerson,
  signUpAndConfirm,
  test,
  uniqueEmail,
  type Person,
} from "./support";

function database() {
  const opened = new Database(databaseFile, { readonly: true });
  opened.pragma("busy_timeout = 5000");
  return opened;
}

/** The email-change link sent to an address no browser has proved yet, read from the outbox. */
function changeLinkTo(address: string): string {
  const opened = database();
  try {
    const row = opened
      .prepare("select text_body from email_outbox where to_address = ? order by id desc")
      .get(address) as { text_body: string } | undefined;
    const link = row ? /https?:\/\/\S+\/settings\/email\/confirm\?token=\S+/.exec(row.text_body)?.[0] : undefined;
    if (!link) throw new Error(`No change link to ${address}`);
    return new URL(link).pathname + new URL(link).search;
  } finally {
    opened.close();
  }
}

function userIdOf(email: string): string {
  const opened = database();
  try {
    return (opened.prepare("select id from users where email = ?").get(email) as { id: string }).id;
  } finally {
    opened.close();
  }
}

/** A token as the server signs the unsubscribe links of its emails (the test server keeps its secret in its data folder). */
function unsubscribeToken(userId: string, kind: string): string {
  const secret = readFileSync(path.join(dataDir, ".session-secret"), "utf8").trim();
  return `${userId}.${kind}.${createHmac("sha256", secret).update(`unsubscribe\0${userId}\0${kind}`).digest("base64url")}`;
}

async function openSettings(page: Page) {
  await page.goto("/profile");
  await page.getByRole("link", { name: "Account settings" }).click();
  await expect(page.getByRole("heading", { name: "Account settings", level: 1 })).toBeVisible();
}

async function member(page: Page, jsEnabled: boolean, city = "Madrid"): Promise<Person> {
  const person = { ...newPerson("owner"), city };
  await signUpAndConfirm(page, person, jsEnabled);
  return person;
}

test("changes the email only when the link sent to the new address is followed", async ({ page, jsEnabled }) => {
  const person = await member(page, jsEnabled);
  await openSettings(page);
  await expectAccessible(page);
  const newEmail = uniqueEmail("moved");

  const form = page.locator("form", { has: page.getByLabel("New email") });
  await form.getByLabel("New email").fill("not an email");
  await form.getByLabel("Current password").fill(PASSWORD);
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(form.getByText("Invalid email address.")).toBeVisible();
  await expect(form.getByLabel("New email")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("New email").fill(newEmail);
  await form.getByLabel("Current password").fill("not my password");
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(form.getByText("That password is not right.")).toBeVisible();
  await expect(form.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);

  await form.getByLabel("New email").fill(newEmail);
  await form.getByLabel("Current password").fill(PASSWORD);
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(
    page.getByText(`If ${newEmail} can be used, a confirmation link is on its way there.`, { exact: false }),
  ).toBeVisible();
  await expect(page.getByText(`Your email is ${person.email}.`)).toBeVisible();

  const link = changeLinkTo(newEmail);
  await page.goto(link);
  await expect(page.getByText(`Use ${newEmail} as the email of your account?`)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Confirm new email" }).click();
  await expect(page.getByText(`Your email is now ${newEmail}.`)).toBeVisible();
  await expectAccessible(page);

  await page.goto(link);
  await expect(page.getByText("This link is not valid or has already been used.")).toBeVisible();

  await page.context().clearCookies();
  await logIn(page, newEmail, PASSWORD);
  await expect(page).toHaveURL(/\/(dashboard|pet-profile-setup)/);
});

test.describe("with the browser's time zone", () => {
  test.use({ timezoneId: "Asia/Tokyo" });

  test("saves notification choices and the time zone, and unsubscribes in one click without signing in", async ({
    page,
    jsEnabled,
    playwright,
  }) => {
    const person = await member(page, jsEnabled, "Warsaw");
    await openSettings(page);
    // With scripts the browser's zone was sent at sign-up; without, the city's.
    const expectedZone = jsEnabled ? "Asia/Tokyo" : "Europe/Warsaw";
    await expect(page.getByText(`Times are shown in ${expectedZone.replace("_", " ")}.`)).toBeVisible();
    await page.getByRole("button", { name: "Update time zone" }).click();
    await expect(page.getByText(`Time zone set to ${expectedZone}.`)).toBeVisible();

    const messages = page.getByRole("group", { name: "Messages" });
    await expect(messages.getByLabel("In the app only")).toBeChecked();
    await expect(page.getByRole("group", { name: "Bookings" }).getByLabel("In the app and by email")).toBeChecked();
    await expect(
      page.getByRole("group", { name: "News and offers from Trusted Sitters" }).getByLabel("No, thanks"),
    ).toBeChecked();
    await messages.getByText("In the app and by email").click();
    await page.getByRole("button", { name: "Save notification settings" }).click();
    await expect(page.getByText("Notification settings saved.")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("group", { name: "Messages" }).getByLabel("In the app and by email")).toBeChecked();
    await expectAccessible(page);

    // The link in an email, opened anywhere: a page with a button (link scanners change nothing).
    const token = unsubscribeToken(userIdOf(person.email), "bookings");
    await page.goto(`/unsubscribe?token=${encodeURIComponent(token)}`);
    await expect(page.getByText("Stop emails about: Bookings?")).toBeVisible();
    await expectAccessible(page);
    const stranger = await page.context().browser()!.newContext({ javaScriptEnabled: jsEnabled });
    const elsewhere = await stranger.newPage();
    await elsewhere.goto(`/unsubscribe?token=${encodeURIComponent(token)}`);
    await expect(elsewhere.getByText("Stop emails about: Bookings?")).toBeVisible();
    await elsewhere.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(elsewhere.getByText("Done. You will no longer get emails about: Bookings.")).toBeVisible();
    // axe runs scripts: the page without them is checked above, through the test's own page.
    if (jsEnabled) await expectAccessible(elsewhere);

    // A forged token, or one moved to another kind, is refused.
    await elsewhere.goto(`/unsubscribe?token=${encodeURIComponent(token.replace(".bookings.", ".marketing."))}`);
    await expect(elsewhere.getByText("This unsubscribe link is not valid.")).toBeVisible();
    await stranger.close();

    // A mail client's own button (RFC 8058): a POST with no cookie and no page.
    const mailClient = await playwright.request.newContext({ baseURL: page.url() });
    const reviews = unsubscribeToken(userIdOf(person.email), "reviews");
    const oneClick = await mailClient.post(`/unsubscribe?token=${encodeURIComponent(reviews)}`, {
      form: { "List-Unsubscribe": "One-Click" },
      maxRedirects: 0,
    });
    expect(oneClick.status()).toBe(200);
    const forged = await mailClient.post(`/unsubscribe?token=${encodeURIComponent(`${reviews.slice(0, -3)}abc`)}`, {
      form: { "List-Unsubscribe": "One-Click" },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(400);
    await mailClient.dispose();

    await page.goto("/settings");
    await expect(page.getByRole("group", { name: "Bookings" }).getByLabel("In the app only")).toBeChecked();
    await expect(page.getByRole("group", { name: "Reviews" }).getByLabel("In the app only")).toBeChecked();
    await expect(page.getByRole("group", { name: "Messages" }).getByLabel("In the app and by email")).toBeChecked();
  });
});

test("downloads a ZIP of one's data through a plain link, once a day", async ({ page, jsEnabled }) => {
  await member(page, jsEnabled);
  await openSettings(page);
  await page.getByRole("button", { name: "Prepare my data" }).click();
  await expect(page.getByText("Your data is ready to download.")).toBeVisible();
  const link = page.getByRole("link", { name: "Download my data (ZIP)" });
  await expect(link).toHaveAttribute("href", /^\/settings\/export\/[0-9a-f-]{36}$/);
  await expectAccessible(page);

  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^trusted-sitters-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const archive = readFileSync((await download.path())!);
  expect(archive.subarray(0, 2).toString("latin1")).toBe("PK");
  expect(archive.includes(Buffer.from("data.json"))).toBe(true);

  // A second request the same day (a form posted again) is refused with a message.
  const again = await page.request.post("/settings", {
    form: { intent: "export" },
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(again.status()).toBe(302);
  await page.goto("/settings");
  await expect(page.getByText("You already asked for your data today.", { exact: false })).toBeVisible();

  // The link is the asker's own: without the session it leads to sign-in, not to the file.
  const href = (await link.getAttribute("href"))!;
  await page.context().clearCookies();
  await page.goto(href);
  await expect(page).toHaveURL(/\/auth\?mode=login/);
});

test("deletes the account after the password, signs out everywhere, and frees the address", async ({
  page,
  jsEnabled,
}) => {
  const person = await member(page, jsEnabled);
  await openSettings(page);
  const form = page.locator("form", { has: page.getByLabel("Your password") });
  await expect(page.getByText("Your premium subscription ends, with no further charge.")).toBeVisible();
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(form.getByText("Please enter your password")).toBeVisible();
  await form.getByLabel("Your password").fill("not my password");
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(form.getByText("That password is not right.")).toBeVisible();
  await expect(form.getByLabel("Your password")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);

  await form.getByLabel("Your password").fill(PASSWORD);
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("Your account has been deleted. Goodbye, and thank you.")).toBeVisible();
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/auth\?mode=login/);

  await logIn(page, person.email, PASSWORD);
  await expect(page.getByText("Invalid login credentials")).toBeVisible();

  // The same address can sign up again.
  await signUpAndConfirm(page, { ...person, name: "Olga Again" }, jsEnabled);
});
