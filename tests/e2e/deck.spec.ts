import type { Locator, Page } from "@playwright/test";
import { ownerWithDog, sitterIn } from "./people";
import { payForPlan } from "./subscriptions";
import { expect, expectAccessible, logIn, logOut, test, visit } from "./support";

const topCard = (page: Page) => page.getByTestId("top-card");

/** Inside the window and above the bottom bar, without scrolling. */
async function expectOnScreen(page: Page, target: Locator) {
  const viewport = page.viewportSize()!;
  const bar = (await page.getByRole("navigation", { name: "Main" }).boundingBox())!;
  const box = (await target.boundingBox())!;
  const where = `${JSON.stringify(box)} in ${viewport.width}×${viewport.height}, bar at ${bar.y}`;
  expect(box.y, where).toBeGreaterThanOrEqual(0);
  expect(box.x, where).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, where).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height, where).toBeLessThanOrEqual(Math.min(bar.y, viewport.height));
}

async function expectDeckFits(page: Page, sitterName: string) {
  for (const size of [
    { width: 360, height: 640 },
    { width: 393, height: 851 },
  ]) {
    await page.setViewportSize(size);
    await expect(page.evaluate(() => window.scrollY)).resolves.toBe(0);
    await expect(topCard(page).getByRole("heading", { name: sitterName })).toBeVisible();
    for (const part of [
      topCard(page).getByRole("img", { name: new RegExp(`of ${sitterName}$`) }),
      topCard(page).getByRole("heading", { name: sitterName }),
      topCard(page).getByText(/\/h$/),
      // Experience and completed bookings ride on the photo, so they cost the buttons no room.
      topCard(page).getByText(/^\d+ years? of experience · \d+ completed bookings?$/),
      page.getByRole("button", { name: `Pass on ${sitterName}` }),
      page.getByRole("button", { name: `Like ${sitterName}` }),
      page.getByRole("link", { name: `About ${sitterName}` }),
    ]) {
      await expectOnScreen(page, part);
    }
  }
}

test("the deck fits a phone's screen, and Local / Global shows which one is on", async ({ page, jsEnabled }) => {
  test.setTimeout(150_000);
  const city = jsEnabled ? "Lerwick" : "Kirkwall";
  const sitter = await sitterIn(page, jsEnabled, { name: `Sami Screen ${jsEnabled ? "J" : "N"}`, city, years: 12 });
  await ownerWithDog(page, jsEnabled, { name: "Oona Screen", city, dog: "Pip" });

  await visit(page, "/dashboard");
  await expect(page.getByRole("heading", { name: "See who is nearby" })).toBeVisible();
  await expectDeckFits(page, sitter.name);
  // The photo people look at first is asked for from the head, at high priority, before the page's scripts.
  const topPhoto = topCard(page).getByRole("img", { name: new RegExp(`of ${sitter.name}$`) });
  await expect(topPhoto).toHaveAttribute("fetchpriority", "high");
  const html = await (await page.request.get("/dashboard")).text();
  const head = html.slice(0, html.indexOf("</head>"));
  const preload = head.match(/<link rel="preload" as="image" href="([^"]+)" fetchpriority="high"\/>/);
  expect(preload?.[1]).toBe(await topPhoto.getAttribute("src"));
  expect(html.indexOf('rel="modulepreload"')).toBeGreaterThan(html.indexOf("</head>"));

  await page.getByRole("button", { name: "Browse Globally" }).click();
  await expect(page.getByText("Showing profiles from everywhere").first()).toBeVisible();
  const modes = page.getByRole("group", { name: "Where to look" });
  await expect(modes.getByRole("button", { name: "Global" })).toHaveAttribute("aria-pressed", "true");
  await expect(modes.getByRole("button", { name: "Local" })).toHaveAttribute("aria-pressed", "false");

  await modes.getByRole("button", { name: "Local" }).click();
  await expect(page.getByText(`Showing profiles near ${city}`)).toBeVisible();
  await expect(modes.getByRole("button", { name: "Local" })).toHaveAttribute("aria-pressed", "true");
  await expect(modes.getByRole("button", { name: "Global" })).toHaveAttribute("aria-pressed", "false");
  await expect(topCard(page).getByRole("heading")).toHaveText(sitter.name);
  // Opened again, without the toast the choice left above the page.
  await visit(page, "/dashboard");
  await expectDeckFits(page, sitter.name);
  await expectAccessible(page);
});

test("the keyboard tip shows only where there is a keyboard", async ({ page, jsEnabled }) => {
  test.skip(!jsEnabled, "The arrow keys need JavaScript");
  test.setTimeout(120_000);
  const sitter = await sitterIn(page, jsEnabled, { name: "Tove Tip", city: "Hammerfest" });
  const owner = await ownerWithDog(page, jsEnabled, { name: "Tore Tip", city: "Hammerfest", dog: "Kos" });
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(topCard(page).getByRole("heading")).toHaveText(sitter.name);
  // This project is a touch phone.
  await expect(page.getByText("Tip: press → to like and ← to pass.")).toBeHidden();

  const desktop = await page
    .context()
    .browser()!
    .newContext({
      baseURL: new URL(page.url()).origin,
      viewport: { width: 1280, height: 800 },
      hasTouch: false,
      isMobile: false,
    });
  const withMouse = await desktop.newPage();
  await logIn(withMouse, owner.email, owner.password);
  await withMouse.waitForURL("**/dashboard");
  await expect(withMouse.getByText("Tip: press → to like and ← to pass.")).toBeVisible();
  await desktop.close();
});

test("see who liked you: Like back makes a match that offers Message, here and on the profile", async ({
  page,
  jsEnabled,
}) => {
  test.setTimeout(180_000);
  const city = jsEnabled ? "Stornoway" : "Portree";
  const sitter = await sitterIn(page, jsEnabled, { name: `Lina Likes ${jsEnabled ? "J" : "N"}`, city });
  const owner = await ownerWithDog(page, jsEnabled, { name: "Otis Likes", city, dog: "Mabel" });
  await payForPlan(page, "Monthly", "4242 4242 4242 4242");
  await expect(page.getByText("Welcome to Premium!")).toBeVisible();
  await logOut(page);

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(topCard(page).getByRole("heading")).toHaveText("Mabel");
  await page.getByRole("button", { name: "Like Mabel" }).click();
  await expect(topCard(page).getByRole("heading", { name: "Mabel" })).toHaveCount(0);
  await page.waitForLoadState("networkidle");
  await logOut(page);

  await logIn(page, owner.email, owner.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/dashboard/likes");
  await expect(page.getByRole("link", { name: `View profile of ${sitter.name}` })).toBeVisible();
  const profileHref = (await page.getByRole("link", { name: `View profile of ${sitter.name}` }).getAttribute("href"))!;
  await page.getByRole("button", { name: `Like back ${sitter.name}` }).click();
  const overlay = page.getByRole("dialog", { name: "It's a Match!" });
  await expect(overlay).toBeVisible();
  await expect(overlay.getByRole("link", { name: "Send Message" })).toHaveAttribute(
    "href",
    /^\/messages\?userId=[\w-]+$/,
  );
  await expectAccessible(page);

  await visit(page, profileHref);
  await expect(page.getByRole("link", { name: `Message ${sitter.name}` })).toHaveAttribute(
    "href",
    /^\/messages\?userId=[\w-]+$/,
  );
  await expect(page.getByRole("button", { name: /^Like back/ })).toHaveCount(0);
  await visit(page, "/dashboard/likes");
  await expect(page.getByRole("button", { name: `Like back ${sitter.name}` })).toHaveCount(0);
});

test("a new sitter nearby is offered on an open deck, without a reload", async ({ page, jsEnabled, browser }) => {
  test.skip(!jsEnabled, "Live updates need JavaScript");
  test.setTimeout(150_000);
  const city = "Vardø";
  await sitterIn(page, jsEnabled, { name: "Frida First", city });
  await ownerWithDog(page, jsEnabled, { name: "Oskar Open", city, dog: "Luna" });
  await visit(page, "/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(topCard(page).getByRole("heading")).toHaveText("Frida First");
  await page.getByRole("button", { name: "Pass on Frida First" }).click();
  await expect(page.getByRole("heading", { name: "No more profiles" })).toBeVisible();
  await page.waitForLoadState("networkidle");

  const elsewhere = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const newcomer = await elsewhere.newPage();
  await sitterIn(newcomer, jsEnabled, { name: "Nils Newcomer", city });
  await elsewhere.close();

  const offer = page.getByRole("link", { name: "New profiles nearby — show them" });
  await expect(offer).toBeVisible();
  await expectAccessible(page);
  await offer.click();
  await expect(topCard(page).getByRole("heading")).toHaveText("Nils Newcomer");
  await expect(offer).toHaveCount(0);
});
