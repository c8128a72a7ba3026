import { expect, expectAccessible, newPerson, signUpAndConfirm, test, visit } from "./support";

test("the switcher changes the language of every screen and remembers it", async ({ page, jsEnabled }) => {
  await visit(page, "/select-role");
  await page.getByLabel("Language").selectOption("es");
  if (!jsEnabled) await page.getByRole("button", { name: "Change language" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page).toHaveURL(/\/select-role$/);
  await expect(page.getByRole("heading", { name: "Únete a Trusted Sitters" })).toBeVisible();
  await expectAccessible(page);

  await page.goto("/auth?mode=login");
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await page.getByRole("button", { name: "Iniciar sesión" }).click();
  await expect(page.getByText("Introduce tu correo electrónico")).toBeVisible();

  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "¡Vaya! Página no encontrada" })).toBeVisible();
  if (jsEnabled) expect(await page.evaluate(() => localStorage.getItem("i18nextLng"))).toBe("es");
});

test("?lng= wins, then the cookie, then the browser's languages", async ({ browser, page, javaScriptEnabled }) => {
  await page.goto("/welcome?lng=de");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await page.goto("/select-role");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");

  const french = await browser.newContext({ locale: "fr-FR", javaScriptEnabled });
  const frenchPage = await french.newPage();
  await frenchPage.goto("/select-role");
  await expect(frenchPage.locator("html")).toHaveAttribute("lang", "fr");
  await french.close();

  const unknown = await browser.newContext({ locale: "ja-JP", javaScriptEnabled });
  const unknownPage = await unknown.newPage();
  await unknownPage.goto("/select-role");
  await expect(unknownPage.locator("html")).toHaveAttribute("lang", "en");
  await unknown.close();
});

for (const lng of ["en", "es", "pt", "it", "ru", "pl", "fr", "de"]) {
  test(`the public screens read well in ${lng}`, async ({ page }) => {
    for (const path of [
      "/welcome",
      "/select-role",
      "/auth?mode=login",
      "/auth?mode=signup&role=owner",
      "/forgot-password",
    ]) {
      await visit(page, `${path}${path.includes("?") ? "&" : "?"}lng=${lng}`);
      await expect(page.locator("html")).toHaveAttribute("lang", lng);
    }
  });
}

test("the signed-in profile and pet screens are translated too", async ({ page, jsEnabled }) => {
  const owner = newPerson("owner");
  await signUpAndConfirm(page, owner, jsEnabled);
  for (const [path, heading] of [
    ["/profile?lng=es", "Perfil"],
    ["/profile/edit?lng=es", "Editar perfil"],
    ["/pet-profile-setup?lng=es", "Añade tu mascota"],
    ["/sitter-profile-setup?lng=es", "Tu perfil de cuidador"],
  ] as const) {
    await visit(page, path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  }
  await page.getByRole("button", { name: "Completar perfil" }).click();
  await expect(page.getByText("Escribe una breve descripción sobre ti")).toBeVisible();
});

test("every page has its own title, in the reader's language, that follows client navigation", async ({
  page,
  jsEnabled,
}) => {
  const hydrationErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /hydrat|Minified React error #4(18|19|20|21|22|23|25)/i.test(message.text()))
      hydrationErrors.push(message.text());
  });
  for (const [path, title] of [
    ["/welcome?lng=en", "Trusted Sitters"],
    ["/select-role", "Sign Up · Trusted Sitters"],
    ["/auth?mode=login", "Sign In · Trusted Sitters"],
    ["/auth?mode=signup&role=owner", "Sign up as a Pet Owner · Trusted Sitters"],
    ["/forgot-password", "Forgot password · Trusted Sitters"],
    ["/no-such-page", "Oops! Page not found · Trusted Sitters"],
    ["/select-role?lng=de", "Registrieren · Trusted Sitters"],
    ["/auth?mode=login", "Anmelden · Trusted Sitters"],
    ["/no-such-page", "Hoppla! Seite nicht gefunden · Trusted Sitters"],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }

  await page.goto("/welcome?lng=en");
  const owner = newPerson("owner");
  await signUpAndConfirm(page, owner, jsEnabled);
  await expect(page).toHaveTitle("Add your pet · Trusted Sitters");
  await page.goto("/messages?lng=es");
  await expect(page).toHaveTitle("Mensajes · Trusted Sitters");
  await page.goto("/bookings?lng=de");
  await expect(page).toHaveTitle("Meine Buchungen · Trusted Sitters");
  await page.getByRole("link", { name: "Profil", exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page).toHaveTitle("Profil · Trusted Sitters");
  expect(hydrationErrors).toEqual([]);
});
