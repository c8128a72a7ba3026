import type { Browser, Page } from "@playwright/test";
import { grantOperator } from "./database";
import { ownerWithDog, sitterIn } from "./people";
import { expect, expectAccessible, logIn, logOut, newPerson, signUpAndConfirm, test, visit } from "./support";

const topCardName = (page: Page) => page.getByTestId("top-card").getByRole("heading", { level: 2 });

/** Local mode from the deck's prompt (the city is used when the browser gives no position). */
async function browseLocally(page: Page, city: string) {
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(page.getByText(`Showing profiles near ${city}`)).toBeVisible();
}

/** An owner and a sitter of one town who liked each other; the sitter has written to the owner. */
async function matchedPair(page: Page, jsEnabled: boolean, city: string, suffix: string, firstMessage: string) {
  const sitter = await sitterIn(page, jsEnabled, { name: `Sven Sitter ${suffix}`, city });
  const owner = await ownerWithDog(page, jsEnabled, { name: `Olga Owner ${suffix}`, city, dog: "Pip" });
  await browseLocally(page, city);
  await page.getByRole("button", { name: `Like ${sitter.name}` }).click();
  await expect(page.getByRole("button", { name: "Start Over" })).toBeVisible();
  await logOut(page);
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await browseLocally(page, city);
  await page.getByRole("button", { name: "Like Pip" }).click();
  await page.getByRole("dialog", { name: "It's a Match!" }).getByRole("link", { name: "Send Message" }).click();
  await page.getByRole("textbox", { name: "Message" }).fill(firstMessage);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("log").getByText(firstMessage)).toBeVisible();
  return { sitter, owner };
}

async function signedInContext(browser: Browser, jsEnabled: boolean, email: string, password: string) {
  const context = await browser.newContext({
    ...(jsEnabled ? {} : { javaScriptEnabled: false }),
    viewport: { width: 1024, height: 900 },
    locale: "en-GB",
  });
  const page = await context.newPage();
  await logIn(page, email, password);
  await page.waitForURL(/\/(dashboard|pet-profile-setup|sitter-profile-setup)/);
  return page;
}

test("an owner reports a message; the operator hides it and suspends the sender, who is signed out and gone from the deck", async ({
  page,
  browser,
  jsEnabled,
}) => {
  test.setTimeout(300_000);
  const [city, suffix] = jsEnabled ? ["Akureyri", "J"] : ["Steinkjer", "N"];
  const scam = `Pay me by bank transfer and I will give you a discount (${suffix})`;
  const { sitter, owner } = await matchedPair(page, jsEnabled, city, suffix, scam);
  // The sender stays signed in, in a browser of their own.
  const sitterPage = await signedInContext(browser, jsEnabled, sitter.email, sitter.password);
  await sitterPage.goto("/messages");
  await expect(sitterPage.getByRole("link", { name: new RegExp(owner.name) })).toBeVisible();

  // The owner, in another browser, reports the message.
  const ownerPage = await signedInContext(browser, jsEnabled, owner.email, owner.password);
  await ownerPage.goto("/messages");
  await ownerPage.getByRole("link", { name: new RegExp(sitter.name) }).click();
  await ownerPage.getByRole("log").getByRole("link", { name: "Report" }).click();
  await expect(ownerPage.getByRole("heading", { name: "Report a message" })).toBeVisible();
  await ownerPage.getByRole("button", { name: "Send report" }).click();
  await expect(ownerPage.getByText("Choose a reason.")).toBeVisible();
  await ownerPage.getByRole("radio", { name: "Scam or fraud" }).check();
  await ownerPage.getByLabel("What happened (optional)").fill("Wants money outside the app.");
  await ownerPage.getByRole("button", { name: "Send report" }).click();
  await expect(ownerPage.getByText("Report received")).toBeVisible();
  await expect(ownerPage.getByRole("log").getByText(scam)).toBeVisible();
  if (jsEnabled) await expectAccessible(ownerPage);
  // A second report of the same message is refused with a reason.
  await ownerPage.getByRole("log").getByRole("link", { name: "Report" }).click();
  await ownerPage.getByRole("radio", { name: "Harassment" }).check();
  await ownerPage.getByRole("button", { name: "Send report" }).click();
  await expect(ownerPage.getByText("You already reported this.")).toBeVisible();

  // The operator: an account given the role on the server, nobody can sign up for it.
  const operator = newPerson("owner", { name: `Oona Operator ${suffix}`, city });
  await logOut(page);
  await signUpAndConfirm(page, operator, jsEnabled);
  const refused = await page.goto("/admin");
  expect(refused?.status()).toBe(404);
  grantOperator(operator.email);
  await visit(page, "/admin");
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page.getByRole("table", { name: "Sign-ups per day" })).toHaveCount(1);
  await page
    .getByRole("navigation", { name: "Console sections" })
    .getByRole("link", { name: /Reports/ })
    .click();
  const report = page.getByRole("listitem").filter({ hasText: scam });
  await expect(report).toBeVisible();
  await expect(report).toContainText("Wants money outside the app.");
  await expect(report).toContainText(owner.name);
  await expectAccessible(page);
  await report.getByRole("textbox", { name: /Reason/ }).fill("Payment outside the platform");
  await report.getByRole("button", { name: "Hide the content" }).click();
  await expect(page.getByText("Content hidden")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: scam })).toHaveCount(0);
  await page.getByRole("link", { name: "Closed" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: scam })).toContainText("Content hidden");

  // Everyone now sees the message as removed.
  await ownerPage.getByRole("link", { name: "Back" }).click();
  await expect(ownerPage.getByRole("log").getByText("Removed by Trusted Sitters")).toBeVisible();
  await expect(ownerPage.getByRole("log").getByText(scam)).toHaveCount(0);

  // The operator suspends the sender from their page.
  await page.getByRole("link", { name: "People", exact: true }).click();
  await page.getByLabel("Search by name or email").fill(sitter.email);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  await page.getByRole("link", { name: new RegExp(sitter.name) }).click();
  await expect(page.getByRole("heading", { name: sitter.name, level: 1 })).toBeVisible();
  await expectAccessible(page);
  const reason = `Asked an owner to pay outside the platform (${suffix})`;
  await page.getByRole("textbox", { name: /Reason/ }).fill(reason);
  await page.getByRole("button", { name: "Suspend" }).click();
  await expect(page.getByText(/Suspended\. Open bookings cancelled: 0/)).toBeVisible();
  await expect(page.getByText(/Suspended since/)).toBeVisible();
  await page.getByRole("link", { name: "Audit log" }).click();
  const entry = page.getByRole("listitem").filter({ hasText: reason });
  await expect(entry).toContainText("Person suspended");
  await expect(entry).toContainText(operator.name);
  await expect(page.getByRole("listitem").filter({ hasText: "Payment outside the platform" }).first()).toContainText(
    "Message hidden",
  );

  // The sender's old cookie gets nothing: the next page asks them to sign in, and signing in is refused.
  await sitterPage.goto("/messages");
  await expect(sitterPage).toHaveURL(/\/auth\?mode=login/);
  await logIn(sitterPage, sitter.email, sitter.password);
  await expect(sitterPage.getByText("This account is suspended.")).toBeVisible();
  await sitterPage.context().close();

  // And the owner's deck no longer has them, even after starting over.
  await ownerPage.goto("/dashboard");
  await ownerPage.getByRole("button", { name: "Start Over" }).click();
  await expect(ownerPage.getByRole("heading", { name: "No more profiles" })).toBeVisible();
  await expect(ownerPage.getByText(sitter.name)).toHaveCount(0);
  await ownerPage.context().close();
});

test("a block hides two people from each other and closes their chat, until it is lifted", async ({
  page,
  browser,
  jsEnabled,
}) => {
  test.setTimeout(240_000);
  // Towns far apart (local mode reaches 50 km), so the two projects never see each other's people.
  const [city, suffix] = jsEnabled ? ["Longyearbyen", "J"] : ["Kongsberg", "N"];
  const { sitter, owner } = await matchedPair(page, jsEnabled, city, suffix, "Hello! Happy to walk Pip.");

  // The sitter (this page) starts over: Pip is in their deck.
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Start Over" }).click();
  await expect(topCardName(page)).toHaveText("Pip");

  const ownerPage = await signedInContext(browser, jsEnabled, owner.email, owner.password);
  await ownerPage.goto("/messages");
  await ownerPage.getByRole("link", { name: new RegExp(sitter.name) }).click();
  await ownerPage.getByRole("link", { name: "Block", exact: true }).click();
  await expect(ownerPage.getByRole("heading", { name: `Block ${sitter.name}?` })).toBeVisible();
  if (jsEnabled) await expectAccessible(ownerPage);
  await ownerPage.getByRole("button", { name: `Block ${sitter.name}` }).click();
  await expect(ownerPage.getByText("Blocked", { exact: true })).toBeVisible();
  // The blocker keeps the history; nobody can write.
  await expect(ownerPage.getByRole("log").getByText("Hello! Happy to walk Pip.")).toBeVisible();
  await expect(ownerPage.getByText("This conversation is closed.", { exact: false })).toBeVisible();
  await expect(ownerPage.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  await ownerPage.goto("/dashboard");
  await ownerPage.getByRole("button", { name: "Start Over" }).click();
  await expect(ownerPage.getByRole("heading", { name: "No more profiles" })).toBeVisible();

  // The blocked sitter: no Pip in the deck, no conversation, no profile.
  await page.reload();
  await expect(page.getByRole("heading", { name: "No more profiles" })).toBeVisible();
  await visit(page, "/messages");
  await expect(page.getByRole("link", { name: new RegExp(owner.name) })).toHaveCount(0);
  await expect(page.getByText("No conversations yet.", { exact: false })).toBeVisible();

  // Lifted from the owner's privacy section: both see each other again.
  await ownerPage.goto("/profile");
  await ownerPage.getByRole("link", { name: "Privacy and blocked people" }).click();
  await expect(ownerPage.getByRole("listitem").filter({ hasText: sitter.name })).toBeVisible();
  if (jsEnabled) await expectAccessible(ownerPage);
  await ownerPage.getByRole("button", { name: `Unblock ${sitter.name}` }).click();
  await expect(ownerPage.getByText("You have not blocked anyone.")).toBeVisible();
  await page.goto("/dashboard");
  await expect(topCardName(page)).toHaveText("Pip");
  await ownerPage.context().close();
});
