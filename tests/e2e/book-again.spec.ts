import { addPetOf, completedBookingOf, pastMeetGreet, sitterTakesPets } from "./database";
import { dayAhead, ownerWithDog, serverNow, sitterAvailableOn } from "./people";
import { idOf } from "./disputes-data";
import { expect, expectAccessible, logOut, test, visit } from "./support";

test("a completed booking offers Book again: the same pets, start time and hours on the sitter's next free day", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(120_000);
  const [city, suffix] = jsEnabled ? ["Townsville", "J"] : ["Kalgoorlie", "N"];
  const day = await dayAhead(request, 4);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, { name: `Bea Again ${suffix}`, city, rate: 20 });
  sitterTakesPets(sitter.email, 2, 500);
  const owner = await ownerWithDog(page, jsEnabled, { name: `Otis Again ${suffix}`, city, dog: "Rex" });
  addPetOf(owner.email, "Luna");
  addPetOf(owner.email, "Milo");
  // Rex and Luna had 3 hours from 14:00 a week ago.
  const bookingId = completedBookingOf(owner.email, sitter.email, {
    day: await dayAhead(request, -7),
    time: "14:00",
    hours: 3,
    petNames: ["Rex", "Luna"],
  });

  await visit(page, "/bookings?tab=completed");
  const done = page.getByRole("article").filter({ hasText: sitter.name });
  await expect(done.getByText("Completed")).toBeVisible();
  await done.getByRole("link", { name: `Book ${sitter.name} again` }).click();
  await expect(page.getByRole("heading", { name: `Book ${sitter.name}` })).toBeVisible();
  await expect(page.getByText("Filled in from your last booking")).toBeVisible();
  await expect(page.getByLabel("Date")).toHaveValue(day);
  await expect(page.getByLabel("Start time")).toHaveValue("14:00");
  await expect(page.getByRole("radio", { name: "3 h" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Rex" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Luna" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Milo" })).not.toBeChecked();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  await expect(page.getByText("3 hours")).toBeVisible();
  // 3 h × €20 + Luna 3 × €5 = €75, with the 20 % fee €90.
  await expect(page.getByRole("button", { name: "Pay €90.00" })).toBeVisible();

  // Someone else's booking id prefills nothing.
  await logOut(page);
  await ownerWithDog(page, jsEnabled, { name: `Sam Stranger ${suffix}`, city, dog: "Bo" });
  await visit(page, `/booking/request?walkerId=${idOf(sitter.email)}&again=${bookingId}`);
  await expect(page.getByRole("heading", { name: `Book ${sitter.name}` })).toBeVisible();
  await expect(page.getByText("Filled in from your last booking")).toHaveCount(0);
  await expect(page.getByLabel("Start time")).toHaveValue("");
  await expect(page.getByRole("radio", { name: "1 h" })).toBeChecked();
});

test("after a meet & greet the owner books the sitter with their pets ticked", async ({ page, request, jsEnabled }) => {
  test.setTimeout(120_000);
  const [city, suffix] = jsEnabled ? ["Mackay", "J"] : ["Broome", "N"];
  const day = await dayAhead(request, 2);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, { name: `Ana Met ${suffix}`, city, rate: 16 });
  sitterTakesPets(sitter.email, 3, 400);
  const owner = await ownerWithDog(page, jsEnabled, { name: `Olli Met ${suffix}`, city, dog: "Rex" });
  addPetOf(owner.email, "Luna");
  const meetId = pastMeetGreet(owner.email, sitter.email, new Date(await serverNow(request)), 3);

  await visit(page, `/meet/${meetId}`);
  await expect(page.getByText("This meet & greet has passed.")).toBeVisible();
  await page.getByRole("link", { name: `Book ${sitter.name}` }).click();
  await expect(page.getByRole("heading", { name: `Book ${sitter.name}` })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Rex" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Luna" })).toBeChecked();
  // Two pets: the extra pet's price is in the summary.
  await expect(
    page.getByRole("region", { name: "Price" }).getByRole("term").filter({ hasText: "1 extra pet" }),
  ).toBeVisible();
  await expectAccessible(page);
});
