import type { Page } from "@playwright/test";
import { recordLikesToday } from "./database";
import { payForPlan } from "./subscriptions";
import { ownerWithDog, sitterIn } from "./people";
import { expect, expectAccessible, newPerson, signUpAndConfirm, test, visit } from "./support";

const topCardName = (page: Page) => page.getByTestId("top-card").getByRole("heading", { level: 2 });

async function addCard(page: Page, number: string, expiry = "12/30") {
  await visit(page, "/subscription?tab=mine");
  await page.getByRole("link", { name: "Add payment method" }).click();
  await expect(page.getByRole("heading", { name: "Add a payment method" })).toBeVisible();
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill(expiry);
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();
}

test("subscribe with a test card, get unlimited likes and see who liked you, cancel at period end and reactivate", async ({
  page,
  jsEnabled,
}) => {
  test.setTimeout(180_000);
  const city = jsEnabled ? "Tromsø" : "Bodø";
  const sitter = await sitterIn(page, jsEnabled, { name: `Pia Premium ${jsEnabled ? "J" : "N"}`, city });
  const owner = await ownerWithDog(page, jsEnabled, { name: "Olga Owner", city, dog: "Rex" });
  recordLikesToday(owner.email, 25);

  // A free account has used its 25 likes today: the 26th is refused.
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(page.getByText(`Showing profiles near ${city}`)).toBeVisible();
  await expect(page.getByText("You have used your 25 likes for today.").first()).toBeVisible();
  await page.getByRole("button", { name: `Like ${sitter.name}` }).click();
  await expect(page.getByText("No likes left today")).toBeVisible();
  // The refused card stays on the deck, with or without JavaScript.
  await expect(topCardName(page)).toHaveText(sitter.name);
  // The like was not stored: the card is still there when the deck is loaded again.
  await visit(page, "/dashboard");
  await expect(topCardName(page)).toHaveText(sitter.name);

  // 'See who liked you' is locked for free accounts.
  await page.getByRole("link", { name: "See who liked you" }).click();
  await expect(page.getByRole("heading", { name: "A Premium perk" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "See the plans" }).click();

  // The plans, then the payment form of the popular one.
  await expect(page.getByRole("heading", { name: "Premium" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Plans" })).toHaveAttribute("aria-current", "page");
  const popular = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "6 Months" }) });
  await expect(popular.getByText("Most Popular")).toBeVisible();
  await expect(popular.getByText("€49.99")).toBeVisible();
  await expect(
    page
      .getByRole("article")
      .filter({ has: page.getByRole("heading", { name: "Monthly" }) })
      .getByText("€9.99"),
  ).toBeVisible();
  await expect(
    page
      .getByRole("article")
      .filter({ has: page.getByRole("heading", { name: "Yearly" }) })
      .getByText("€89.99"),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Choose 6 Months" }).click();
  await expect(page.getByRole("heading", { name: "Subscribe to 6 Months" })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(owner.email);
  await page.getByRole("link", { name: "Back to plans" }).click();
  await expect(page.getByRole("link", { name: "Choose 6 Months" })).toBeVisible();
  await page.getByRole("link", { name: "Choose 6 Months" }).click();

  // Required fields are checked before anything is charged.
  await page.getByLabel("Email").fill("");
  await page.getByRole("button", { name: "Pay €49.99" }).click();
  await expect(page.getByText("Please enter a valid email")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);
  await page.getByLabel("Full name").fill("Olga Owner");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Pay €49.99" }).click();
  await expect(page.getByText("Welcome to Premium!")).toBeVisible();
  await expect(page.getByRole("link", { name: "My Subscription" })).toHaveAttribute("aria-current", "page");
  const mine = page.getByRole("region", { name: "My Subscription" });
  await expect(mine.getByText("6 Months")).toBeVisible();
  await expect(mine.getByText("Active", { exact: true })).toBeVisible();
  await expect(mine.getByText("Days until renewal")).toBeVisible();
  await expect(page.getByText("Visa ending in 4242")).toBeVisible();
  await expectAccessible(page);

  // The plan is marked, and cannot be bought twice.
  await visit(page, "/subscription");
  await expect(popular.getByText("Current Plan")).toBeVisible();
  await expect(page.getByRole("link", { name: "Choose 6 Months" })).toHaveCount(0);
  await page.goto("/subscription/checkout/semiannual");
  await expect(page.getByText("You are already subscribed to this plan.")).toBeVisible();

  // Perks: the 26th like goes through, and the likes page is open.
  await visit(page, "/dashboard");
  await expect(page.getByText("Premium: unlimited likes")).toBeVisible();
  await page.getByRole("button", { name: `Like ${sitter.name}` }).click();
  await expect(page.getByRole("heading", { name: "No more profiles" })).toBeVisible();
  await expect(page.getByText("No likes left today")).toHaveCount(0);
  await visit(page, "/dashboard/likes");
  await expect(page.getByText("Nobody new yet. Keep swiping!")).toBeVisible();

  // Cancel at the period end, then reactivate.
  await visit(page, "/subscription?tab=mine");
  await page.getByRole("button", { name: "Cancel subscription" }).click();
  await expect(page.getByText("Subscription cancelled")).toBeVisible();
  await expect(page.getByText(/Your subscription ends on .+\. You can reactivate it until then\./)).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel subscription" })).toHaveCount(0);
  await expect(mine.getByText("Days until expiry")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Reactivate" }).click();
  await expect(page.getByText("Subscription reactivated")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel subscription" })).toBeVisible();
  await expect(page.getByText(/Your subscription ends on/)).toHaveCount(0);
});

test("a declined card shows the payment error; saved cards can be added, made default and removed", async ({
  page,
  jsEnabled,
}) => {
  test.setTimeout(150_000);
  const owner = newPerson("owner", { name: "Dora Declined" });
  await signUpAndConfirm(page, owner, jsEnabled);

  await visit(page, "/profile");
  await page.getByRole("link", { name: "Payment Methods" }).click();
  await expect(page.getByText("No saved payment methods")).toBeVisible();
  await expect(page.getByText("You have no active subscription")).toBeVisible();
  await expect(page.getByRole("region", { name: "My Subscription" }).getByText("Inactive")).toBeVisible();
  await expectAccessible(page);

  await payForPlan(page, "Monthly", "4000 0000 0000 0002");
  await expect(page.getByText("Payment error")).toBeVisible();
  await expect(page.getByText("Your card was declined.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Subscribe to Monthly" })).toBeVisible();
  await expectAccessible(page);

  await addCard(page, "4242 4242 4242 4242");
  await expect(page.getByText("Payment method added")).toBeVisible();
  await addCard(page, "5555 5555 5555 4444", "03/31");
  await expect(page.getByText("Payment method added")).toBeVisible();
  const visa = page.getByRole("listitem").filter({ hasText: "Visa ending in 4242" });
  const mastercard = page.getByRole("listitem").filter({ hasText: "Mastercard ending in 4444" });
  await expect(visa.getByText("Default")).toBeVisible();
  await expect(mastercard.getByText("Expires 03/2031")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Make Mastercard ending in 4444 the default" }).click();
  await expect(page.getByText("Default payment method updated")).toBeVisible();
  await expect(mastercard.getByText("Default", { exact: true })).toBeVisible();
  await expect(visa.getByText("Default", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Remove Visa ending in 4242" }).click();
  await expect(page.getByText("Payment method removed")).toBeVisible();
  await expect(visa).toHaveCount(0);

  // Someone else's ids are not found, and nothing changes.
  const forged = await page.request.post("/subscription", {
    form: { intent: "remove-card", methodId: "not-mine" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(forged.status()).toBe(404);
  const malformed = await page.request.post("/subscription", {
    form: { intent: "cancel", subscriptionId: "x".repeat(5000) },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(malformed.status()).toBe(400);
  await visit(page, "/subscription?tab=mine");
  await page.getByRole("button", { name: "Remove Mastercard ending in 4444" }).click();
  await expect(page.getByText("No saved payment methods")).toBeVisible();
});
