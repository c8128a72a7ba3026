import type { Page } from "@playwright/test";
import { sitterIn } from "./people";
import { expect, expectAccessible, logIn, newPerson, signUpAndConfirm, test, visit } from "./support";

/** Tomorrow in Europe/Madrid, every new account's time zone, as YYYY-MM-DD. */
function tomorrowInMadrid(): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Madrid",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(Date.now() + 24 * 3600_000));
}

/** The add section is a <details>: open it unless it is open already. */
async function openAddSection(page: Page) {
  if (!(await page.getByLabel("Start time").isVisible()))
    await page.locator("summary", { hasText: "Add Availability Slot" }).click();
  await expect(page.getByLabel("Start time")).toBeVisible();
}

async function addSlot(page: Page, start: string, end: string) {
  await openAddSection(page);
  await page.getByLabel("Start time").fill(start);
  await page.getByLabel("End time").fill(end);
  await page.getByRole("button", { name: "Add slot", exact: true }).click();
}

/** Deletes a slot through its confirmation: a dialog with JavaScript, a page without. */
async function deleteSlot(page: Page, range: string, day: string) {
  await page.getByRole("link", { name: new RegExp(`^Delete ${range}$`) }).click();
  await expect(page.getByRole("button", { name: "Delete slot", exact: true })).toBeVisible();
  await expect(page.getByText(new RegExp(`^Delete the slot ${range}\\?$`))).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Delete slot", exact: true }).click();
  await expect(page.getByText("Availability slot removed")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/availability\\?date=${day}$`));
}

test("a sitter publishes, checks and removes availability", async ({ page, jsEnabled }) => {
  const sitter = await sitterIn(page, jsEnabled, { name: "Avery Available", city: "Madrid" });
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL((url) => !url.pathname.startsWith("/auth"));

  await visit(page, "/profile");
  await page.getByRole("link", { name: "Manage", exact: true }).click();
  await expect(page.getByRole("heading", { name: "My Availability" })).toBeVisible();
  await expectAccessible(page);

  const day = tomorrowInMadrid();
  await page.getByLabel("Date", { exact: true }).fill(day);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`\\?date=${day}$`));
  await expect(page.getByText("No availability slots for this date")).toBeVisible();
  await expectAccessible(page);

  // A preset adds its slot in one tap.
  await openAddSection(page);
  await page.getByRole("button", { name: "Morning (9-12)" }).click();
  await expect(page.getByText("Availability slot added")).toBeVisible();
  const morning = page.getByRole("listitem").filter({ hasText: /9:00\sAM – 12:00\sPM/ });
  await expect(morning).toBeVisible();
  await expect(morning.getByText("Available", { exact: true })).toBeVisible();
  await expect(page.getByText("No availability slots for this date")).toHaveCount(0);
  await expectAccessible(page);

  await addSlot(page, "10:00", "13:00");
  await expect(page.getByText("This time overlaps a slot you already have")).toBeVisible();
  await expectAccessible(page);

  await addSlot(page, "15:00", "14:00");
  await expect(page.getByText("End time must be after start time")).toBeVisible();
  await expectAccessible(page);

  // Touching is not overlapping; the errors go once the slot is added.
  await addSlot(page, "12:00", "15:00");
  await expect(page.getByText("Availability slot added")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: /12:00\sPM – 3:00\sPM/ })).toBeVisible();
  await expect(page.getByText("This time overlaps a slot you already have")).toHaveCount(0);
  await expect(page.getByText("End time must be after start time")).toHaveCount(0);

  await deleteSlot(page, "9:00\\sAM – 12:00\\sPM", day);
  await expect(morning).toHaveCount(0);
  await deleteSlot(page, "12:00\\sPM – 3:00\\sPM", day);
  await expect(page.getByText("No availability slots for this date")).toBeVisible();
  await expectAccessible(page);

  // Forged input is answered with translated errors or a 404, and writes nothing.
  const origin = { Origin: new URL(page.url()).origin };
  const forged = async (form: Record<string, string>, message: string) => {
    const response = await page.request.post(`/availability?date=${day}`, { form, headers: origin });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain(message);
  };
  await forged({ day: "x".repeat(50_000), startTime: "09:00", endTime: "10:00" }, "Please choose a valid date");
  await forged({ day, startTime: "9 o'clock", endTime: "y".repeat(50_000) }, "Please enter a time such as 09:30");
  await forged({ day, preset: "brunch" }, "Please choose one of the options");
  await forged({ day: "2020-01-01", preset: "morning" }, "This time has already passed");
  expect((await page.request.get("/availability/not-a-slot/delete")).status()).toBe(404);
  expect((await page.request.post("/availability/not-a-slot/delete", { form: {}, headers: origin })).status()).toBe(
    404,
  );
  await visit(page, `/availability?date=${day}`);
  await expect(page.getByText("No availability slots for this date")).toBeVisible();
  // A malformed date shows today.
  const malformed = await visit(page, "/availability?date=2026-02-31");
  expect(malformed?.status()).toBe(200);
});

test("an owner is told availability is for sitters", async ({ page, jsEnabled }) => {
  const owner = newPerson("owner", { name: "Olive Owner" });
  await signUpAndConfirm(page, owner, jsEnabled);
  await visit(page, "/availability");
  await expect(page.getByRole("heading", { name: "My Availability" })).toBeVisible();
  await expect(page.getByText("Availability is for sitters")).toBeVisible();
  await page.getByRole("link", { name: "Set up your sitter profile" }).click();
  await expect(page).toHaveURL(/\/sitter-profile-setup$/);
});
