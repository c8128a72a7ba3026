import { expect, expectAccessible, linkFromEmail, logOut, newPerson, signUpAndConfirm, test } from "./support";

// Tests here move the server's clock, so they run alone, after every other test (playwright.config.ts).
test.describe.configure({ mode: "serial" });

test("a reset link expires after an hour, and an unknown email gets the same answer", async ({
  page,
  request,
  jsEnabled,
}) => {
  const owner = newPerson();
  await signUpAndConfirm(page, owner, jsEnabled);
  await logOut(page);
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  // Leaving before the answer could cancel the request, and no email would ever come.
  await expect(page.getByText("If an account exists for that address")).toBeVisible();
  const link = await linkFromEmail(page, owner.email, "/reset-password");
  const clock = await request.post("/dev/clock", { form: { advanceMinutes: "61" } });
  expect(clock.ok()).toBe(true);
  try {
    await page.goto(link);
    await expect(page.getByText("This reset link has expired. Please request a new one.")).toBeVisible();
    await expectAccessible(page);
  } finally {
    await request.post("/dev/clock", { form: { reset: "true" } });
  }

  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill("ghost-account@example.com");
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText("If an account exists for that address")).toBeVisible();
});
