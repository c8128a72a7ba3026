import { addPetOf, sitterOffers, sitterTakesPets } from "./database";
import { dayAhead, ownerWithDog, sitterAvailableOn } from "./people";
import { expect, expectAccessible, test } from "./support";

test("an owner books a 60-minute walk for two dogs from the sitter's profile, priced per walk", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  const [city, suffix] = jsEnabled ? ["Adelaide", "J"] : ["Brisbane", "N"];
  const day = await dayAhead(request, 3);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, { name: `Wally Walker ${suffix}`, city, rate: 20 });
  sitterOffers(sitter.email, "walk", 1500, 60);
  sitterOffers(sitter.email, "drop_in", 1200, 30);
  // Two dogs at once, €5 a walk for the second.
  const sitterId = sitterTakesPets(sitter.email, 2, 500);
  const owner = await ownerWithDog(page, jsEnabled, { name: `Olga Walks ${suffix}`, city, dog: "Rex" });
  addPetOf(owner.email, "Luna");

  await page.goto(`/users/${sitterId}`);
  await page.getByRole("link", { name: "Book a walk or visit" }).click();
  await expect(page.getByRole("heading", { name: `Book a walk or visit with ${sitter.name}` })).toBeVisible();
  await expect(page.getByRole("radio", { name: /Dog walking · 60 min/ })).toBeChecked();
  await expect(page.getByText("€15.00 per walk")).toBeVisible();
  await page.getByLabel("Date").fill(day);
  if (!jsEnabled) await page.getByRole("button", { name: "Show times" }).click();
  await expect(page.getByLabel("Start time").locator("option", { hasText: "10:00" })).toBeAttached();
  await expectAccessible(page);
  // No start time chosen: refused under the field.
  await page.getByRole("checkbox", { name: "Rex" }).check();
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByText("Please choose a start time")).toBeVisible();

  await page.getByRole("checkbox", { name: "Rex" }).check();
  await page.getByRole("checkbox", { name: "Luna" }).check();
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  // One walk at €15 + Luna €5 = €20, with the 20 % fee €24.
  await expect(page.getByText("60 min")).toBeVisible();
  await expect(page.getByText("Price per walk")).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay €24.00" })).toBeVisible();
  await expectAccessible(page);
});
