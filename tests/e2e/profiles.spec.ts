import type { Page } from "@playwright/test";
import { fakeJpeg, upload } from "./images";
import { expect, expectAccessible, logIn, logOut, newPerson, signUpAndConfirm, test, visit } from "./support";

async function deleteViaConfirmation(page: Page, linkName: RegExp | string, buttonName: string) {
  await page.getByRole("link", { name: linkName }).first().click();
  await expect(page.getByRole("button", { name: buttonName, exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: buttonName, exact: true }).click();
}

test("a new sitter completes their profile with photos and sees it as others will", async ({ page, jsEnabled }) => {
  const sitter = newPerson("sitter");
  await signUpAndConfirm(page, sitter, jsEnabled);
  await expect(page.getByRole("heading", { name: "Your sitter profile" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Complete Profile" }).click();
  await expect(page.getByText("Please write a bio about yourself")).toBeVisible();
  await expect(page.getByText("Please select at least one pet type you can care for")).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("About You").fill("Ten years of walking dogs of every size in Madrid.");
  await page.getByLabel("Hourly Rate (€)").fill("500");
  await page.getByRole("checkbox", { name: "Dogs", exact: true }).check();
  await page.getByRole("button", { name: "Complete Profile" }).click();
  await expect(page.getByText("Hourly rate must be between €5 and €100")).toBeVisible();

  await page.getByLabel("Hourly Rate (€)").fill("20");
  await page.getByRole("checkbox", { name: "Dogs", exact: true }).check();
  await page.getByRole("checkbox", { name: "Puppies" }).check();
  await page.getByLabel(/^Photos/).setInputFiles([await upload("me.jpg"), await upload("me-2.png", "png", 80)]);
  await page.getByRole("button", { name: "Complete Profile" }).click();
  await expect(page).toHaveURL(/\/profile\/edit$/);
  await expect(page.getByText("Sitter profile created!")).toBeVisible();
  await expect(page.getByRole("img", { name: /Photo \d of Sam Sitter/ })).toHaveCount(2);
  await expectAccessible(page);

  await visit(page, "/profile/public");
  await expect(page.getByText("€20.00 per hour", { exact: true })).toBeVisible();
  await expect(page.getByText("Puppies")).toBeVisible();
  await expect(page.getByText("Ten years of walking dogs")).toBeVisible();
  const photo = page.getByRole("img", { name: "Photo 1 of Sam Sitter" });
  const src = await photo.getAttribute("src");
  const response = await page.request.get(src!);
  expect(response.headers()["content-type"]).toBe("image/webp");
  expect(response.headers()["cache-control"]).toContain("immutable");
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
});

test("an owner adds, edits and deletes a pet, with every validation message", async ({ page, jsEnabled }) => {
  const owner = newPerson("owner");
  await signUpAndConfirm(page, owner, jsEnabled);
  await expect(page.getByRole("heading", { name: "Add your pet" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Save pet" }).click();
  await expect(page.getByText("Please enter your dog's name")).toBeVisible();
  await expect(page.getByText("Please enter your pet's age")).toBeVisible();
  await page.getByRole("radio", { name: "Cat" }).check();
  await page.getByRole("button", { name: "Save pet" }).click();
  await expect(page.getByText("Please enter your cat's name")).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("Your cat's name").fill("Misu");
  await page.getByLabel("Age").fill("2 years");
  await page.getByRole("button", { name: "Save pet" }).click();
  await expect(page.getByText("Please add at least one photo")).toBeVisible();

  await page.getByLabel("Your cat's name").fill("Misu");
  await page.getByLabel("Age").fill("2 years");
  await page.getByLabel(/^Photos/).setInputFiles(fakeJpeg);
  await page.getByRole("button", { name: "Save pet" }).click();
  await expect(page.getByText("Please select an image file")).toBeVisible();

  await page.getByRole("radio", { name: "Cat" }).check();
  await page.getByLabel("Your cat's name").fill("Misu");
  await page.getByLabel("Age").fill("2 years");
  await page.getByLabel("Breed").selectOption("maineCoon");
  await page.getByRole("checkbox", { name: "Playful" }).check();
  await page.getByLabel(/^Photos/).setInputFiles(await upload("misu.jpg"));
  await page.getByRole("button", { name: "Save pet" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText("Misu was added to your pets")).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "Edit Misu" }).click();
  await expect(page.getByRole("heading", { name: "Edit Misu" })).toBeVisible();
  await expect(page.getByLabel("Breed")).toHaveValue("maineCoon");
  await expect(page.getByRole("checkbox", { name: "Playful" })).toBeChecked();
  await expectAccessible(page);
  await page.getByLabel("Add photos").setInputFiles(await upload("misu-2.png", "png", 10));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("img", { name: /Photo \d of Misu/ })).toHaveCount(2);
  await page.getByRole("button", { name: "Make main (photo 2)" }).click();
  await expect(page.getByRole("button", { name: "Make main (photo 2)" })).toBeVisible();
  await deleteViaConfirmation(page, "Delete photo (photo 2)", "Delete photo");
  await expect(page.getByText("Photo deleted")).toBeVisible();
  await expect(page.getByRole("img", { name: /Photo \d of Misu/ })).toHaveCount(1);

  await page.getByLabel("Your cat's name").fill("Misu the Brave");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Misu the Brave was updated")).toBeVisible();

  await page.getByRole("link", { name: "Edit Misu the Brave" }).click();
  await deleteViaConfirmation(page, "Delete pet", "Delete pet");
  await expect(page.getByText("Misu the Brave was deleted")).toBeVisible();
  await expect(page.getByText("No pets yet.")).toBeVisible();
});

test("profile edit keeps the seed's rules and manages up to six photos", async ({ page, jsEnabled }) => {
  const owner = newPerson("owner");
  await signUpAndConfirm(page, owner, jsEnabled);
  await visit(page, "/profile");
  await page.getByRole("link", { name: "Edit Profile" }).click();
  await expectAccessible(page);
  await page.getByLabel("Name", { exact: true }).fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Please fill in your name and phone number")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("Olga Ortega");
  await page.getByLabel("About you").fill("<script>alert('x')</script> I love dogs");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Profile updated")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Olga Ortega" })).toBeVisible();

  await page.goto("/profile/edit");
  const files = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((n) => upload(`p${n}.jpg`, "jpeg", n * 20)));
  await page.getByLabel("Add photos").setInputFiles(files);
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("You can have at most 6 photos")).toBeVisible();
  await page.getByLabel("Add photos").setInputFiles(files.slice(0, 6));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("img", { name: /Photo \d of Olga Ortega/ })).toHaveCount(6);
  await expect(page.getByText("You have 6 photos, the most allowed.")).toBeVisible();
  await expectAccessible(page);

  await visit(page, "/profile/public");
  await expect(page.getByText("<script>alert('x')</script> I love dogs")).toBeVisible();
});

test("nobody reaches another person's pet, photos or profile edit", async ({ page, browser, jsEnabled }) => {
  const owner = newPerson("owner");
  await signUpAndConfirm(page, owner, jsEnabled);
  await page.getByLabel("Your dog's name").fill("Rex");
  await page.getByLabel("Age").fill("4");
  await page.getByLabel(/^Photos/).setInputFiles(await upload("rex.jpg"));
  await page.getByRole("button", { name: "Save pet" }).click();
  await page.getByRole("link", { name: "Edit Rex" }).click();
  await expect(page.getByRole("heading", { name: "Edit Rex" })).toBeVisible();
  const petUrl = new URL(page.url()).pathname;
  const photoDelete = await page.getByRole("link", { name: /Delete photo/ }).getAttribute("href");
  const photoSrc = await page.getByRole("img", { name: "Photo 1 of Rex" }).getAttribute("src");
  const photoId = /\/photos\/([^/]+)\/delete/.exec(photoDelete!)![1]!;

  const intruder = newPerson("owner");
  const other = await browser.newContext({ javaScriptEnabled: jsEnabled });
  const intruderPage = await other.newPage();
  await signUpAndConfirm(intruderPage, intruder, jsEnabled);

  const attempts = [
    await intruderPage.request.get(petUrl),
    await intruderPage.request.post(petUrl, { form: { petType: "dog", name: "Stolen", age: "1" } }),
    await intruderPage.request.get(petUrl.replace("/edit", "/delete")),
    await intruderPage.request.post(petUrl.replace("/edit", "/delete")),
    await intruderPage.request.get(photoDelete!),
    await intruderPage.request.post(photoDelete!),
    await intruderPage.request.post("/photos", { form: { photoId, move: "main" } }),
  ];
  expect(attempts.map((response) => response.status())).toEqual([404, 404, 404, 404, 404, 404, 404]);
  await intruderPage.goto(petUrl);
  await expect(intruderPage.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
  await other.close();

  // Nothing changed for the owner.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Edit Rex" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Photo 1 of Rex" })).toBeVisible();

  // Photos are not served to signed-out visitors.
  await logOut(page);
  const anonymous = await page.request.get(photoSrc!, { maxRedirects: 0 });
  expect(anonymous.status()).toBe(302);
  await logIn(page, owner.email, owner.password);
});

test("a sitter changes rate, years and experience after setup and sees them on the public profile", async ({
  page,
  jsEnabled,
}) => {
  const sitter = newPerson("sitter");
  await signUpAndConfirm(page, sitter, jsEnabled);
  await page.getByLabel("About You").fill("Dog walker in Madrid.");
  await page.getByLabel("Hourly Rate (€)").fill("20");
  await page.getByLabel("Years of experience (optional)").fill("4");
  await page.getByRole("checkbox", { name: "Dogs", exact: true }).check();
  await page.getByRole("button", { name: "Complete Profile" }).click();
  await expect(page).toHaveURL(/\/profile\/edit$/);

  const details = page.getByRole("form", { name: "Sitter details" });
  await expect(details.getByLabel("Hourly Rate (€)")).toHaveValue("20");
  await expect(details.getByLabel("Years of experience (optional)")).toHaveValue("4");
  await details.getByLabel("Hourly Rate (€)").fill("150");
  await details.getByLabel("Years of experience (optional)").fill("60");
  await details.getByRole("button", { name: "Save sitter details" }).click();
  await expect(page.getByText("Hourly rate must be between €5 and €100")).toBeVisible();
  await expect(page.getByText("Years of experience must be a whole number from 0 to 50")).toBeVisible();
  await expectAccessible(page);

  await details.getByLabel("Hourly Rate (€)").fill("35");
  await details.getByLabel("Years of experience (optional)").fill("7");
  await details.getByRole("checkbox", { name: "Puppies" }).check();
  await details.getByRole("checkbox", { name: "Cats", exact: true }).first().check();
  await details.getByRole("button", { name: "Save sitter details" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText("Profile updated")).toBeVisible();

  await visit(page, "/profile/public");
  await expect(page.getByText("€35.00 per hour", { exact: true })).toBeVisible();
  await expect(page.getByText("7 years of experience · 0 completed bookings")).toBeVisible();
  await expect(page.getByText("Puppies")).toBeVisible();
  await expect(page.getByText("Dog walker in Madrid.")).toBeVisible();
});

test("a pet sent without photo and name shows both errors at once", async ({ page, jsEnabled }) => {
  await signUpAndConfirm(page, newPerson("owner"), jsEnabled);
  await page.getByLabel("Age").fill("3 years");
  await page.getByRole("button", { name: "Save pet" }).click();
  await expect(page.getByText("Please enter your dog's name")).toBeVisible();
  await expect(page.getByText("Please add at least one photo")).toBeVisible();
  await expect(page.getByLabel(/^Photos/)).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);
});

test("without JavaScript the photos of a refused pet form are kept, can be removed, and are used", async ({
  page,
  jsEnabled,
}) => {
  test.skip(jsEnabled, "with JavaScript the form is checked before it is sent");
  await signUpAndConfirm(page, newPerson("owner"), jsEnabled);
  await page.getByLabel(/^Photos/).setInputFiles([await upload("rex.jpg"), await upload("rex-2.png", "png", 60)]);
  await page.getByRole("button", { name: "Save pet" }).click();
  await expect(page.getByText("Please enter your dog's name")).toBeVisible();
  await expect(page.getByText("Please add at least one photo")).toHaveCount(0);
  await expect(page.getByRole("img", { name: /^Kept photo/ })).toHaveCount(2);
  await expectAccessible(page);

  await page.getByRole("button", { name: "Remove kept photo 2" }).click();
  await expect(page.getByRole("img", { name: /^Kept photo/ })).toHaveCount(1);
  await expect(page.getByText("Please enter your dog's name")).toHaveCount(0);

  await page.getByLabel("Your dog's name").fill("Rex");
  await page.getByLabel("Age").fill("3 years");
  await page.getByRole("button", { name: "Save pet" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText("Rex was added to your pets")).toBeVisible();
  await page.getByRole("link", { name: "Edit Rex" }).click();
  await expect(page.getByRole("img", { name: /Photo \d of Rex/ })).toHaveCount(1);
});
