import { sitterIn, signIn } from "./people";
import { expect, expectAccessible, test, visit } from "./support";

test("a sitter chooses services and prices on /profile/edit and sees them on the profile", async ({
  page,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  const sitter = await sitterIn(page, jsEnabled, { name: `Sol Services ${Date.now()}`, city: "Madrid" });
  await signIn(page, sitter);
  await visit(page, "/profile/edit");
  const details = page.getByRole("form", { name: "Sitter details" });
  // An existing sitter keeps their hourly rate as "by the hour".
  await expect(details.getByRole("checkbox", { name: "Pet sitting by the hour" })).toBeChecked();

  // No service at all and a price out of range: errors beside their fields, nothing saved.
  await details.getByRole("checkbox", { name: "Pet sitting by the hour" }).uncheck();
  await details.getByRole("button", { name: "Save sitter details" }).click();
  await expect(details.getByText("Please select at least one service you offer")).toBeVisible();
  await details.getByRole("checkbox", { name: "Boarding" }).check();
  await details.getByLabel("Boarding: price (€)").fill("900");
  await details.getByRole("button", { name: "Save sitter details" }).click();
  await expect(details.getByText("The price per night must be between €10 and €300")).toBeVisible();
  await expectAccessible(page);

  await details.getByLabel("Boarding: price (€)").fill("35");
  await details.getByRole("checkbox", { name: "Dog walking" }).check();
  await details.getByLabel("Dog walking: price (€)").fill("12");
  await details.getByRole("radio", { name: "60 min" }).check();
  await details.getByLabel("Price per additional pet (€)").fill("5");
  await details.getByLabel("Most pets at once").fill("3");
  await details.getByRole("button", { name: "Save sitter details" }).click();
  await expect(page.getByText("Profile updated")).toBeVisible();

  await visit(page, "/profile/public");
  const services = page.getByRole("region", { name: "Services" });
  await expect(services).toContainText(/Dog walking \(60 min\)\s*from €12(\.00)? per walk/);
  await expect(services).toContainText(/Boarding\s*from €35(\.00)? per night/);
  await expect(services).not.toContainText("by the hour");
  await expect(services).toContainText(/\+€5(\.00)? per additional pet · Most pets at once: 3/);
  await expectAccessible(page);

  // The form reads back what was saved.
  await visit(page, "/profile/edit");
  await expect(details.getByRole("checkbox", { name: "Pet sitting by the hour" })).not.toBeChecked();
  await expect(details.getByLabel("Boarding: price (€)")).toHaveValue("35");
  await expect(details.getByRole("radio", { name: "60 min" })).toBeChecked();
});
