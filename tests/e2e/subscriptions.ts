import type { Page } from "@playwright/test";
import { expect, visit } from "./support";

export async function payForPlan(page: Page, plan: string, number: string) {
  await visit(page, "/subscription");
  await page.getByRole("link", { name: `Choose ${plan}` }).click();
  await expect(page.getByRole("heading", { name: `Subscribe to ${plan}` })).toBeVisible();
  await page.getByLabel("Full name").fill("Olga Owner");
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay / }).click();
}
