import type { APIRequestContext, Page } from "@playwright/test";
import { dayAhead, ownerWithDog, sitterIn } from "./people";
import { expect, expectAccessible, logIn, logOut, test, visit, type Person } from "./support";

// These move the server's clock (bookings start and end), so they run with the other clock tests.
test.describe.configure({ mode: "serial" });

async function advance(request: APIRequestContext, hours: number) {
  const response = await request.post("/dev/clock", { form: { advanceMinutes: String(hours * 60) } });
  expect(response.ok()).toBe(true);
}

async function publishFullDay(page: Page, day: string) {
  await visit(page, `/availability?date=${day}`);
  if (!(await page.getByLabel("Start time").isVisible()))
    await page.locator("summary", { hasText: "Add Availability Slot" }).click();
  await page.getByRole("button", { name: "Full Day (9-5)" }).click();
  await expect(page.getByText("Availability slot added")).toBeVisible();
}

/** The owner finds the sitter in the deck (local mode, their town) and opens the booking form from the profile. */
async function findSitter(page: Page, sitter: Person): Promise<string> {
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(page.getByText(`Showing profiles near ${sitter.city}`)).toBeVisible();
  await page.getByRole("link", { name: `About ${sitter.name}` }).click();
  await page.getByRole("link", { name: `Book ${sitter.name}` }).click();
  await expect(page.getByRole("heading", { name: `Book ${sitter.name}` })).toBeVisible();
  return new URL(page.url()).pathname + new URL(page.url()).search;
}

async function requestBooking(page: Page, jsEnabled: boolean, form: string, day: string, hours: number) {
  await page.goto(form);
  await page.getByLabel("Date").fill(day);
  if (!jsEnabled) await page.getByRole("button", { name: "Show times" }).click();
  await expect(page.getByLabel("Start time").locator("option", { hasText: "10:00" })).toBeAttached();
  await expectAccessible(page);
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByText(`${hours} h`, { exact: true }).first().click();
  // The breakdown follows the chosen duration, with JavaScript and without.
  await expect(page.getByRole("region", { name: "Price" }).locator("dl:visible")).toContainText(
    `Duration${hours} ${hours === 1 ? "hour" : "hours"}Subtotal`,
  );
  await page.getByLabel("Special instructions").fill("<b>Keys</b> are with the concierge'); drop table bookings; --");
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
}

async function pay(page: Page, number: string) {
  await page.getByLabel("Name on card").fill("Olga Owner");
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
}

const bookingCard = (page: Page, name: string) =>
  page
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name, exact: false }) })
    .first();

test("publish, request, pay (declined, then accepted card), accept, complete, release and review on both sides", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(180_000);
  const city = jsEnabled ? "Bergen" : "Stavanger";
  const sitter = await sitterIn(page, jsEnabled, { name: `Bea Booker ${jsEnabled ? "J" : "N"}`, city, rate: 20 });
  const day = await dayAhead(request, 2);
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await publishFullDay(page, day);
  await logOut(page);

  const owner = await ownerWithDog(page, jsEnabled, { name: "Olga Owner", city, dog: "Rex" });
  const form = await findSitter(page, sitter);
  // The form opens on the sitter's next day with free time, which is also the one quick choice.
  await expect(page.getByLabel("Date")).toHaveValue(day);
  const freeDays = page.getByRole("navigation", { name: "Days with free time" }).getByRole("link");
  await expect(freeDays).toHaveCount(1);
  await expect(freeDays).toHaveAttribute("aria-current", "date");
  await requestBooking(page, jsEnabled, form, day, 2);
  // €20 × 2 h = €40, plus the 20% fee.
  await expect(page.getByRole("button", { name: "Pay €48.00" })).toBeVisible();
  await expectAccessible(page);

  await pay(page, "4000 0000 0000 0002");
  await expect(page.getByText("Payment failed. Please try again.")).toBeVisible();
  await expect(page.getByText("Your card was declined.")).toBeVisible();
  await expectAccessible(page);
  await pay(page, "4242 4242 4242 4242");
  await expect(page.getByText("Request sent! Your card is held, not charged, until the sitter answers.")).toBeVisible();
  await expect(bookingCard(page, sitter.name).getByText("Pending")).toBeVisible();
  await expect(bookingCard(page, sitter.name).getByText(/Payment held/)).toBeVisible();
  await expectAccessible(page);
  await logOut(page);

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings?tab=pending");
  const request1 = bookingCard(page, "Rex");
  await expect(request1.getByText("<b>Keys</b> are with the concierge")).toBeVisible();
  await request1.getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText("Booking Accepted")).toBeVisible();
  await visit(page, `/availability?date=${day}`);
  await expect(page.getByText("Booked")).toBeVisible();

  // Time passes: the booking starts and ends.
  await advance(request, 3 * 24);
  await visit(page, "/bookings?tab=completed");
  await expect(bookingCard(page, "Rex").getByText("Completed")).toBeVisible();
  await logOut(page);

  await logIn(page, owner.email, owner.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings?tab=completed");
  await bookingCard(page, sitter.name).getByRole("button", { name: "Release Payment" }).click();
  await expect(page.getByText("Payment Released", { exact: true })).toBeVisible();
  await expect(bookingCard(page, sitter.name).getByText(/Payment released/)).toBeVisible();
  await bookingCard(page, sitter.name)
    .getByRole("link", { name: `Review ${sitter.name}` })
    .click();
  await page.getByRole("button", { name: "Send review" }).click();
  await expect(page.getByText("Please choose from 1 to 5 stars")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("radio", { name: "5 ★" }).check();
  await page.getByLabel("Comment").fill("Rex came back happy and tired.");
  await page.getByRole("button", { name: "Send review" }).click();
  await expect(page.getByText("Thank you! Your review was published.")).toBeVisible();
  await logOut(page);

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/profile");
  await expect(page.getByText("Rex came back happy and tired.")).toBeVisible();
  await expect(page.getByText("★ 5.0 (1 review)")).toBeVisible();
  await visit(page, "/bookings?tab=completed");
  await bookingCard(page, "Rex")
    .getByRole("link", { name: `Review ${owner.name}` })
    .click();
  await page.getByRole("radio", { name: "4 ★" }).check();
  await page.getByRole("button", { name: "Send review" }).click();
  await expect(page.getByText("Thank you! Your review was published.")).toBeVisible();
});

test("the sitter declines, the owner cancels with a reason, and an unreleased payment releases itself after 72 hours", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(180_000);
  const city = jsEnabled ? "Trondheim" : "Kristiansand";
  const sitter = await sitterIn(page, jsEnabled, { name: `Cleo Calendar ${jsEnabled ? "J" : "N"}`, city, rate: 10 });
  const day = await dayAhead(request, 3);
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await publishFullDay(page, day);
  await logOut(page);
  const owner = await ownerWithDog(page, jsEnabled, { name: "Otis Owner", city, dog: "Fido" });
  const form = await findSitter(page, sitter);

  // 1. Declined by the sitter: the hold is released.
  await requestBooking(page, jsEnabled, form, day, 1);
  await pay(page, "4242424242424242");
  await expect(page.getByText("Request sent! Your card is held, not charged, until the sitter answers.")).toBeVisible();
  await logOut(page);
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings?tab=pending");
  await bookingCard(page, "Fido").getByRole("button", { name: "Decline" }).click();
  await expect(page.getByText("The request was declined")).toBeVisible();
  await logOut(page);

  // 2. Cancelled by the owner, who must give a reason.
  await logIn(page, owner.email, owner.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings");
  await expect(bookingCard(page, sitter.name).getByText("Hold released")).toBeVisible();
  await requestBooking(page, jsEnabled, form, day, 1);
  await pay(page, "4242424242424242");
  await expect(page.getByText("Request sent! Your card is held, not charged, until the sitter answers.")).toBeVisible();
  await page.getByRole("link", { name: "Cancel and refund" }).first().click();
  await page.getByRole("button", { name: "Cancel and refund" }).click();
  await expect(page.getByText("Please provide a reason for cancellation:").last()).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Please provide a reason for cancellation:").fill("Our plans changed.");
  await page.getByRole("button", { name: "Cancel and refund" }).click();
  await expect(page.getByText("Booking Cancelled")).toBeVisible();
  await expect(page.getByText("Cancelled by the owner: Our plans changed.")).toBeVisible();

  // 3. Accepted and completed, then released automatically 72 hours later.
  await requestBooking(page, jsEnabled, form, day, 1);
  await pay(page, "4242424242424242");
  await expect(page.getByText("Request sent! Your card is held, not charged, until the sitter answers.")).toBeVisible();
  await logOut(page);
  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings?tab=pending");
  await bookingCard(page, "Fido").getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText("Booking Accepted")).toBeVisible();
  await advance(request, 4 * 24);
  await visit(page, "/bookings?tab=completed");
  await expect(bookingCard(page, "Fido").getByText(/Payment held/)).toBeVisible();
  await advance(request, 73);
  await visit(page, "/bookings?tab=completed");
  await expect(bookingCard(page, "Fido").getByText(/Payment released/)).toBeVisible();
  await visit(page, "/profile");
  await expect(page.getByRole("heading", { name: "Earnings" })).toBeVisible();
});
