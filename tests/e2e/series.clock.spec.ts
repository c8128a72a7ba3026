import type { APIRequestContext, Page } from "@playwright/test";
import { sitterOffers, userIdOf } from "./database";
import { dayAhead, ownerWithDog, sitterAvailableOn } from "./people";
import { expect, expectAccessible, logIn, logOut, test, visit } from "./support";

// The clock moves (dates are made a week ahead and held two days before), so these run with the other clock tests.
test.describe.configure({ mode: "serial" });

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const weekdayOf = (day: string) => WEEKDAYS[new Date(`${day}T12:00:00Z`).getUTCDay()]!;
const plusDays = (day: string, count: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + count * 24 * 3600_000).toISOString().slice(0, 10);
/** How the series page labels a date: "Wed, Dec 2 · 10:00". */
const dateLabel = (day: string, time: string) =>
  `${new Intl.DateTimeFormat("en", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`))} · ${time}`;

async function advance(request: APIRequestContext, hours: number) {
  const response = await request.post("/dev/clock", { form: { advanceMinutes: String(hours * 60) } });
  expect(response.ok()).toBe(true);
}

const dateRow = (page: Page, day: string, time: string) =>
  page.getByRole("listitem").filter({ hasText: dateLabel(day, time) });

test("weekly walks: asked once, accepted once, each date booked a week ahead and held, one skipped, the time changed from a week on, ended", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(240_000);
  const [city, suffix] = jsEnabled ? ["Kiruna", "J"] : ["Oulu", "N"];
  const first = await dayAhead(request, 2);
  const [third, fifth, eighth] = [plusDays(first, 2), plusDays(first, 4), plusDays(first, 7)];
  const sitter = await sitterAvailableOn(page, jsEnabled, first, { name: `Wendy Weekly ${suffix}`, city });
  sitterOffers(sitter.email, "walk", 1500, 60);
  const sitterId = userIdOf(sitter.email);
  const owner = await ownerWithDog(page, jsEnabled, { name: `Otto Regular ${suffix}`, city, dog: "Rex" });

  // Weekly care is paid with the default saved card: the request page says so and links to adding one.
  await visit(page, `/booking/walk?walkerId=${sitterId}&date=${first}`);
  await page.getByRole("radio", { name: "Every week" }).check();
  await expect(
    page.getByText("Weekly care is paid with your default saved card, and you have none yet."),
  ).toBeVisible();
  await page.getByRole("link", { name: "Add a card" }).click();
  await page.getByLabel("Full name").fill(owner.name);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(page.getByText("Payment method added")).toBeVisible();

  await visit(page, `/booking/walk?walkerId=${sitterId}&date=${first}`);
  await page.getByRole("checkbox", { name: "Rex" }).check();
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByRole("radio", { name: "Every week" }).check();
  await expect(page.getByText(/held on your default card Visa •••• 4242 two days before/)).toBeVisible();
  // The first date must be one of the chosen weekdays: refused under the days, nothing asked.
  await page.getByRole("checkbox", { name: weekdayOf(first) }).uncheck();
  await page.getByRole("checkbox", { name: weekdayOf(third) }).check();
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByText("The first date must fall on one of the chosen days.")).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("checkbox", { name: "Rex" }).check();
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByRole("radio", { name: "Every week" }).check();
  for (const day of [first, third, fifth]) await page.getByRole("checkbox", { name: weekdayOf(day) }).check();
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByText("Weekly care requested")).toBeVisible();
  await expect(page.getByRole("heading", { name: `Weekly care with ${sitter.name}` })).toBeVisible();
  await expect(page.getByText(`Waiting for ${sitter.name} to accept.`)).toBeVisible();
  const seriesPath = new URL(page.url()).pathname;
  await expectAccessible(page);
  await logOut(page);

  // The sitter accepts the series once: the dates of the coming week are booked at once.
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings");
  const listed = page.getByRole("region", { name: "Every week" });
  await expect(listed.getByText("Your answer")).toBeVisible();
  await listed.getByRole("link").first().click();
  await page.getByRole("button", { name: "Accept the series" }).click();
  await expect(page.getByText("Series accepted: the coming dates are booked")).toBeVisible();
  for (const day of [first, third, fifth]) await expect(dateRow(page, day, "10:00").getByText("Booked")).toBeVisible();
  await expect(dateRow(page, eighth, "10:00").getByText("Planned: booked a week ahead")).toBeVisible();
  await expectAccessible(page);
  await visit(page, "/bookings");
  await expect(page.getByRole("region", { name: "Every week" }).getByText("Regular client")).toBeVisible();
  await logOut(page);

  // Three days on: the first walk is done, the next one held, and the date a week after the first booked.
  await advance(request, 3 * 24);
  await logIn(page, owner.email, owner.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings?tab=completed");
  await expect(
    page.getByRole("article").first().getByRole("link", { name: "Part of weekly care: see the series" }),
  ).toBeVisible();
  await visit(page, seriesPath);
  await expect(dateRow(page, eighth, "10:00").getByText("Booked")).toBeVisible();

  // The owner skips a booked date; the sitter sees it skipped.
  await dateRow(page, fifth, "10:00")
    .getByRole("button", { name: `Skip ${dateLabel(fifth, "10:00")}` })
    .click();
  await expect(page.getByText("Date skipped")).toBeVisible();
  await expect(dateRow(page, fifth, "10:00").getByText("Skipped")).toBeVisible();

  // New days and a later time from a week after the first date: proposed by the owner, accepted by the sitter.
  await page.getByRole("checkbox", { name: weekdayOf(third) }).uncheck();
  await page.getByLabel("New time").fill("11:00");
  await page.getByLabel("From", { exact: true }).fill(eighth);
  await page.getByRole("button", { name: "Propose the change" }).click();
  await expect(page.getByText("Change proposed")).toBeVisible();
  await expect(page.getByText(`Waiting for ${sitter.name} to answer.`)).toBeVisible();
  await expectAccessible(page);
  await logOut(page);

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, seriesPath);
  await expect(page.getByText(`${owner.name} asks for this change.`)).toBeVisible();
  await page.getByRole("button", { name: "Accept the change" }).click();
  await expect(page.getByText("Change accepted")).toBeVisible();
  await expect(dateRow(page, eighth, "11:00").getByText("Booked")).toBeVisible();
  await expect(dateRow(page, plusDays(first, 9), "11:00")).toHaveCount(0);
  await logOut(page);

  // The owner ends it: what is booked is cancelled, what is past stays.
  await logIn(page, owner.email, owner.password);
  await page.waitForURL("**/dashboard");
  await visit(page, seriesPath);
  await page.getByRole("button", { name: "End the series" }).click();
  await expect(page.getByText("Series ended")).toBeVisible();
  await expect(page.getByText("Ended", { exact: true })).toBeVisible();
  await visit(page, "/bookings?tab=completed");
  await expect(page.getByRole("article")).toHaveCount(1);
});
