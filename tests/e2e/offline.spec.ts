import { chromium } from "@playwright/test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium as chromiumOptions } from "../../playwright.config";
import { expect, test, visit } from "./support";

test.use({ serviceWorkers: "allow" });

test("installed app: a manifest to install from, and a translated offline page when the network is gone", async ({
  page,
  context,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "the service worker needs JavaScript");
  const manifest = await (await page.request.get("/manifest.webmanifest")).json();
  expect(manifest).toMatchObject({ name: "Trusted Sitters", display: "standalone", start_url: "/" });
  expect(manifest.icons.map((icon: { sizes: string }) => icon.sizes)).toEqual(
    expect.arrayContaining(["192x192", "512x512"]),
  );

  await visit(page, "/welcome?lng=es");
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });

  await context.setOffline(true);
  try {
    await page.goto("/select-role");
    await expect(page.getByRole("heading", { name: "Estás sin conexión" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Reintentar" })).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
  await page.getByRole("link", { name: "Reintentar" }).click();
  await expect(page.getByRole("heading", { name: "Estás sin conexión" })).toHaveCount(0);
});

test("installable: Chromium's own installability check finds nothing missing", async ({
  baseURL,
  browserName,
  jsEnabled,
}) => {
  test.skip(!jsEnabled || browserName !== "chromium", "installing needs Chromium with JavaScript");
  // Chromium installs nothing from an incognito window, and every test's context is one: a profile on
  // disk, as a person's browser has, for the check Lighthouse's "installable manifest" audit made.
  const profile = await mkdtemp(join(tmpdir(), "install-"));
  const browser = await chromium.launchPersistentContext(profile, { ...chromiumOptions, baseURL });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto("/welcome");
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const devtools = await browser.newCDPSession(page);
    const manifest = await devtools.send("Page.getAppManifest");
    expect(manifest.errors).toEqual([]);
    await expect
      .poll(async () => (await devtools.send("Page.getInstallabilityErrors")).installabilityErrors)
      .toEqual([]);
  } finally {
    await browser.close();
    await rm(profile, { recursive: true, force: true });
  }
});
