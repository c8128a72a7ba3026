import { sitterOffers } from "./database";
import { dayAhead, ownerWithDog, sitterIn } from "./people";
import { expect, expectAccessible, logIn, logOut, test, visit } from "./support";

test("an owner proposes a meet & greet from a profile, the sitter suggests another time, the owner accepts; both see it", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  const [city, suffix] = jsEnabled ? ["Calgary", "J"] : ["Halifax", "N"];
  const sitter = await sitterIn(page, jsEnabled, { name: `Mia Meet ${suffix}`, city, rate: 18 });
  const sitterId = sitterOffers(sitter.email, "boarding", 3500);
  const owner = await ownerWithDog(page, jsEnabled, { name: `Oscar Greet ${suffix}`, city, dog: "Rex" });
  const firstDay = await dayAhead(request, 3);
  const otherDay = await dayAhead(request, 4);

  await visit(page, `/users/${sitterId}`);
  await page.getByRole("link", { name: "Ask for a meet & greet" }).click();
  await expect(page.getByRole("heading", { name: `Meet ${sitter.name}` })).toBeVisible();
  await page.getByLabel("Date").fill(firstDay);
  await page.getByLabel("Time").fill("17:30");
  await page.getByRole("radio", { name: "Somewhere else" }).check();
  // Somewhere else needs a place.
  await page.getByRole("button", { name: "Propose meet & greet" }).click();
  await expect(page.getByText("Say where to meet.")).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Address or details").fill("The park gate on Elm Street");
  await page.getByRole("button", { name: "Propose meet & greet" }).click();
  await expect(page.getByText("Meet & greet proposed")).toBeVisible();
  await expect(page.getByText(`Waiting for ${sitter.name} to answer.`)).toBeVisible();
  await expect(page.getByText("Somewhere else (The park gate on Elm Street)")).toBeVisible();
  await logOut(page);

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings");
  await page.getByRole("link", { name: new RegExp(`Meet & greet with ${owner.name}`) }).click();
  await expect(page.getByText(`${owner.name} proposed this time.`)).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Date").fill(otherDay);
  await page.getByLabel("Time").fill("10:00");
  await page.getByRole("radio", { name: "Video call" }).check();
  await page.getByRole("button", { name: "Suggest this time" }).click();
  await expect(page.getByText("New time sent")).toBeVisible();
  await expect(page.getByText(`Waiting for ${owner.name} to answer.`)).toBeVisible();
  await logOut(page);

  await logIn(page, owner.email, owner.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/notifications");
  await expect(page.getByText(`${sitter.name} suggests meeting on`)).toBeVisible();
  await visit(page, "/bookings");
  const listed = page.getByRole("link", { name: new RegExp(`Meet & greet with ${sitter.name}`) });
  await expect(listed).toContainText("Your answer");
  await listed.click();
  await expect(page.getByRole("definition").filter({ hasText: "Video call" })).toBeVisible();
  await page.getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText("Meet & greet accepted")).toBeVisible();
  await expect(page.getByText(`You meet ${sitter.name} then.`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel meet & greet" })).toBeVisible();
  await expectAccessible(page);
});
