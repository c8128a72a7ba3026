import { dayAhead, ownerWithDog, sitterAvailableOn } from "./people";
import { userIdOf } from "./database";
import { expect, expectAccessible, logIn, test } from "./support";

test("a sitter marks a day not free; an owner's request for that day is refused and its times go", async ({
  page,
  browser,
  jsEnabled,
}) => {
  const day = await dayAhead(page.request, 3);
  const month = day.slice(0, 7);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, { name: "Dana Daysoff", city: "Madrid" });

  // The owner opens the request page while the day is still free.
  const ownerContext = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    javaScriptEnabled: jsEnabled,
  });
  const ownerPage = await ownerContext.newPage();
  try {
    await ownerWithDog(ownerPage, jsEnabled, { name: "Olga Owner", city: "Madrid", dog: "Rex" });
    const requestPage = `/booking/request?walkerId=${userIdOf(sitter.email)}&date=${day}`;
    await ownerPage.goto(requestPage);
    await ownerPage.getByLabel("Start time").selectOption("10:00");

    // The sitter unticks that day on the month calendar and saves the month.
    await logIn(page, sitter.email, sitter.password);
    await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
    await page.goto(`/availability?month=${month}`);
    const calendar = page.getByRole("table");
    await expect(calendar).toBeVisible();
    await expectAccessible(page);
    const dayBox = page.getByRole("checkbox", {
      name: new RegExp(`^Free on \\w+, \\w+ ${Number(day.slice(8))}, ${day.slice(0, 4)}$`),
    });
    await expect(dayBox).toBeChecked();
    await dayBox.uncheck();
    await page.getByRole("button", { name: "Save this month" }).click();
    await expect(page.getByText("Your days for this month are saved")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`month=${month}$`));
    await expect(dayBox).not.toBeChecked();
    await expectAccessible(page);

    // A month out of range shows this month with a message.
    await page.goto("/availability?month=2099-01");
    await expect(page.getByText("Choose a month from this month up to 12 months ahead.")).toBeVisible();

    // The owner's request for that day is refused with its message, and the day offers no times any more.
    await ownerPage.getByRole("button", { name: "Send Booking Request" }).click();
    await expect(ownerPage.getByText("The sitter is not free on this day. Choose another day.")).toBeVisible();
    await ownerPage.goto(requestPage);
    await expect(ownerPage.getByLabel("Start time").locator(`option[value="10:00"]`)).toHaveCount(0);
  } finally {
    await ownerContext.close();
  }
});
