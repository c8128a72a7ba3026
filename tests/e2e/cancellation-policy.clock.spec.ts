import type { APIRequestContext, Page } from "@playwright/test";
import { paymentOf } from "./disputes-data";
import { dayAhead, ownerWithDog, sitterAvailableOn } from "./people";
import { expect, expectAccessible, logIn, logOut, test, visit, type Person } from "./support";

// Moves the server's clock (to two days before the booking), so it runs with the other clock tests.
test.describe.configure({ mode: "serial" });

async function advance(request: APIRequestContext, hours: number) {
  const response = await request.post("/dev/clock", { form: { advanceMinutes: String(hours * 60) } });
  expect(response.ok()).toBe(true);
}

async function signIn(page: Page, person: Person) {
  await logIn(page, person.email, person.password);
  await page.waitForURL("**/dashboard");
}

const bookingCard = (page: Page, name: string) =>
  page
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name, exact: false }) })
    .first();

test("a moderate-policy booking cancelled by the owner two days before its start keeps 50 %: 18 € back, 15 € for the sitter, 3 € fee", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(240_000);
  const tag = jsEnabled ? "J" : "N";
  const city = jsEnabled ? "Tromsø" : "Bodø";
  const day = await dayAhead(request, 5);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, { name: `Mona Moderate ${tag}`, city, rate: 15 });

  // The sitter picks the moderate policy in their sitter details.
  await signIn(page, sitter);
  await visit(page, "/profile/edit");
  const details = page.getByRole("form", { name: "Sitter details" });
  await expect(details.getByRole("radio", { name: /^Flexible/ })).toBeChecked();
  await details.getByText("Moderate", { exact: true }).click();
  await details.getByRole("button", { name: "Save sitter details" }).click();
  await expect(page.getByText("Profile updated")).toBeVisible();
  await logOut(page);

  // The owner reads it on the profile, then on the request and payment pages with this booking's dates and amounts.
  const owner = await ownerWithDog(page, jsEnabled, { name: `Otto Early ${tag}`, city, dog: "Pip" });
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await page.getByRole("link", { name: `About ${sitter.name}` }).click();
  const policy = page.getByRole("region", { name: "Cancellation policy" });
  await expect(policy).toContainText(
    "Moderate · Full refund if the owner cancels at least 3 days before the start; 50 % back after that.",
  );
  await page.getByRole("link", { name: `Book ${sitter.name}` }).click();
  await page.getByLabel("Date").fill(day);
  if (!jsEnabled) await page.getByRole("button", { name: "Show times" }).click();
  await expect(page.getByLabel("Start time").locator("option", { hasText: "10:00" })).toBeAttached();
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByText("2 h", { exact: true }).first().click();
  const requestTerms = page.getByRole("region", { name: "Cancellation policy: Moderate" });
  await expect(requestTerms.locator("[data-policy-for]:visible")).toContainText(
    /^Cancel before .+ for a full refund\./,
  );
  await expectAccessible(page);
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  const paymentTerms = page.getByRole("region", { name: "Cancellation policy: Moderate" });
  await expect(paymentTerms).toContainText(/Cancel before .+ for a full refund \(€36\.00\)\./);
  await expect(paymentTerms).toContainText("After that, you get 50 % back (€18.00).");
  await page.getByLabel("Name on card").fill("Otto Early");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay €36.00" }).click();
  await expect(page.getByText("Request sent! Your card is held, not charged, until the sitter answers.")).toBeVisible();
  await logOut(page);

  await signIn(page, sitter);
  await visit(page, "/bookings?tab=pending");
  await bookingCard(page, "Pip").getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText("Booking Accepted")).toBeVisible();
  await logOut(page);

  // Three days later the visit is about two days away: past the moderate policy's 3-day deadline.
  await advance(request, 3 * 24);
  await signIn(page, owner);
  await visit(page, "/bookings");
  await bookingCard(page, sitter.name).getByRole("link", { name: "Cancel and refund" }).click();
  // Told before confirming: what comes back and what is kept.
  await expect(page.getByText("You get €18.00 back of the €36.00 you paid.")).toBeVisible();
  await expect(
    page.getByText(
      `€18.00 is kept under the sitter's cancellation policy: €15.00 for ${sitter.name} and €3.00 platform fee.`,
    ),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Please provide a reason for cancellation:").fill("Our trip moved.");
  await page.getByRole("button", { name: "Cancel and refund" }).click();
  await expect(page.getByText("Booking Cancelled")).toBeVisible();
  await expect(bookingCard(page, sitter.name)).toContainText("Total €36.00 · Payment released · €18.00 refunded");
  await logOut(page);

  await signIn(page, sitter);
  await visit(page, "/bookings");
  await expect(bookingCard(page, "Pip")).toContainText("You earn €15.00 · Payment released · €18.00 refunded");
  const bookingId = await bookingCard(page, "Pip").getAttribute("aria-labelledby");
  expect(paymentOf(bookingId!.replace(/^booking-/, ""))).toEqual({
    payment_status: "released",
    refunded_cents: 1800,
    status: "cancelled",
    provider_status: "captured",
    provider_amount: 1800,
  });
});
