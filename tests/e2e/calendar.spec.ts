import { confirmedBookingSoon } from "./database";
import { ownerWithDog, serverNow, sitterIn } from "./people";
import { expect, expectAccessible, test, visit } from "./support";

/** The calendar's text with folded lines joined (RFC 5545 §3.1), as a calendar app reads it. */
const unfolded = (text: string) => text.replace(/\r\n[ \t]/g, "");

test("an owner adds their bookings to a phone's calendar: the confirmed booking is in the feed, leaves it when cancelled, and a new address kills the old", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(150_000);
  const tag = jsEnabled ? "J" : "N";
  const sitter = await sitterIn(page, jsEnabled, { name: `Cora Calendar ${tag}`, city: "Lund", rate: 16 });
  const owner = await ownerWithDog(page, jsEnabled, { name: `Olle Calendar ${tag}`, city: "Lund", dog: "Tofu" });
  confirmedBookingSoon(owner.email, sitter.email, new Date(await serverNow(request)), 26 * 60);

  await visit(page, "/settings");
  const section = page.getByRole("region", { name: "Your bookings in your phone's calendar" });
  await section.getByRole("button", { name: "Create my calendar address" }).click();
  await expect(page.getByText("Your calendar address is ready.")).toBeVisible();
  const address = await section.getByLabel("Your calendar address").inputValue();
  expect(address).toMatch(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  await expectAccessible(page);

  // The phone's calendar reads it without signing in.
  const feedPath = new URL(address).pathname;
  const feed = await page.request.fetch(feedPath, { headers: { Cookie: "" } });
  expect(feed.headers()["content-type"]).toContain("text/calendar");
  expect(unfolded(await feed.text())).toContain(`SUMMARY:Pet care: Tofu with ${sitter.name}`);

  // Cancelled: gone from the feed.
  await visit(page, "/bookings");
  await page.getByRole("link", { name: "Cancel and refund" }).first().click();
  await page.getByLabel("Please provide a reason for cancellation:").fill("Plans changed.");
  await page.getByRole("button", { name: "Cancel and refund" }).click();
  await expect(page.getByText("Booking Cancelled")).toBeVisible();
  expect(unfolded(await (await page.request.get(feedPath)).text())).not.toContain("SUMMARY:");

  // A new address: the old one answers nothing at once.
  await visit(page, "/settings");
  await section.getByRole("button", { name: "Make a new address (the old one stops working)" }).click();
  await expect(page.getByText("Your calendar address is ready.")).toBeVisible();
  expect(await section.getByLabel("Your calendar address").inputValue()).not.toBe(address);
  expect((await page.request.get(feedPath)).status()).toBe(404);
  await section.getByRole("button", { name: "Turn off the calendar address" }).click();
  await expect(section.getByRole("button", { name: "Create my calendar address" })).toBeVisible();
});
