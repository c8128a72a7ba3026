import { expect, reactHydrated, test } from "./support";

test("presses while a page is starting on a slow phone leave it working, its scripts running", async ({
  page,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "about the moment the scripts take over the page");
  // A phone six times slower than this machine, and the page's scripts held until the person is already pressing.
  const phone = await page.context().newCDPSession(page);
  await phone.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  let startScripts = () => {};
  const held = new Promise<void>((resolve) => (startScripts = resolve));
  await page.route(/\/locales\//, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/auth?mode=signup&role=owner");
  const heading = page.getByRole("heading", { level: 1 });
  const box = (await heading.boundingBox())!;
  startScripts();
  for (let press = 0; press < 40; press++) await page.mouse.click(box.x + 2, box.y + 2);

  // The page comes alive all the same: the form checks itself in the browser, and no script failed (the fixture).
  await reactHydrated(page);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByLabel("Full name")).toHaveAttribute("aria-invalid", "true");
});
