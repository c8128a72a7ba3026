import { upload } from "./images";
import { expect, newPerson, signUpAndConfirm, test } from "./support";

/**
 * Markup typed into forms is stored as the person typed it and shown as text on every page that
 * shows it: the HTML the server sends holds it escaped (page and streamed loader data alike) and
 * no script of it runs. app/hostile-input/*.test.ts cover the refusals; this covers what is kept.
 */

const PET_NAME = "<script>window.__pwned=1</script>";
const BIO = `</textarea><img src=x onerror="window.__pwned=2"><script>window.__pwned=3</script> & "quoted"`;
const RAW = ["<script>window.__pwned", "<img src=x onerror", "</textarea><img", "<b>Hostile</b>"];

test("markup in a name, a pet and a bio is shown as text and never runs", async ({ page, jsEnabled }) => {
  const owner = newPerson("owner", { name: `Hana <b>Hostile</b> ${jsEnabled ? "J" : "N"}` });
  await signUpAndConfirm(page, owner, jsEnabled);
  await page.getByLabel("Your dog's name").fill(PET_NAME);
  await page.getByLabel("Age").fill("3 years");
  await page.getByLabel(/^Photos/).setInputFiles([await upload("hostile.jpg", "jpeg", 60)]);
  await page.getByRole("button", { name: "Save pet" }).click();
  await expect(page.getByText(`${PET_NAME} was added to your pets`)).toBeVisible();

  await page.goto("/profile/edit");
  await page.getByLabel("About you").fill(BIO);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Profile updated")).toBeVisible();

  for (const path of ["/profile", "/profile/public", "/profile/edit"]) {
    const response = await page.goto(path);
    expect(response!.status()).toBe(200);
    const html = await response!.text();
    for (const raw of RAW) expect(html, `${path} sends "${raw}" unescaped`).not.toContain(raw);
    expect(html, `${path} shows the stored markup as text`).toContain("&lt;script&gt;window.__pwned");
    if (path === "/profile/edit") await expect(page.getByLabel("About you")).toHaveValue(BIO);
    else {
      await expect(page.getByText(PET_NAME).first()).toBeVisible();
      await expect(page.getByText(owner.name).first()).toBeVisible();
    }
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  }
});

test("a form holding a control character is refused with a message that says so, and nothing is saved", async ({
  page,
  jsEnabled,
}) => {
  const owner = newPerson("owner", { name: `Cora Control ${jsEnabled ? "J" : "N"}` });
  await signUpAndConfirm(page, owner, jsEnabled);
  await page.goto("/profile/edit");
  await page.getByLabel("About you").fill("Calm walks\u0007 every morning");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { name: "That could not be read" })).toBeVisible();
  await expect(page.getByText(/such as invisible control characters/)).toBeVisible();
  await page.goto("/profile/edit");
  await expect(page.getByLabel("About you")).not.toHaveValue(/Calm walks/);
});
