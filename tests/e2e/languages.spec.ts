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
    for (const path of ["/welcome", "/select-role", "/auth?mode=login", "/auth?mode=signup&role=owner", "/forgot-password"]) {
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
