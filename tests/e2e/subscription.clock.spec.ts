import type { APIRequestContext, Page } from "@playwright/test";
import { payForPlan } from "./subscriptions";
import { expect, expectAccessible, logIn, newPerson, signUpAndConfirm, test, visit, type Person } from "./support";

// These move the server's clock (periods end and renew), so they run with the other clock tests.
test.describe.configure({ mode: "serial" });

async function advanceDays(request: APIRequestContext, days: number) {
  const response = await request.post("/dev/clock", { form: { advanceMinutes: String(days * 24 * 60) } });
  expect(response.ok()).toBe(true);
}

/** Time passes (sessions expire on the way), and the person signs in again. */
async function later(page: Page, request: APIRequestContext, person: Person, days: number) {
  await advanceDays(request, days);
  await logIn(page, person.email, person.password);
  await page.waitForURL(/\/(dashboard|pet-profile-setup)/);
}

async function outboxSubjects(page: Page, to: string): Promise<string[]> {
  await page.goto("/dev/outbox");
  const emails = page.getByRole("article").filter({ has: page.getByTestId("email-to").getByText(to, { exact: true }) });
  return emails.getByRole("heading").allTextContents();
}

test("a subscription renews at the period end; a failed renewal is past due, retried, then unpaid, and paying restores it", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(150_000);
  const owner = newPerson("owner", { name: "Rita Renewal" });
  await signUpAndConfirm(page, owner, jsEnabled);
  await payForPlan(page, "Monthly", "4242 4242 4242 4242");
  await expect(page.getByText("Welcome to Premium!")).toBeVisible();
  const mine = page.getByRole("region", { name: "My Subscription" });
  const period = await mine.getByRole("definition").nth(2).textContent();

  // A month and a bit later the default card was charged for the next period.
  await later(page, request, owner, 32);
  await visit(page, "/subscription?tab=mine");
  await expect(mine.getByText("Active", { exact: true })).toBeVisible();
  await expect(mine.getByRole("definition").nth(2)).not.toHaveText(period ?? "");
  expect(await outboxSubjects(page, owner.email)).toContain("Your premium Monthly plan was renewed");

  // A card without funds becomes the default: the next renewal fails.
  await visit(page, "/subscription/cards/new");
  await page.getByLabel("Card number").fill("4000 0000 0000 9995");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(page.getByText("Payment method added")).toBeVisible();
  await page.getByRole("button", { name: "Make Visa ending in 9995 the default" }).click();
  await expect(page.getByText("Default payment method updated")).toBeVisible();
  await later(page, request, owner, 32);
  await visit(page, "/subscription?tab=mine");
  await expect(mine.getByText("Past due", { exact: true })).toBeVisible();
  await expect(page.getByText(/Your last payment failed: Your card has insufficient funds\./)).toBeVisible();
  await expectAccessible(page);
  expect(await outboxSubjects(page, owner.email)).toContain("Your premium payment failed");

  // The retries fail too: the subscription is unpaid and the perks stop.
  for (let round = 0; round < 3; round += 1) await advanceDays(request, 6);
  await later(page, request, owner, 0);
  await visit(page, "/subscription?tab=mine");
  await expect(mine.getByText("Unpaid", { exact: true })).toBeVisible();
  expect(await outboxSubjects(page, owner.email)).toContain("Your premium subscription is paused");
  await visit(page, "/dashboard/likes");
  await expect(page.getByRole("heading", { name: "A Premium perk" })).toBeVisible();

  // The good card again, and 'Pay now'.
  await visit(page, "/subscription?tab=mine");
  await page.getByRole("button", { name: "Make Visa ending in 4242 the default" }).click();
  await expect(page.getByText("Default payment method updated")).toBeVisible();
  await page.getByRole("button", { name: "Pay now" }).click();
  await expect(page.getByText("Payment received. Your subscription is active again.")).toBeVisible();
  await expect(mine.getByText("Active", { exact: true })).toBeVisible();
});

test("a cancelled subscription ends at the period end", async ({ page, request, jsEnabled }) => {
  test.setTimeout(120_000);
  const owner = newPerson("owner", { name: "Carla Cancel" });
  await signUpAndConfirm(page, owner, jsEnabled);
  await payForPlan(page, "Yearly", "4242 4242 4242 4242");
  await expect(page.getByText("Welcome to Premium!")).toBeVisible();
  await page.getByRole("button", { name: "Cancel subscription" }).click();
  await expect(page.getByText("Subscription cancelled")).toBeVisible();
  await advanceDays(request, 200);
  await later(page, request, owner, 167);
  await visit(page, "/subscription?tab=mine");
  const mine = page.getByRole("region", { name: "My Subscription" });
  await expect(mine.getByText("Canceled", { exact: true })).toBeVisible();
  await expect(page.getByText("You have no active subscription")).toBeVisible();
  await expect(page.getByText(/Your Yearly plan ended on/)).toBeVisible();
  expect(await outboxSubjects(page, owner.email)).toContain("Your premium subscription has ended");
});
