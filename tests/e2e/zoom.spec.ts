import type { Page } from "@playwright/test";
import { dayAhead, ownerWithDog, sitterAvailableOn } from "./people";
import { expect, logIn, logOut, reactHydrated, test } from "./support";

// WCAG 1.4.4 and 1.4.10 together: text at 200 % on a 320 CSS px wide screen (a 640 px window
// zoomed to 200 %) must reflow without horizontal scrolling. The app sizes text and spacing in rem
// (Tailwind), so doubling the root font size doubles the text as the browser's text zoom does.

const narrow = { width: 320, height: 640 };

/**
 * What sticks out sideways on the page at `path`, text at 200 %: empty when it reflows. Each screen
 * is measured as it is with JavaScript, then with its <noscript> parts shown as they are without
 * (the only markup the JavaScript-off pages add), which keeps this to one run instead of two.
 */
async function overflowAt200(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  // Replacing <noscript> parts under React while it hydrates would break the hydration, not the page.
  await reactHydrated(page);
  const withScripts = await measure(page, false);
  const withoutScripts = await measure(page, true);
  return [
    ...withScripts,
    ...withoutScripts
      .filter((problem) => !withScripts.includes(problem))
      .map((problem) => `(without JavaScript) ${problem}`),
  ];
}

function measure(page: Page, showNoscript: boolean): Promise<string[]> {
  return page.evaluate((showNoscript) => {
    if (showNoscript) {
      for (const noscript of document.querySelectorAll("noscript")) {
        const shown = document.createElement("span");
        shown.innerHTML = noscript.textContent ?? "";
        noscript.replaceWith(shown);
      }
    }
    // Set through the CSS object model, which the Content-Security-Policy allows (an injected <style> it would not).
    document.documentElement.style.setProperty("font-size", "200%", "important");
    const rootSize = parseFloat(getComputedStyle(document.documentElement).fontSize);
    if (rootSize < 32) return [`the root font size is ${rootSize}px, not 200 %`];
    const width = window.innerWidth;
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > width)
      problems.push(`scrolls sideways: ${document.documentElement.scrollWidth}px wide`);
    // Also what a hidden overflow would cut off: content past the right edge, outside anything that scrolls on purpose.
    const scrollsSideways = (element: Element) => {
      for (let node: Element | null = element.parentElement; node; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if (
          (overflow === "auto" || overflow === "scroll") &&
          node !== document.documentElement &&
          node !== document.body
        )
          return true;
      }
      return false;
    };
    const describe = (element: Element) =>
      `<${element.tagName.toLowerCase()} class="${(element.getAttribute("class") ?? "").slice(0, 80)}"> "${(element.textContent ?? "").trim().slice(0, 30)}"`;
    for (const element of document.body.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === "hidden") continue;
      if ((box.right > width + 1 || box.left < -1) && !scrollsSideways(element) && !element.closest(".sr-only")) {
        problems.push(`${describe(element)} spans ${Math.round(box.left)}-${Math.round(box.right)}px`);
      }
    }
    // The fixed bottom navigation grows with the text: the space kept free under the content must too.
    const bottomNav = [...document.querySelectorAll("nav")].find((nav) => getComputedStyle(nav).position === "fixed");
    if (bottomNav) {
      const navHeight = bottomNav.getBoundingClientRect().height;
      const content = bottomNav.previousElementSibling;
      const keptFree = content ? parseFloat(getComputedStyle(content).paddingBottom) : 0;
      if (navHeight > keptFree)
        problems.push(
          `the bottom navigation (${Math.round(navHeight)}px tall) covers the end of the page (${keptFree}px kept free)`,
        );
    }
    return problems.slice(0, 6);
  }, showNoscript);
}

async function expectAllReflow(page: Page, paths: string[]) {
  const original = page.viewportSize();
  await page.setViewportSize(narrow);
  const failures: string[] = [];
  for (const path of paths) {
    const problems = await overflowAt200(page, path);
    if (problems.length) failures.push(`${path}:\n    ${problems.join("\n    ")}`);
  }
  if (original) await page.setViewportSize(original);
  expect(failures, "screens that do not reflow at 320 px with 200 % text").toEqual([]);
}

const hrefOf = async (page: Page, selector: string) => {
  const href = await page.locator(selector).first().getAttribute("href");
  if (!href) throw new Error(`No link ${selector} on ${page.url()}`);
  return href;
};

test("every screen reflows at 320 px with text at 200 %, signed out, as an owner and as a sitter", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "measured once, with and without the <noscript> parts, in the JavaScript project");
  test.setTimeout(240_000);
  await expectAllReflow(page, [
    "/welcome",
    "/select-role",
    "/auth",
    "/auth?mode=signup",
    "/auth?mode=signup&role=owner",
    "/forgot-password",
    "/reset-password?token=unknown",
    "/no-such-page",
    "/offline",
  ]);

  const city = "Narvik";
  const day = await dayAhead(request, 2);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, { name: "Zed Zoom", city, rate: 18 });
  await ownerWithDog(page, jsEnabled, { name: "Zoe Owner", city, dog: "Bolt" });

  // The owner asks for a booking, so that a conversation, a booking and its payment page exist.
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Enable Location" }).click();
  await expect(page.getByText(`Showing profiles near ${city}`)).toBeVisible();
  const sitterProfile = await page.getByRole("link", { name: `About ${sitter.name}` }).getAttribute("href");
  if (!sitterProfile) throw new Error("No link to the sitter's profile");
  await page.goto(`/booking/request?walkerId=${sitterProfile.split("/").pop()}&date=${day}`);
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  const payment = new URL(page.url()).pathname;
  await page.goto("/messages");
  const conversation = await hrefOf(page, 'a[href^="/messages?c="]');
  await page.goto("/profile");
  const petEdit = await hrefOf(page, 'a[href^="/pet/"][href$="/edit"]');
  await page.goto("/subscription");
  const checkout = await hrefOf(page, 'a[href^="/subscription/checkout/"]');

  await expectAllReflow(page, [
    "/dashboard",
    "/dashboard/filters",
    "/dashboard/likes",
    sitterProfile,
    `/booking/request?walkerId=${sitterProfile.split("/").pop()}&date=${day}`,
    payment,
    "/bookings",
    "/messages",
    conversation,
    "/notifications",
    "/profile",
    "/profile/edit",
    "/profile/public",
    "/photos",
    "/pet-profile-setup",
    petEdit,
    "/subscription",
    checkout,
    "/subscription/cards/new",
  ]);
  await logOut(page);

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await page.goto(conversation);
  const ownerProfile = await hrefOf(page, 'main a[href^="/users/"]');
  await expectAllReflow(page, [
    "/dashboard",
    "/dashboard/filters",
    ownerProfile,
    "/bookings?tab=pending",
    conversation,
    "/notifications",
    "/profile",
    "/profile/edit",
    "/sitter-profile-setup",
    `/availability?date=${day}`,
  ]);
});
