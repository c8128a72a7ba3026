import type { Page } from "@playwright/test";
import { expect, visit, type Person } from "../e2e/support";

/** A 2-hour request at 10:00 on `day`, from the sitter's public profile in the owner's local deck, paid with a card that is held. */
export async function requestAndPay(page: Page, sitter: Person, day: string) {
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(page.getByText(`Showing profiles near ${sitter.city}`)).toBeVisible();
  await page.getByRole("link", { name: `About ${sitter.name}` }).click();
  await page.getByRole("link", { name: `Book ${sitter.name}` }).click();
  await page.getByLabel("Date").fill(day);
  await expect(page.getByLabel("Start time").locator("option", { hasText: "10:00" })).toBeAttached();
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByText("2 h", { exact: true }).first().click();
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  await page.getByLabel("Name on card").fill("Scale Owner");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText("Request sent! Your card is held, not charged, until the sitter answers.")).toBeVisible();
}

export const bookingCard = (page: Page, name: string) =>
  page
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name, exact: false }) })
    .first();

/** The address each pending request's Accept button posts to, by pet name, as the sitter's page shows them. */
export async function acceptAddresses(page: Page, pets: string[]): Promise<Map<string, string>> {
  await visit(page, "/bookings?tab=pending");
  const addresses = new Map<string, string>();
  for (const pet of pets) {
    const form = bookingCard(page, pet)
      .locator("form")
      .filter({ has: page.getByRole("button", { name: "Accept" }) });
    const action = await form.getAttribute("action");
    if (!action) throw new Error(`No Accept form for ${pet}`);
    addresses.set(pet, new URL(action, page.url()).pathname);
  }
  return addresses;
}
