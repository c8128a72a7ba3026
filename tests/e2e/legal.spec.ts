import { timeZoneOf } from "./database";
import { expect, fillSignup, newPerson, signUpAndConfirm, test, visit } from "./support";

const PAGES = ["terms", "privacy", "cookies", "imprint", "help"] as const;

/** The titles each language gives the pages (locales/<lng>/legal.json), as a reader sees them. */
const TITLES: Record<string, Record<(typeof PAGES)[number], string>> = {
  en: { terms: "Terms of use", privacy: "Privacy policy", cookies: "Cookies", imprint: "Imprint", help: "Help" },
  es: {
    terms: "Condiciones de uso",
    privacy: "Política de privacidad",
    cookies: "Cookies",
    imprint: "Aviso legal",
    help: "Ayuda",
  },
  ru: {
    terms: "Условия использования",
    privacy: "Политика конфиденциальности",
    cookies: "Файлы cookie",
    imprint: "Выходные данные",
    help: "Помощь",
  },
  de: {
    terms: "Nutzungsbedingungen",
    privacy: "Datenschutzerklärung",
    cookies: "Cookies",
    imprint: "Impressum",
    help: "Hilfe",
  },
};

for (const [lng, titles] of Object.entries(TITLES)) {
  test(`the legal and help pages read in ${lng}, signed out, with a title, a heading and contents that lead to each section`, async ({
    page,
  }) => {
    for (const name of PAGES) {
      const response = await visit(page, `/${name}?lng=${lng}`);
      expect(response?.status(), name).toBe(200);
      await expect(page.locator("html")).toHaveAttribute("lang", lng);
      await expect(page).toHaveTitle(`${titles[name]} · Trusted Sitters`);
      await expect(page.getByRole("heading", { level: 1, name: titles[name] })).toBeVisible();
      if (name === "imprint") continue;
      const contents = page
        .getByRole("navigation")
        .filter({ has: page.getByRole("heading", { level: 2 }) })
        .first();
      const firstEntry = contents.getByRole("link").first();
      const target = (await firstEntry.getAttribute("href"))!;
      expect(target).toMatch(/^#[a-z-]+$/);
      await firstEntry.click();
      await expect(page).toHaveURL(new RegExp(`/${name}\\?lng=${lng}${target}$`));
      await expect(page.locator(target).getByRole("heading", { level: 2 })).toBeVisible();
    }
  });
}

test("the texts state what the marketplace does: the fee, the hold, the 72-hour release and every cookie it sets", async ({
  page,
}) => {
  await visit(page, "/help?lng=en");
  const holds = page.locator("#payment-holds");
  await expect(holds).toContainText("held on your card, not charged");
  await expect(holds).toContainText("20% platform fee");
  await expect(page.locator("#sitter-paid")).toContainText("72 hours after the booking was completed");
  await expect(page.locator("#delete-account").getByRole("link", { name: "Settings" })).toHaveAttribute(
    "href",
    "/settings",
  );
  // Problems are reported in the app, with email only as the fallback.
  const report = page.locator("#report");
  await expect(report).toContainText("choose Report a problem");
  await expect(report.getByRole("link", { name: "My Bookings" })).toHaveAttribute("href", "/bookings");
  await expect(report.getByRole("link", { name: "Privacy and blocked people" })).toHaveAttribute(
    "href",
    "/profile/privacy",
  );

  await visit(page, "/cookies?lng=en");
  const table = page.getByRole("table", { name: "Cookies of Trusted Sitters" });
  for (const cookie of ["__session", "device", "toast", "i18nextLng", "location-later", "outbox"]) {
    await expect(table.getByRole("rowheader", { name: cookie, exact: true })).toBeVisible();
  }
});

test("reading the legal pages signed out sets no cookie at all", async ({ page }) => {
  for (const name of PAGES) await page.goto(`/${name}`);
  expect(await page.context().cookies()).toEqual([]);
});

test("the imprint of a test server shows example details, marked as such", async ({ page }) => {
  await visit(page, "/imprint?lng=en");
  await expect(page.getByRole("note")).toContainText("Example details");
  await expect(page.getByText("Example Pet Care S.L.")).toBeVisible();
  await expect(page.getByRole("link", { name: "hello@example.com" })).toHaveAttribute(
    "href",
    "mailto:hello@example.com",
  );
});

test("the welcome page and the sign-in screen link to the legal pages", async ({ page }) => {
  // Not `visit`: with JavaScript the splash moves on to /select-role after two seconds.
  await page.goto("/welcome?lng=en");
  const footer = page.getByRole("navigation", { name: "Legal information and help" });
  for (const name of PAGES)
    await expect(footer.getByRole("link", { name: TITLES.en![name] })).toHaveAttribute("href", `/${name}`);

  await visit(page, "/auth?mode=login");
  await page
    .getByRole("navigation", { name: "Legal information and help" })
    .getByRole("link", { name: "Privacy policy" })
    .click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy policy" })).toBeVisible();
});

test("signing up accepts the terms; the profile shows the date and links the legal pages, which stay open signed in", async ({
  page,
  jsEnabled,
}) => {
  await visit(page, "/auth?mode=signup&role=owner");
  const notice = page.getByText("By signing up you accept the");
  await expect(notice.getByRole("link", { name: "Terms of use" })).toHaveAttribute("href", "/terms");
  await expect(notice.getByRole("link", { name: "Privacy policy" })).toHaveAttribute("href", "/privacy");

  const person = newPerson("owner", { name: "Tessa Terms" });
  await signUpAndConfirm(page, person, jsEnabled);
  await visit(page, "/profile");
  // The profile prints dates in the member's own zone.
  const timeZone = timeZoneOf(person.email);
  const today = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone }).format(new Date());
  await expect(page.getByText("Terms accepted")).toBeVisible();
  await expect(page.getByText(today)).toBeVisible();
  await page.getByRole("region", { name: "Legal and help" }).getByRole("link", { name: "Help" }).click();
  await expect(page).toHaveURL(/\/help$/);
  await expect(page.getByRole("heading", { level: 1, name: "Help" })).toBeVisible();
});

test("the sign-up form keeps working with the notice: a refused form still shows the links", async ({ page }) => {
  await page.goto("/auth?mode=signup&role=owner");
  await fillSignup(page, { ...newPerson("owner"), password: "123" });
  await expect(
    page.getByText("By signing up you accept the").getByRole("link", { name: "Terms of use" }),
  ).toBeVisible();
});

test("the pages reflow at 320 px with text at 200 %, long German words and the cookie table included", async ({
  page,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "the layout is the same without JavaScript; measured once");
  await page.setViewportSize({ width: 320, height: 640 });
  for (const lng of ["de", "ru"]) {
    for (const name of PAGES) {
      await page.goto(`/${name}?lng=${lng}`);
      const overflow = await page.evaluate(() => {
        // Set through the CSS object model, which the Content-Security-Policy allows.
        document.documentElement.style.setProperty("font-size", "200%", "important");
        return document.documentElement.scrollWidth - window.innerWidth;
      });
      expect(overflow, `/${name}?lng=${lng} scrolls sideways`).toBeLessThanOrEqual(0);
    }
  }
});
