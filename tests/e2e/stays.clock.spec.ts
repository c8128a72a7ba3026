import type { APIRequestContext, Page } from "@playwright/test";
import { addPetOf, sitterOffers, sitterTakesPets } from "./database";
import { dayAhead, ownerWithDog, serverNow, sitterIn } from "./people";
import { expect, expectAccessible, logIn, logOut, test, visit } from "./support";

// These move the server's clock (a stay starts, ends and is paid out), so they run with the other clock tests.
test.describe.configure({ mode: "serial" });

async function advance(request: APIRequestContext, hours: number) {
  const response = await request.post("/dev/clock", { form: { advanceMinutes: String(hours * 60) } });
  expect(response.ok()).toBe(true);
}

const bookingCard = (page: Page, name: string) =>
  page
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name, exact: false }) })
    .first();

test("a 5-night boarding for two dogs 10 days ahead: priced on the page, card saved, charged at the start, the sitter paid 72 h after the end", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(180_000);
  const [city, suffix] = jsEnabled ? ["Mendoza", "J"] : ["Rosario", "N"];
  const sitter = await sitterIn(page, jsEnabled, { name: `Bo Boarder ${suffix}`, city, rate: 15 });
  sitterOffers(sitter.email, "boarding", 4000);
  // Two dogs at once, €10 a night for the second.
  const sitterId = sitterTakesPets(sitter.email, 2, 1000);
  const owner = await ownerWithDog(page, jsEnabled, { name: `Olga Stay ${suffix}`, city, dog: "Rex" });
  addPetOf(owner.email, "Luna");
  const firstDay = await dayAhead(request, 10);
  const lastDay = await dayAhead(request, 15);

  await visit(page, `/users/${sitterId}`);
  await page.getByRole("link", { name: "Request a stay" }).click();
  await expect(page.getByRole("heading", { name: `Request a stay with ${sitter.name}` })).toBeVisible();
  await expect(page.getByRole("radio", { name: /Boarding/ })).toBeChecked();
  await expect(page.getByText("€40.00 per night")).toBeVisible();
  await page.getByRole("checkbox", { name: "Rex" }).check();
  await page.getByRole("checkbox", { name: "Luna" }).check();
  // A last day before the first is refused under its field, and nothing is booked.
  await page.getByLabel("First day").fill(lastDay);
  await page.getByLabel("Last day").fill(firstDay);
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByText("The last day must come after the first")).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("First day").fill(firstDay);
  await page.getByLabel("Drop-off time").selectOption("10:00");
  await page.getByLabel("Last day").fill(lastDay);
  await page.getByLabel("Pick-up time").selectOption("18:00");
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  // 5 nights × €40 + Luna 5 × €10 = €250, with the 20 % fee €300.
  await expect(page.getByText("5 nights")).toBeVisible();
  await expect(page.getByText("Price per night")).toBeVisible();
  await expect(page.getByText("Your card is saved now and charged €300.00 when the stay starts.")).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Name on card").fill("Olga Stay");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay €300.00" }).click();
  await expect(page.getByText("Card saved. Your request was sent.")).toBeVisible();
  await expect(bookingCard(page, sitter.name).getByText(/charged when the stay starts/)).toBeVisible();
  await logOut(page);

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings?tab=pending");
  const stay = bookingCard(page, owner.name);
  await expect(stay.getByText("Boarding")).toBeVisible();
  await expect(stay.getByText("You earn €250.00")).toBeVisible();
  await stay.getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText("Booking Accepted")).toBeVisible();

  // The stay starts: the card is charged; it ends, and 72 hours later the sitter is paid.
  // (Whole days from "now", whatever its hour: past the drop-off, then past the pick-up.)
  await advance(request, 11 * 24);
  await visit(page, "/bookings?tab=accepted");
  await expect(bookingCard(page, owner.name).getByText(/Payment held/)).toBeVisible();

  // During the stay the sitter sends the owner one update a day; the next day starts a new one.
  await bookingCard(page, owner.name).getByRole("link", { name: "Visit and care plan" }).click();
  await expect(page.getByRole("heading", { name: "Today's update" })).toBeVisible();
  await page.getByRole("button", { name: "Start today's update" }).click();
  await page.getByLabel("Note for the owner").fill("Rex and Luna settled in.");
  await page.getByRole("button", { name: "Save notes" }).click();
  await expect(page.getByText("Notes saved")).toBeVisible();
  await page.getByRole("button", { name: "Send today's update" }).click();
  await expect(page.getByText(/^Checked in at .+, checked out at .+\.$/)).toBeVisible();
  const updates = new URL(page.url()).pathname;
  await advance(request, 24);
  await visit(page, updates);
  await expect(page.getByRole("button", { name: "Start today's update" })).toBeVisible();
  const earlier = page.getByRole("region", { name: "Earlier updates" });
  await expect(earlier.getByText("Rex and Luna settled in.")).toBeVisible();
  await expect(earlier.getByText(/^Sent at /)).toBeVisible();
  await expectAccessible(page);

  await advance(request, 4 * 24);
  await visit(page, "/bookings?tab=completed");
  await expect(bookingCard(page, owner.name).getByText(/Payment held/)).toBeVisible();
  await advance(request, 73);
  await visit(page, "/bookings?tab=completed");
  await expect(bookingCard(page, owner.name).getByText(/Payment released/)).toBeVisible();
  await expect(bookingCard(page, owner.name).getByText("You earn €250.00")).toBeVisible();
  await expectAccessible(page);
  await logOut(page);

  await logIn(page, owner.email, owner.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings?tab=completed");
  await expect(bookingCard(page, sitter.name).getByText("Total €300.00")).toBeVisible();
  await expect(bookingCard(page, sitter.name).getByText(/Payment released/)).toBeVisible();
});

test("a 2-night house sitting within the hold window: the card held at once, captured at release", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(180_000);
  // Towns on UTC all year, so the server's 20:00 UTC is the sitter's 20:00 whether the browser says its zone or not.
  const [city, suffix] = jsEnabled ? ["Reykjavík", "J"] : ["Hafnarfjörður", "N"];
  const sitter = await sitterIn(page, jsEnabled, { name: `Hanna House ${suffix}`, city, rate: 15 });
  const sitterId = sitterOffers(sitter.email, "house_sitting", 5000);
  const owner = await ownerWithDog(page, jsEnabled, { name: `Olaf Away ${suffix}`, city, dog: "Rex" });
  // Move to the next 20:00 (UTC): two nights from tomorrow's 10:00, plus the 72-hour release window, end within 6 days.
  const now = new Date(await serverNow(request));
  const evening = new Date(now);
  evening.setUTCHours(20, 0, 0, 0);
  if (evening <= now) evening.setUTCDate(evening.getUTCDate() + 1);
  await advance(request, (evening.getTime() - now.getTime()) / 3_600_000);
  const firstDay = await dayAhead(request, 1);
  const lastDay = await dayAhead(request, 3);

  await visit(page, `/users/${sitterId}`);
  await page.getByRole("link", { name: "Request a stay" }).click();
  await expect(page.getByRole("radio", { name: /House sitting/ })).toBeChecked();
  await page.getByLabel("First day").fill(firstDay);
  await page.getByLabel("Drop-off time").selectOption("10:00");
  await page.getByLabel("Last day").fill(lastDay);
  await page.getByLabel("Pick-up time").selectOption("10:00");
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  // 2 nights × €50 = €100, with the 20 % fee €120, held now.
  await expect(page.getByText("2 nights")).toBeVisible();
  await page.getByLabel("Name on card").fill("Olaf Away");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay €120.00" }).click();
  await expect(page).toHaveURL(/\/bookings$/);
  await expect(bookingCard(page, sitter.name).getByText(/Payment held/)).toBeVisible();
  await logOut(page);

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings?tab=pending");
  await bookingCard(page, owner.name).getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText("Booking Accepted")).toBeVisible();
  // Past the pick-up (two days and 16 hours on): done, still held; 72 hours later captured and released.
  await advance(request, 2 * 24 + 16);
  await visit(page, "/bookings?tab=completed");
  await expect(bookingCard(page, owner.name).getByText(/Payment held/)).toBeVisible();
  await advance(request, 73);
  await visit(page, "/bookings?tab=completed");
  await expect(bookingCard(page, owner.name).getByText(/Payment released/)).toBeVisible();
  await expect(bookingCard(page, owner.name).getByText("You earn €100.00")).toBeVisible();
});
