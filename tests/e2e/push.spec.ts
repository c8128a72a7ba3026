import { fullChromium } from "../../playwright.config";
import { expect, newPerson, signUpAndConfirm, test } from "./support";

// In the browser people have: the headless shell denies notifications outright.
test.use({ launchOptions: fullChromium });

test("the settings page explains push without JavaScript, and never asks for permission before a press", async ({
  page,
  jsEnabled,
}) => {
  await signUpAndConfirm(page, newPerson("owner"), jsEnabled);
  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Notifications on this device" });
  await expect(section).toBeVisible();
  if (!jsEnabled) {
    await expect(section.getByText("need JavaScript and a browser that supports them")).toBeVisible();
    await expect(section.getByRole("button")).toHaveCount(0);
    return;
  }
  // With JavaScript, the section offers to turn push on (or says why it cannot); the browser was not asked.
  await expect(
    section.getByRole("button", { name: "Turn on" }).or(section.getByText("cannot show notifications")),
  ).toBeVisible();
  expect(await page.evaluate(() => ("Notification" in window ? Notification.permission : "default"))).toBe("default");
});
