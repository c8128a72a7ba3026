import type { APIRequestContext, Page } from "@playwright/test";
import { addPetOf, sitterOffers, sitterTakesPets } from "./database";
import { dayAhead, ownerWithDog, sitterIn } from "./people";
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
  await advance(request, 5 * 24);
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
