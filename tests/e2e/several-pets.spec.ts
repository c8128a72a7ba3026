import { addPetOf, sitterTakesPets } from "./database";
import { dayAhead, ownerWithDog, sitterAvailableOn, signIn } from "./people";
import { expect, expectAccessible, test } from "./support";

test("an owner with two dogs books both with a sitter who takes two, at the server's price", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  const city = jsEnabled ? "Winnipeg" : "Brønnøysund";
  const day = await dayAhead(request, 3);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, {
    name: `Pia Pack ${jsEnabled ? "J" : "N"}`,
    city,
    rate: 20,
  });
  // Two pets at once, €5 an hour for the second.
  const sitterId = sitterTakesPets(sitter.email, 2, 500);
  const owner = await ownerWithDog(page, jsEnabled, { name: "Olga Owner", city, dog: "Rex" });
  addPetOf(owner.email, "Luna");
  if (!page.url().includes("/profile")) await signIn(page, owner);

  await page.goto(`/booking/request?walkerId=${sitterId}&date=${day}`);
  await expect(
    page.getByText("This sitter takes up to 2 pets at once; each extra pet costs €5.00 an hour."),
  ).toBeVisible();
  await page.getByRole("checkbox", { name: "Rex" }).check();
  await page.getByRole("checkbox", { name: "Luna" }).check();
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByText("2 h", { exact: true }).first().click();
  if (jsEnabled)
    // €20 × 2 h + 1 extra pet × 2 h × €5 = €50, plus the 20 % fee.
    await expect(page.getByRole("region", { name: "Price" }).locator("dl:visible")).toContainText(
      "1 extra pet€10.00Subtotal€50.00Platform fee (20%)€10.00Total€60.00",
    );
  await expectAccessible(page);
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  await expect(page.getByText("Luna and Rex", { exact: false }).first()).toBeVisible();
  await expect(page.getByText("1 extra pet")).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay €60.00" })).toBeVisible();
  await expectAccessible(page);
});

test("refusals of the pets field: none chosen, and more than the sitter takes", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  const city = jsEnabled ? "Östersund" : "Sundsvall";
  const day = await dayAhead(request, 3);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, { name: `Solo Sitter ${jsEnabled ? "J" : "N"}`, city });
  const sitterId = sitterTakesPets(sitter.email, 1, 0);
  const owner = await ownerWithDog(page, jsEnabled, { name: "Otto Owner", city, dog: "Bruno" });
  addPetOf(owner.email, "Mia");
  if (!page.url().includes("/profile")) await signIn(page, owner);

  await page.goto(`/booking/request?walkerId=${sitterId}&date=${day}`);
  await expect(page.getByText("This sitter takes one pet at a time.")).toBeVisible();
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByText("Please select a dog")).toBeVisible();
  await page.getByRole("checkbox", { name: "Bruno" }).check();
  await page.getByRole("checkbox", { name: "Mia" }).check();
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByText("This sitter does not take that many pets at once. Choose fewer.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toHaveCount(0);
  await expectAccessible(page);
});
