import type { APIRequestContext, Page } from "@playwright/test";
import { upload } from "./images";
import { expect, logIn, logOut, newPerson, signUpAndConfirm, type Person } from "./support";

export async function sitterIn(
  page: Page,
  jsEnabled: boolean,
  { name, city, rate = 15, caresFor = ["Dogs"], years }: { name: string; city: string; rate?: number; caresFor?: ("Dogs" | "Cats")[]; years?: number },
): Promise<Person> {
  const sitter = newPerson("sitter", { name, city });
  await signUpAndConfirm(page, sitter, jsEnabled);
  await page.getByLabel("About You").fill(`${name} walks and sits pets around ${city}.`);
  await page.getByLabel("Hourly Rate (€)").fill(String(rate));
  if (years !== undefined) await page.getByLabel("Years of experience (optional)").fill(String(years));
  const caresForGroup = page.getByRole("group", { name: "Pets you can care for" });
  for (const kind of caresFor) await caresForGroup.getByRole("checkbox", { name: kind, exact: true }).check();
  await page.getByLabel(/^Photos/).setInputFiles([await upload(`${name}.jpg`)]);
  await page.getByRole("button", { name: "Complete Profile" }).click();
  await expect(page.getByText("Sitter profile created!")).toBeVisible();
  await logOut(page);
  return sitter;
}

export async function ownerWithDog(page: Page, jsEnabled: boolean, { name, city, dog }: { name: string; city: string; dog: string }): Promise<Person> {
  const owner = newPerson("owner", { name, city });
  await signUpAndConfirm(page, owner, jsEnabled);
  await page.getByLabel("Your dog's name").fill(dog);
  await page.getByLabel("Age").fill("3 years");
  await page.getByLabel(/^Photos/).setInputFiles([await upload(`${dog}.jpg`, "jpeg", 60)]);
  await page.getByRole("button", { name: "Save pet" }).click();
  await expect(page.getByText(`${dog} was added to your pets`)).toBeVisible();
  return owner;
}

// The sitters here live in Europe.
export async function dayAhead(request: APIRequestContext, days: number): Promise<string> {
  const { now } = (await (await request.get("/dev/clock")).json()) as { now: string };
  return new Date(new Date(now).getTime() + days * 24 * 3600_000).toISOString().slice(0, 10);
}

export async function sitterAvailableOn(page: Page, jsEnabled: boolean, day: string, details: { name: string; city: string; rate?: number }): Promise<Person> {
  const sitter = await sitterIn(page, jsEnabled, details);
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await page.goto(`/availability?date=${day}`);
  if (!(await page.getByLabel("Start time").isVisible())) await page.locator("summary", { hasText: "Add Availability Slot" }).click();
  await page.getByRole("button", { name: "Full Day (9-5)" }).click();
  await expect(page.getByText("Availability slot added")).toBeVisible();
  await logOut(page);
  return sitter;
}
