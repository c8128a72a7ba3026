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
