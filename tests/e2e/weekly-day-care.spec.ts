import { sitterOffers, sitterTakesPets } from "./database";
import { dayAhead, ownerWithDog, sitterIn } from "./people";
import { expect, expectAccessible, logIn, logOut, test, visit } from "./support";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

test("weekly day care from the stay request page: offered only for day care, asked, accepted, its first day booked", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(150_000);
  const [city, suffix] = jsEnabled ? ["Rovaniemi", "J"] : ["Vaasa", "N"];
  const sitter = await sitterIn(page, jsEnabled, { name: `Dora Daycare ${suffix}`, city });
  sitterOffers(sitter.email, "boarding", 4000);
  sitterOffers(sitter.email, "day_care", 3000);
  const sitterId = sitterTakesPets(sitter.email, 2, 0);
  const owner = await ownerWithDog(page, jsEnabled, { name: `Olli Daily ${suffix}`, city, dog: "Rex" });
  await visit(page, "/subscription/cards/new");
  await page.getByLabel("Full name").fill(owner.name);
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(page.getByText("Payment method added")).toBeVisible();

  const first = await dayAhead(request, 2);
  const weekday = WEEKDAYS[new Date(`${first}T12:00:00Z`).getUTCDay()]!;
  await visit(page, `/booking/stay?sitterId=${sitterId}&service=boarding&firstDay=${first}&lastDay=${first}`);
  // Boarding does not repeat: no "Every week" until day care is chosen.
  await expect(page.getByRole("radio", { name: "Every week" })).toBeHidden();
  await page.getByRole("radio", { name: /Doggy day care/ }).check();
  await page.getByRole("radio", { name: "Every week" }).check();
  await expect(page.getByText(/Each date is one day of day care/)).toBeVisible();
  await page.getByRole("checkbox", { name: "Rex" }).check();
  await page.getByLabel("Drop-off time").selectOption("08:30");
  await page.getByLabel("Pick-up time").selectOption("17:30");
  await expect(page.getByRole("checkbox", { name: weekday })).toBeChecked();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByText("Weekly care requested")).toBeVisible();
  await expect(page.getByText(`Every ${weekday} at 08:30 with ${sitter.name}`)).toBeVisible();
  await expect(page.getByText("Doggy day care · 08:30–17:30 · €30.00")).toBeVisible();
  const seriesPath = new URL(page.url()).pathname;
  await logOut(page);

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, seriesPath);
  await page.getByRole("button", { name: "Accept the series" }).click();
  await expect(page.getByText("Series accepted: the coming dates are booked")).toBeVisible();
  await expect(page.getByRole("listitem").first().getByText("Booked")).toBeVisible();
  await visit(page, "/bookings?tab=accepted");
  const booked = page.getByRole("article").first();
  await expect(booked.getByText(/Doggy day care/)).toBeVisible();
  await expect(booked.getByRole("link", { name: "Part of weekly care: see the series" })).toBeVisible();
  await expectAccessible(page);
});
