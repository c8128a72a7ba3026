import type { Page } from "@playwright/test";
import { ownerWithDog, sitterIn } from "../e2e/people";
import { expect, expectAccessible, logIn, test, visit } from "../e2e/support";
import { instances, personOn } from "./instances";

const [first, second] = instances;

/** Likes the one card of the town in local mode; its photo must have come whole from the bucket. */
async function likeNearby(page: Page, name: string, city: string) {
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(page.getByText(`Showing profiles near ${city}`)).toBeVisible();
  const photo = page.getByRole("img", { name: `Photo 1 of 1 of ${name}` });
  await expect(photo).toBeVisible();
  await expect
    .poll(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
    .toBeGreaterThan(0);
  const served = await page.request.get((await photo.getAttribute("src"))!);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/webp");
  await page.getByRole("button", { name: `Like ${name}` }).click();
}

test("a message sent through one instance arrives live on a page served by the other, and so does the unread badge", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const city = "Palermo";
  // The sitter uses instance 1 (the test's own page), the owner instance 2: their photos are uploaded
  // through one and shown through the other.
  const ownerContext = await personOn(browser, second);
  const ownerPage = await ownerContext.newPage();
  const [sitter, owner] = await Promise.all([
    sitterIn(page, true, { name: "Sara Scale", city }),
    ownerWithDog(ownerPage, true, { name: "Ottavio Scale", city, dog: "Bruno" }),
  ]);
  await likeNearby(ownerPage, sitter.name, city);
  await expect(ownerPage.getByRole("button", { name: "Start Over" })).toBeVisible();

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL(`${first}/dashboard`);
  await likeNearby(page, "Bruno", city);
  await page.getByRole("dialog", { name: "It's a Match!" }).getByRole("link", { name: "Send Message" }).click();
  await expect(page.getByRole("heading", { name: owner.name })).toBeVisible();

  // The owner has the conversation open on instance 2; its stream is held by instance 2.
  await ownerPage.goto("/messages");
  await ownerPage.getByRole("link", { name: new RegExp(sitter.name) }).click();
  await expect(ownerPage.getByText("No messages yet. Start the conversation!")).toBeVisible();
  await expect(ownerPage.getByText("Active", { exact: true })).toBeVisible();
  expect(new URL(ownerPage.url()).origin).toBe(second);

  await page.getByRole("textbox", { name: "Message" }).fill("Ciao! Bruno looks lovely. When do you need me?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("log").getByText("Ciao! Bruno looks lovely.", { exact: false })).toBeVisible();
  // No reload on instance 2: the event stored by instance 1 reached instance 2's stream.
  await expect(ownerPage.getByRole("log").getByText("Ciao! Bruno looks lovely. When do you need me?")).toBeVisible({
    timeout: 5_000,
  });
  await expectAccessible(ownerPage);

  // Away from the conversation, the owner's badge counts the next message live, again across instances.
  await ownerPage.goto("/profile");
  await expect(ownerPage.getByRole("link", { name: "Messages", exact: true })).toBeVisible();
  await page.getByRole("textbox", { name: "Message" }).fill("Saturday morning suits me.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("log").getByText("Saturday morning suits me.")).toBeVisible();
  await expect(ownerPage.getByRole("link", { name: "Messages 1 unread" })).toBeVisible({ timeout: 5_000 });
  expect(new URL(ownerPage.url()).origin).toBe(second);
  await ownerContext.close();
});
