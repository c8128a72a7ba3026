import type { Page } from "@playwright/test";
import { ownerWithDog, sitterIn } from "./people";
import { expect, expectAccessible, logIn, logOut, newPerson, signUpAndConfirm, test, visit } from "./support";

/** Likes the card on top of the deck in local mode (the town has only the other person). */
async function likeNearby(page: Page, name: string, city: string) {
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(page.getByText(`Showing profiles near ${city}`)).toBeVisible();
  await page.getByRole("button", { name: `Like ${name}` }).click();
}

/** The like has reached the server once the deck offers to start over. */
async function likeSaved(page: Page) {
  await expect(page.getByRole("button", { name: "Start Over" })).toBeVisible();
}

test("a match opens a conversation: messages arrive live (or after a reload without JS), the badge counts them, strangers get nothing", async ({ page, browser, jsEnabled }) => {
  test.setTimeout(150_000);
  const city = jsEnabled ? "Ålesund" : "Molde";
  const sitter = await sitterIn(page, jsEnabled, { name: `Mia Messenger ${jsEnabled ? "J" : "N"}`, city });
  const owner = await ownerWithDog(page, jsEnabled, { name: `Omar Owner ${jsEnabled ? "J" : "N"}`, city, dog: "Pip" });
  await likeNearby(page, sitter.name, city);
  await likeSaved(page);
  await logOut(page);
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await likeNearby(page, "Pip", city);
  await page.getByRole("dialog", { name: "It's a Match!" }).getByRole("link", { name: "Send Message" }).click();
  await expect(page.getByRole("heading", { name: "Messages", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: owner.name })).toBeVisible();
  await expect(page.getByText("No messages yet. Start the conversation!")).toBeVisible();
  await expectAccessible(page);

  // The owner, in another browser, has the conversation open.
  const ownerContext = await browser.newContext({ ...(jsEnabled ? {} : { javaScriptEnabled: false }), viewport: { width: 1024, height: 900 }, locale: "en-GB" });
  const ownerPage = await ownerContext.newPage();
  await logIn(ownerPage, owner.email, owner.password);
  await ownerPage.waitForURL("**/dashboard");
  await ownerPage.goto("/messages");
  await ownerPage.getByRole("link", { name: new RegExp(sitter.name) }).click();
  await expect(ownerPage.getByText("No messages yet. Start the conversation!")).toBeVisible();

  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("log").getByText("Write a message first.")).toHaveCount(0);
  await page.getByRole("textbox", { name: "Message" }).fill("Hi! <b>Pip</b> looks lovely. When do you need me?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("log").getByText("Hi! <b>Pip</b> looks lovely. When do you need me?")).toBeVisible();

  if (jsEnabled) {
    // Live: no reload on the owner's side.
    await expect(ownerPage.getByRole("log").getByText("Hi! <b>Pip</b> looks lovely.", { exact: false })).toBeVisible();
  } else {
    await ownerPage.reload();
    await expect(ownerPage.getByRole("log").getByText("Hi! <b>Pip</b> looks lovely.", { exact: false })).toBeVisible();
  }
  // The sitter moves on; the owner's answer shows on the Messages badge (live with JS, on the next page without).
  await page.goto("/profile");
  await expect(page.getByRole("link", { name: "Messages", exact: true })).toBeVisible();
  await ownerPage.getByRole("textbox", { name: "Message" }).fill("Saturday morning, if you can!");
  await ownerPage.getByRole("button", { name: "Send" }).click();
  await expect(ownerPage.getByRole("log").getByText("Saturday morning, if you can!")).toBeVisible();
  if (!jsEnabled) await page.reload();
  await expect(page.getByRole("link", { name: "Messages Unread: 1" })).toBeVisible();
  await page.goto("/messages");
  await expect(page.getByRole("link", { name: new RegExp(owner.name) })).toContainText("Saturday morning");
  await ownerContext.close();

  // A stranger cannot open the conversation, post to it, or start one with either of them.
  const conversation = new URL((await page.getByRole("link", { name: new RegExp(owner.name) }).getAttribute("href"))!, "http://x").searchParams.get("c")!;
  await logOut(page);
  const stranger = newPerson("owner", { name: "Sly Stranger", city });
  await signUpAndConfirm(page, stranger, jsEnabled);
  expect((await page.goto(`/messages?c=${conversation}`))!.status()).toBe(404);
  expect((await page.goto(`/messages?userId=${encodeURIComponent(conversation)}`))!.status()).toBe(404);
  const post = await page.request.post("/messages", { form: { conversationId: conversation, body: "spam" } });
  expect(post.status()).toBe(404);
});
