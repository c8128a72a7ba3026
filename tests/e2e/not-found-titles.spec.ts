import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, newPerson, signUpAndConfirm, test } from "./support";

// A refused page answers 404 under the not-found page's own title: neither "Overview", "People",
// "Audit log" (the console a member must not learn of) nor "Visit" (someone else's booking).
const NOT_FOUND_TITLE = "Oops! Page not found · Trusted Sitters";
const CONSOLE = ["/admin", "/admin/people", "/admin/audit"];

async function expectNotFound(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(404);
  await expect(page).toHaveTitle(NOT_FOUND_TITLE);
  const html = await response!.text();
  expect(/<title>([^<]*)<\/title>/.exec(html)?.[1], path).toBe(NOT_FOUND_TITLE);
}

test("every 404 carries the not-found title, for a visitor and for a member", async ({ page, jsEnabled }) => {
  for (const path of CONSOLE) await expectNotFound(page, path);
  await signUpAndConfirm(page, newPerson("owner"), jsEnabled);
  for (const path of [...CONSOLE, `/bookings/${randomUUID()}/visit`, `/bookings/${randomUUID()}/problem`])
    await expectNotFound(page, path);
});
