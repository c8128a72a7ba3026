import type { Locator, Page } from "@playwright/test";
import { dayAhead, ownerWithDog, sitterAvailableOn } from "./people";
import { expect, expectAccessible, newPerson, test, visit } from "./support";

// Keyboard-only runs of sign-up, booking and messaging: no clicks, only Tab, Shift+Tab, Enter,
// Space, arrow keys and typing. At every step the focused element must show that it has focus.

/** What the person sees of the focus: an outline or a ring on the element, or on the label around a hidden input. */
async function expectFocusVisible(page: Page) {
  const focus = await page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body || active === document.documentElement) return { ok: true, what: "page" };
    const shows = (element: Element) => {
      const style = getComputedStyle(element);
      const outline =
        style.outlineStyle !== "none" &&
        parseFloat(style.outlineWidth) > 0 &&
        style.outlineColor !== "rgba(0, 0, 0, 0)";
      return outline || style.boxShadow !== "none";
    };
    const box = active.getBoundingClientRect();
    // A visually hidden input (chips, switches) shows its focus on the label that wraps it.
    const hidden = box.width <= 1 || box.height <= 1;
    const indicator = hidden ? (active.closest("label") ?? active.parentElement) : active;
    const what = `${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : ""} "${(active.textContent ?? "").trim().slice(0, 40) || active.getAttribute("name") || ""}"`;
    return { ok: !!indicator && shows(indicator), what };
  });
  expect(focus.ok, `no visible focus indicator on ${focus.what} at ${page.url()}`).toBe(true);
}

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/** Presses Tab (or Shift+Tab) until `target` has focus, checking the focus indicator at each stop. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 60 } = {}) {
  await target.waitFor({ state: "attached" });
  if (await isFocused(target)) return;
  for (let presses = 0; presses < max; presses += 1) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    await expectFocusVisible(page);
    if (await isFocused(target)) return;
  }
  throw new Error(`${String(target)} was not reached with the keyboard on ${page.url()}`);
}

/** Tabs to a text field and types into it. */
async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(text);
}

/** Tabs to a link or button and presses Enter, waiting for the page it leads to. */
async function activate(page: Page, target: Locator, key: "Enter" | "Space" = "Enter") {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/**
 * Types an ISO date into a date field segment by segment. The order of the segments follows the
 * browser's own locale, which a page cannot read, so each usual order is tried in turn.
 */
async function typeDate(page: Page, field: Locator, isoDay: string) {
  const [year, month, day] = isoDay.split("-");
  for (const digits of [`${month}${day}${year}`, `${day}${month}${year}`, `${year}${month}${day}`]) {
    await tabTo(page, field);
    await page.keyboard.type(digits);
    if ((await field.inputValue()) === isoDay) return;
    // Back out through the segments, then in again: that starts at the first segment.
    for (let presses = 0; presses < 5 && (await isFocused(field)); presses += 1) await page.keyboard.press("Shift+Tab");
  }
  await expect(field).toHaveValue(isoDay);
}

/** A field's error, as assistive technology gets it: the field is invalid and described by the message. */
async function expectAnnouncedError(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
  expect(describedBy, "the field points to its error").not.toBe("");
  const page = field.page();
  const description = (
    await Promise.all(describedBy.split(" ").map((id) => page.locator(`[id="${id}"]`).textContent()))
  ).join(" ");
  expect(description).toContain(message);
}

test("sign-up with the keyboard only: from the start page through the role choice, a field error, then success", async ({
  page,
  jsEnabled,
}) => {
  const person = newPerson("owner", { name: "Kim Keys" });
  await page.goto("/");
  await expect(page).toHaveURL(/\/welcome$/);
  // With JavaScript the splash moves on by itself after two seconds; without, its link does.
  if (!jsEnabled) await activate(page, page.getByRole("link", { name: "Get started" }));
  await page.waitForURL("**/select-role");
  await expectAccessible(page);
  await activate(page, page.getByRole("link", { name: /Pet Owner/ }));
  await page.waitForURL("**/auth?mode=signup&role=owner");
  await expect(page.getByRole("button", { name: "Sign Up" })).toBeVisible();

  await typeInto(page, page.getByLabel("Full name"), person.name);
  await typeInto(page, page.getByLabel("City"), person.city);
  await typeInto(page, page.getByLabel("Postal code"), "28004");
  await typeInto(page, page.getByLabel("Phone"), "+34 600 123 456");
  await typeInto(page, page.getByLabel("Email"), person.email);
  const password = page.getByLabel("Password", { exact: true });
  await typeInto(page, password, "abc");
  // Enter in a field sends the form, as it does for everyone.
  await page.keyboard.press("Enter");
  await expectAnnouncedError(password, "Password must be at least 6 characters");
  if (jsEnabled) await expect(password).toBeFocused();
  await expectAccessible(page);

  await typeInto(page, password, person.password);
  // The other fields kept what was typed.
  await expect(page.getByLabel("Email")).toHaveValue(person.email);
  await activate(page, page.getByRole("button", { name: "Sign Up" }));
  await expect(page.getByText("We sent you a confirmation link")).toBeVisible();
});

test("booking a sitter and messaging them with the keyboard only", async ({ page, request, jsEnabled }) => {
  test.setTimeout(180_000);
  // A town of its own: other files fill other towns' decks at the same time.
  const city = jsEnabled ? "Lillehammer" : "Harstad";
  const day = await dayAhead(request, 2);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, {
    name: `Kai Keyboard ${jsEnabled ? "J" : "N"}`,
    city,
    rate: 12,
  });
  await ownerWithDog(page, jsEnabled, { name: "Kora Owner", city, dog: "Tabby" });

  // From here on, only the keyboard. The owner opens the sitter's profile and its booking form.
  await visit(page, `/dashboard`);
  await activate(page, page.getByRole("button", { name: "Enable Location" }));
  await expect(page.getByText(`Showing profiles near ${city}`)).toBeVisible();
  await activate(page, page.getByRole("link", { name: `About ${sitter.name}` }));
  await page.waitForURL("**/users/**");
  await activate(page, page.getByRole("link", { name: `Book ${sitter.name}` }));
  await expect(page.getByRole("heading", { name: `Book ${sitter.name}` })).toBeVisible();
  await expectAccessible(page);

  await typeDate(page, page.getByLabel("Date"), day);
  if (!jsEnabled) await activate(page, page.getByRole("button", { name: "Show times" }));
  const startTime = page.getByLabel("Start time");
  await expect(startTime.locator("option", { hasText: "10:00" })).toBeAttached();

  // Sending without a time: the error is tied to the field.
  await activate(page, page.getByRole("button", { name: "Send Booking Request" }));
  await expectAnnouncedError(page.getByLabel("Start time"), "Please choose a start time");
  await expectAccessible(page);

  // A closed select takes arrow keys: down through the half hours from 09:00 to 10:00.
  await tabTo(page, startTime);
  for (let presses = 0; presses < 4 && (await startTime.inputValue()) !== "10:00"; presses += 1)
    await page.keyboard.press("ArrowDown");
  await expect(startTime).toHaveValue("10:00");
  // The duration is a radio group: arrow keys move the choice.
  await tabTo(page, page.getByRole("radio", { name: "1 h" }));
  await page.keyboard.press("ArrowRight");
  await expectFocusVisible(page);
  await expect(page.getByRole("radio", { name: "2 h" })).toBeChecked();
  await expect(page.getByText("€28.80")).toBeVisible();
  await typeInto(page, page.getByLabel("Special instructions"), "The lead hangs by the door.");
  await activate(page, page.getByRole("button", { name: "Send Booking Request" }));
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay €28.80" })).toBeVisible();
  await expectAccessible(page);

  // The booking opened the pair's conversation: the owner writes to the sitter.
  await activate(page, page.getByRole("link", { name: /^Messages/ }));
  await page.waitForURL("**/messages");
  await activate(page, page.getByRole("link", { name: new RegExp(sitter.name) }));
  await expect(page.getByRole("heading", { name: sitter.name })).toBeVisible();
  const message = page.getByRole("textbox", { name: "Message" });
  await typeInto(page, message, "Hello! Tabby loves the park.");
  // With JavaScript, Enter sends (Shift+Enter is a new line); without it, Enter is a new line and Tab reaches Send.
  if (jsEnabled) await page.keyboard.press("Enter");
  else await activate(page, page.getByRole("button", { name: "Send" }));
  await expect(page.getByRole("log").getByText("Hello! Tabby loves the park.")).toBeVisible();
  // Space on the Send button sends too.
  await typeInto(page, message, "See you soon.");
  await activate(page, page.getByRole("button", { name: "Send" }), "Space");
  await expect(page.getByRole("log").getByText("See you soon.")).toBeVisible();
});
