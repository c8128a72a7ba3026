import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { fakeJpeg, upload } from "./images";
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

test("a match opens a conversation: messages arrive live (or after a reload without JS), the badge counts them, strangers get nothing", async ({
  page,
  browser,
  jsEnabled,
}) => {
  test.setTimeout(240_000);
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
  // "Active" promises live updates, which need JavaScript; the language is chosen on the profile.
  await expect(page.getByText("Active", { exact: true })).toHaveCount(jsEnabled ? 1 : 0);
  await expect(page.getByRole("combobox", { name: "Language" })).toHaveCount(0);
  await expectAccessible(page);

  // The owner, in another browser, has the conversation open.
  const ownerContext = await browser.newContext({
    ...(jsEnabled ? {} : { javaScriptEnabled: false }),
    viewport: { width: 1024, height: 900 },
    locale: "en-GB",
  });
  const ownerPage = await ownerContext.newPage();
  // axe runs on pages with JavaScript; the no-JS project checks the sitter's copies of these screens instead.
  const checkOwnerPage = () => (jsEnabled ? expectAccessible(ownerPage) : Promise.resolve());
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
  await expect(page.getByRole("link", { name: "Messages 1 unread" })).toBeVisible();
  await page.goto("/messages");
  await expect(page.getByRole("link", { name: new RegExp(owner.name) })).toContainText("Saturday morning");

  // A photo with no text goes as '📷 Image'; a page dressed up as a photo is refused.
  await ownerPage.getByLabel("Attach a photo or video").setInputFiles([await upload("pip-in-the-park.jpg")]);
  if (jsEnabled) await expect(ownerPage.getByRole("img", { name: "The photo you are about to send" })).toBeVisible();
  await ownerPage.getByRole("button", { name: "Send" }).click();
  await expect(
    ownerPage.getByRole("log").getByRole("img", { name: "Photo sent in the conversation (opens full size)" }),
  ).toBeVisible();
  await expect(ownerPage.getByRole("log").getByText("📷 Image")).toBeVisible();
  await ownerPage.getByLabel("Attach a photo or video").setInputFiles([fakeJpeg]);
  await ownerPage.getByRole("button", { name: "Send" }).click();
  await expect(
    ownerPage.getByRole("alert").filter({ hasText: "Invalid file type. Please select an image or video file" }),
  ).toBeVisible();
  // A video is checked from its first box to its last: a whole one is sent, one cut short is refused.
  const clip = readFileSync(path.resolve("tests/fixtures/videos/clip.mp4"));
  await ownerPage
    .getByLabel("Attach a photo or video")
    .setInputFiles([{ name: "walk.mp4", mimeType: "video/mp4", buffer: clip }]);
  await ownerPage.getByRole("button", { name: "Send" }).click();
  await expect(ownerPage.getByRole("log").getByLabel("Video sent in the conversation")).toBeVisible();
  await expect(ownerPage.getByRole("alert").filter({ hasText: "Invalid file type" })).toHaveCount(0);
  await ownerPage
    .getByLabel("Attach a photo or video")
    .setInputFiles([{ name: "walk.mp4", mimeType: "video/mp4", buffer: clip.subarray(0, clip.length - 500) }]);
  await ownerPage.getByRole("button", { name: "Send" }).click();
  await expect(
    ownerPage.getByRole("alert").filter({ hasText: "Invalid file type. Please select an image or video file" }),
  ).toBeVisible();
  await expect(ownerPage.getByRole("log").getByLabel("Video sent in the conversation")).toHaveCount(1);
  await checkOwnerPage();
  await page.getByRole("link", { name: new RegExp(owner.name) }).click();
  const photo = page.getByRole("log").getByRole("img", { name: "Photo sent in the conversation (opens full size)" });
  await expect(photo).toBeVisible();
  const photoUrl = (await photo.getAttribute("src"))!;
  expect((await page.request.get(photoUrl)).headers()["content-type"]).toBe("image/webp");

  // The owner's alerts: the match and the messages, by tab; opening one leads to its subject.
  await ownerPage.goto("/notifications");
  await expect(ownerPage.getByRole("heading", { name: "Today" })).toBeVisible();
  await expect(ownerPage.getByRole("button", { name: /It's a match!/ })).toBeVisible();
  await checkOwnerPage();
  const tabs = ownerPage.getByRole("navigation", { name: "Show notifications" });
  await tabs.getByRole("link", { name: "Bookings" }).click();
  await expect(ownerPage.getByText("No notifications yet.")).toBeVisible();
  await tabs.getByRole("link", { name: "Messages" }).click();
  await expect(ownerPage.getByRole("button", { name: /It's a match!/ })).toBeVisible();
  await tabs.getByRole("link", { name: "All" }).click();
  // The Messages tab has the same button, for its own alerts: press it only once All is shown.
  await expect(tabs.getByRole("link", { name: "All" })).toHaveAttribute("aria-current", "page");
  await ownerPage.getByRole("button", { name: "Mark all as read" }).click();
  await expect(ownerPage.getByText("All caught up")).toBeVisible();
  await expect(ownerPage.getByRole("button", { name: "Mark all as read" })).toHaveCount(0);
  await expect(ownerPage.getByRole("link", { name: /^Alerts \d+ unread/ })).toHaveCount(0);
  await ownerPage.getByRole("button", { name: /It's a match!/ }).click();
  await expect(ownerPage).toHaveURL(/\/messages\?/);
  await expect(ownerPage.getByRole("heading", { name: sitter.name })).toBeVisible();
  await ownerContext.close();

  // A stranger cannot open the conversation, post to it, or start one with either of them.
  const conversation = new URL(
    (await page.getByRole("link", { name: new RegExp(owner.name) }).getAttribute("href"))!,
    "http://x",
  ).searchParams.get("c")!;
  await logOut(page);
  const stranger = newPerson("owner", { name: "Sly Stranger", city });
  await signUpAndConfirm(page, stranger, jsEnabled);
  expect((await page.goto(`/messages?c=${conversation}`))!.status()).toBe(404);
  expect((await page.goto(`/messages?userId=${encodeURIComponent(conversation)}`))!.status()).toBe(404);
  await visit(page, "/notifications");
  await expect(page.getByText("No notifications yet.")).toHaveCount(0);
  const post = await page.request.post("/messages", { form: { conversationId: conversation, body: "spam" } });
  expect(post.status()).toBe(404);
  expect((await page.request.get(photoUrl)).status()).toBe(404);
});
