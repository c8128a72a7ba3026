import type { Page } from "@playwright/test";
import sharp from "sharp";
import { writeHistory } from "./database";
import { ownerWithDog, sitterIn } from "./people";
import { expect, expectAccessible, logIn, logOut, test, visit } from "./support";

/** Likes the card on top of the deck in local mode (the town has only the other person). */
async function likeNearby(page: Page, name: string, city: string) {
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(page.getByText(`Showing profiles near ${city}`)).toBeVisible();
  await page.getByRole("button", { name: `Like ${name}` }).click();
}

/** A photo of noise: big enough (about 2 MB) for its upload to take a while on a slow line. */
const noisyPhoto = async () => {
  const width = 900;
  const height = 700;
  const pixels = Buffer.alloc(width * height * 3);
  for (let index = 0; index < pixels.length; index += 1) pixels[index] = (index * 2654435761) >>> 24;
  return {
    name: "noise.png",
    mimeType: "image/png",
    buffer: await sharp(pixels, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer(),
  };
};

test("older messages load (in place, keeping the scroll, with JavaScript), Seen appears when the other person reads, and a file upload shows its progress", async ({
  page,
  browser,
  jsEnabled,
}) => {
  test.setTimeout(240_000);
  const city = jsEnabled ? "Nuuk" : "Tórshavn";
  const sitter = await sitterIn(page, jsEnabled, { name: `Siri Seen ${jsEnabled ? "J" : "N"}`, city });
  const owner = await ownerWithDog(page, jsEnabled, { name: `Otto Older ${jsEnabled ? "J" : "N"}`, city, dog: "Bo" });
  await likeNearby(page, sitter.name, city);
  await expect(page.getByRole("button", { name: "Start Over" })).toBeVisible();
  await logOut(page);
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await likeNearby(page, "Bo", city);
  await expect(page.getByRole("dialog", { name: "It's a Match!" })).toBeVisible();
  writeHistory(owner.email, sitter.email, 60);

  await page.goto("/messages");
  await page.getByRole("link", { name: new RegExp(owner.name) }).click();
  const log = page.getByRole("log");
  await expect(log.getByText("Earlier note 60", { exact: true })).toBeVisible();
  await expect(log.getByText("Earlier note 11", { exact: true })).toBeAttached();
  await expect(log.getByText("Earlier note 10", { exact: true })).toHaveCount(0);
  const earlier = log.getByRole("link", { name: "Earlier messages" });

  if (jsEnabled) {
    // Loaded above what is on screen, which stays where it was.
    await earlier.scrollIntoViewIfNeeded();
    const before = (await log.getByText("Earlier note 11", { exact: true }).boundingBox())!;
    await earlier.click();
    await expect(log.getByText("Earlier note 1", { exact: true })).toBeAttached();
    const after = (await log.getByText("Earlier note 11", { exact: true }).boundingBox())!;
    expect(Math.abs(after.y - before.y)).toBeLessThan(3);
    await expect(log.getByText("Earlier note 60", { exact: true })).toBeAttached();
    expect(new URL(page.url()).searchParams.get("before")).toBeNull();
  } else {
    await earlier.click();
    await expect(page).toHaveURL(/before=\d+/);
    await expect(log.getByText("Earlier note 1", { exact: true })).toBeVisible();
    await expect(log.getByText("Earlier note 10", { exact: true })).toBeVisible();
    await expect(log.getByText("Earlier note 11", { exact: true })).toHaveCount(0);
    await expectAccessible(page);
    await log.getByRole("link", { name: "Latest messages" }).click();
    await expect(log.getByText("Earlier note 60", { exact: true })).toBeVisible();
  }
  // The first message is the first: no further link.
  if (jsEnabled) await expect(earlier).toHaveCount(0);

  // The owner, in another browser, has the conversation open when the sitter writes.
  const ownerContext = await browser.newContext({
    ...(jsEnabled ? {} : { javaScriptEnabled: false }),
    viewport: { width: 1024, height: 900 },
    locale: "en-GB",
  });
  const ownerPage = await ownerContext.newPage();
  await logIn(ownerPage, owner.email, owner.password);
  await ownerPage.waitForURL("**/dashboard");
  await ownerPage.goto("/messages");
  await ownerPage.getByRole("link", { name: new RegExp(sitter.name) }).click();
  await expect(ownerPage.getByRole("log").getByText("Earlier note 60", { exact: true })).toBeVisible();

  await page.getByRole("textbox", { name: "Message" }).fill("Are you around at noon?");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(log.getByText("Are you around at noon?")).toBeVisible();
  if (jsEnabled) {
    // Live on both sides: the owner's open conversation shows it and reads it; the sitter sees Seen without a reload.
    await expect(ownerPage.getByRole("log").getByText("Are you around at noon?")).toBeVisible();
  } else {
    // The owner has read up to the sitter's last note, not yet the new message.
    await expect(log.getByRole("listitem").filter({ hasText: "Earlier note 60" })).toContainText("Seen");
    await expect(log.getByRole("listitem").filter({ hasText: "Are you around at noon?" })).not.toContainText("Seen");
    await ownerPage.reload();
    await expect(ownerPage.getByRole("log").getByText("Are you around at noon?")).toBeVisible();
    await page.reload();
  }
  const seen = log.getByText("Seen", { exact: true });
  await expect(seen).toHaveCount(1);
  // Under the message that was read, on the sender's side; the owner's own Seen is under their last note the sitter read.
  await expect(log.getByRole("listitem").filter({ hasText: "Are you around at noon?" })).toContainText("Seen");
  const ownerLog = ownerPage.getByRole("log");
  await expect(ownerLog.getByText("Seen", { exact: true })).toHaveCount(1);
  await expect(ownerLog.getByRole("listitem").filter({ hasText: "Earlier note 59" })).toContainText("Seen");
  await expect(ownerLog.getByRole("listitem").filter({ hasText: "Are you around at noon?" })).not.toContainText("Seen");
  await ownerContext.close();
  if (jsEnabled) {
    // The loaded history stays whole after the newest page moved on by one message.
    for (const index of [1, 10, 11, 12, 60])
      await expect(log.getByText(`Earlier note ${index}`, { exact: true })).toHaveCount(1);
  }

  // A photo: with JavaScript a progress bar follows the upload (on a slow line here); without, the form posts as before.
  const cdp = jsEnabled ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 300 * 1024,
    });
  }
  await page.getByLabel("Attach a photo or video").setInputFiles([await noisyPhoto()]);
  await page.getByRole("button", { name: "Send" }).click();
  if (jsEnabled) {
    const progress = page.getByRole("progressbar", { name: /^Sending the file… \d+%$/ });
    await expect(progress).toBeVisible();
    await expect(progress).toHaveAttribute("max", "1");
    await expectAccessible(page);
  }
  await expect(log.getByRole("img", { name: "Photo sent in the conversation (opens full size)" })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  if (cdp)
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
});
