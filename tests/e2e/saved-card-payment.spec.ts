import type { Page } from "@playwright/test";
import { dayAhead, ownerWithDog, sitterAvailableOn } from "./people";
import { expect, expectAccessible, test, visit, type Person } from "./support";

async function saveCard(page: Page, number: string, expiry: string) {
  await visit(page, "/subscription/cards/new");
  await page.getByLabel("Full name").fill("Olga Owner");
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill(expiry);
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(page.getByText("Payment method added")).toBeVisible();
}

/** A 2-hour request for the sitter's day, from their public profile; answers the payment page's address. */
async function requestTwoHours(page: Page, jsEnabled: boolean, sitter: Person, day: string): Promise<string> {
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await page.getByRole("link", { name: `About ${sitter.name}` }).click();
  await page.getByRole("link", { name: `Book ${sitter.name}` }).click();
  await page.getByLabel("Date").fill(day);
  if (!jsEnabled) await page.getByRole("button", { name: "Show times" }).click();
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByText("2 h", { exact: true }).first().click();
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  return new URL(page.url()).pathname;
}

test("a saved card pays for a booking: chosen on the payment page, held, and someone else's card id is refused", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(180_000);
  const city = jsEnabled ? "Kristiansund" : "Umeå";
  const day = await dayAhead(request, 3);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, {
    name: `Sven Saved ${jsEnabled ? "J" : "N"}`,
    city,
    rate: 20,
  });
  await ownerWithDog(page, jsEnabled, { name: "Olga Owner", city, dog: "Mika" });
  await saveCard(page, "4000 0000 0000 9995", "11/31");
  await saveCard(page, "4242 4242 4242 4242", "12/30");

  const paymentPath = await requestTwoHours(page, jsEnabled, sitter, day);
  const saved = page.getByRole("region", { name: "Pay with a saved card" });
  // The first card saved is the default, so it is chosen; the new-card form stays below.
  await expect(saved.getByRole("radio", { name: "Visa ending in 9995, expires 11/31 Default" })).toBeChecked();
  await expect(saved.getByRole("radio", { name: "Visa ending in 4242, expires 12/30" })).not.toBeChecked();
  await expect(page.getByRole("heading", { name: "Or pay with a new card" })).toBeVisible();
  await expect(page.getByLabel("Card number")).toBeVisible();
  await expectAccessible(page);

  // A card id that is not the payer's (forged, or another person's) is refused with a message, and nothing is paid.
  const forged = await page.request.post(paymentPath, {
    form: { intent: "saved-card", cardId: "00000000-0000-4000-8000-000000000000" },
  });
  expect(forged.status()).toBe(400);
  expect(await forged.text()).toContain("That card is not one of your saved cards.");

  // €20 × 2 h + 20 % = €48; the default card has no funds, the other pays.
  await saved.getByRole("button", { name: "Pay €48.00 with this card" }).click();
  await expect(saved.getByRole("alert")).toHaveText("Your card has insufficient funds.");
  await expectAccessible(page);
  await saved.getByRole("radio", { name: /Visa ending in 4242/ }).check();
  await saved.getByRole("button", { name: "Pay €48.00 with this card" }).click();
  await expect(page.getByText("Request sent! Your card is held, not charged, until the sitter answers.")).toBeVisible();
  await expect(page).toHaveURL(/\/bookings$/);
  const booking = page.getByRole("article").filter({ hasText: "Mika" }).first();
  await expect(booking).toContainText("€48.00");
  await expect(booking).toContainText("Payment held");
  // Paid: the payment page now sends the owner back.
  await page.goto(paymentPath);
  await expect(page.getByText("This booking's payment is already authorised.")).toBeVisible();
});
