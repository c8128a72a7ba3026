import type { Page } from "@playwright/test";
import Database from "better-sqlite3";
import { databaseFile } from "./data-dir";
import { sitterOffers, sitterTakesPets } from "./database";
import { dayAhead, ownerWithDog, sitterIn } from "./people";
import { expect, expectAccessible, test, visit } from "./support";

// The deck's care filters: a service, dates the sitter is free on, a number of pets. Each project meets in a
// town of its own, far from every other spec's.

const topCardName = (page: Page) => page.getByTestId("top-card").getByRole("heading", { level: 2 });

/** Every card of the deck, by passing each one, until the deck is empty. */
async function passThroughDeck(page: Page, onTop?: (name: string) => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  while (!(await page.getByRole("heading", { name: "No more profiles" }).isVisible())) {
    const name = (await topCardName(page).textContent())!;
    seen.push(name);
    await onTop?.(name);
    await page.getByRole("button", { name: `Pass on ${name}` }).click();
    await expect(
      page.getByRole("heading", { name: "No more profiles" }).or(topCardName(page).filter({ hasNotText: name })),
    ).toBeVisible();
    expect(seen.length).toBeLessThan(20);
  }
  return seen;
}

/** Local mode from the location prompt: the browser has no location permission, so the profile's city is used. */
async function browseLocally(page: Page, jsEnabled: boolean, city: string) {
  await expect(page.getByRole("heading", { name: "See who is nearby" })).toBeVisible();
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(page.getByText(jsEnabled ? "Location access denied" : "Local mode")).toBeVisible();
  await expect(page.getByText(`Showing profiles near ${city}`)).toBeVisible();
}

/** What a sitter's calendar and services forms would have saved: no hourly rate, a day marked not free. */
function inDatabase(run: (database: Database.Database) => void) {
  const database = new Database(databaseFile);
  database.pragma("busy_timeout = 5000");
  try {
    run(database);
  } finally {
    database.close();
  }
}
const withoutHourlyRate = (email: string) =>
  inDatabase((database) => database.prepare("update users set hourly_rate_cents = null where email = ?").run(email));
const dayOff = (sitterId: string, day: string) =>
  inDatabase((database) =>
    database.prepare("insert into sitter_days_off (sitter_id, day) values (?, ?)").run(sitterId, day),
  );

test("an owner filters the deck by service, dates and number of pets", async ({ page, request, jsEnabled }) => {
  test.setTimeout(180_000);
  const [city, suffix] = jsEnabled ? ["Hobart", "J"] : ["Dunedin", "N"];
  const [first, away, last] = [await dayAhead(request, 10), await dayAhead(request, 11), await dayAhead(request, 13)];

  // Boarding only (no hourly rate), up to 3 pets: the one left by every filter.
  const boarder = await sitterIn(page, jsEnabled, { name: `Bea Boarder ${suffix}`, city });
  const boarderId = sitterOffers(boarder.email, "boarding", 3000);
  sitterTakesPets(boarder.email, 3, 500);
  withoutHourlyRate(boarder.email);
  // Boarding, 3 pets, but away on one of the days.
  const traveller = await sitterIn(page, jsEnabled, { name: `Abe Away ${suffix}`, city });
  dayOff(sitterOffers(traveller.email, "boarding", 2800), away);
  sitterTakesPets(traveller.email, 3, 0);
  // Boarding, one pet at a time.
  const single = await sitterIn(page, jsEnabled, { name: `Sol Single ${suffix}`, city });
  sitterOffers(single.email, "boarding", 2500);
  // By the hour only, 3 pets.
  const hourly = await sitterIn(page, jsEnabled, { name: `Hal Hourly ${suffix}`, city });
  sitterTakesPets(hourly.email, 3, 0);

  await ownerWithDog(page, jsEnabled, { name: `Olga Owner ${suffix}`, city, dog: "Rex" });
  await visit(page, "/dashboard");
  await browseLocally(page, jsEnabled, city);
  // Everyone is in the deck, the sitter without an hourly rate with their "from" price.
  const everyone = await passThroughDeck(page, async (name) => {
    if (name === boarder.name) await expect(page.getByText(/Boarding from €30\.00 per night/).first()).toBeVisible();
  });
  expect(everyone.sort()).toEqual([traveller.name, boarder.name, hourly.name, single.name].sort());
  await page.getByRole("button", { name: "Start Over" }).click();

  await page.getByRole("link", { name: /^Filters/ }).click();
  await expect(page.getByRole("heading", { name: "Filters" })).toBeVisible();
  // A last day before the first is refused under its field.
  await page.getByLabel("Service").selectOption("boarding");
  await page.getByLabel("First day").fill(last);
  await page.getByLabel("Last day").fill(first);
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(page.getByText("The last day cannot be before the first day")).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("First day").fill(first);
  await page.getByLabel("Last day").fill(last);
  await page.getByLabel("Number of pets").selectOption("2");
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(page.getByText("Filters applied")).toBeVisible();
  await expect(page.getByText("3 active filters")).toBeAttached();
  expect(await passThroughDeck(page)).toEqual([boarder.name]);

  // The filters stay as saved on the form, and clear together.
  await page.getByRole("link", { name: /^Filters/ }).click();
  await expect(page.getByLabel("Service")).toHaveValue("boarding");
  await expect(page.getByLabel("First day")).toHaveValue(first);
  await expect(page.getByLabel("Number of pets")).toHaveValue("2");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByText("Filters cleared")).toBeVisible();

  // Booking by the hour a sitter who offers none says so, with the way back to their profile.
  await page.goto(`/booking/request?walkerId=${boarderId}`);
  await expect(
    page.getByRole("heading", { name: `${boarder.name} does not offer pet sitting by the hour` }),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: `Back to ${boarder.name}'s profile` }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${boarderId}$`));
  // Anyone else is not found, as before.
  await page.goto("/booking/request?walkerId=nobody");
  await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await expectAccessible(page);
});
