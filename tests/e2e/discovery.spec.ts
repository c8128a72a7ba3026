import type { Page } from "@playwright/test";
import { ownerWithDog, sitterIn } from "./people";
import { expect, expectAccessible, logIn, logOut, test, visit } from "./support";

/** The name on the card on top of the deck. */
const topCardName = (page: Page) => page.getByTestId("top-card").getByRole("heading", { level: 2 });

/** Every card of the deck, by passing each one, until the deck is empty. */
async function passThroughDeck(page: Page): Promise<string[]> {
  const seen: string[] = [];
  while (!(await page.getByRole("heading", { name: "No more profiles" }).isVisible())) {
    const name = (await topCardName(page).textContent())!;
    seen.push(name);
    await page.getByRole("button", { name: `Pass on ${name}` }).click();
    await expect(
      page.getByRole("heading", { name: "No more profiles" }).or(topCardName(page).filter({ hasNotText: name })),
    ).toBeVisible();
    expect(seen.length).toBeLessThan(20);
  }
  return seen;
}

/** Turns local mode on from the location prompt; the browser has no location permission, so the profile's city is used. */
async function browseLocally(page: Page, jsEnabled: boolean, city: string) {
  await expect(page.getByRole("heading", { name: "See who is nearby" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Enable Location" }).click();
  // With JavaScript the browser is asked first and refuses; without it the city is used straight away.
  await expect(page.getByText(jsEnabled ? "Location access denied" : "Local mode")).toBeVisible();
  await expect(page.getByText(`Showing profiles near ${city}`)).toBeVisible();
  await expect(page.getByRole("heading", { name: "See who is nearby" })).toHaveCount(0);
}

test("owner and sitter find each other nearby, pass, start over, filter, and match", async ({ page, jsEnabled }) => {
  test.setTimeout(150_000);
  // Each project gets its own town so parallel runs never see each other's people.
  const [city, farCity] = jsEnabled ? ["Inverness", "Fort William"] : ["Aberdeen", "Dundee"];
  const suffix = jsEnabled ? "J" : "N";
  const dogSitter = await sitterIn(page, jsEnabled, {
    name: `Nadia North${suffix}`,
    city,
    rate: 15,
    caresFor: ["Dogs"],
  });
  await sitterIn(page, jsEnabled, { name: `Carl Cats${suffix}`, city, rate: 30, caresFor: ["Cats"] });
  const far = await sitterIn(page, jsEnabled, { name: `Fiona Far${suffix}`, city: farCity });
  const owner = await ownerWithDog(page, jsEnabled, { name: `Olga Owner${suffix}`, city, dog: "Rex" });

  await visit(page, "/dashboard");
  await browseLocally(page, jsEnabled, city);
  await expect(page.getByRole("heading", { name: "Find Sitters" })).toBeVisible();
  await expectAccessible(page);

  // Local mode shows the two sitters in town and never the one about 90 km away.
  const seen = await passThroughDeck(page);
  expect(seen.sort()).toEqual([`Carl Cats${suffix}`, `Nadia North${suffix}`]);
  expect(seen).not.toContain(far.name);
  await expectAccessible(page);

  await page.getByRole("button", { name: "Start Over" }).click();
  await expect(page.getByText("Your passes and likes were cleared")).toBeVisible();
  await expect(topCardName(page)).toBeVisible();

  // Filters: only sitters who care for cats, then none under €20 an hour.
  await page.getByRole("link", { name: /^Filters/ }).click();
  await expect(page.getByRole("heading", { name: "Filters" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("radio", { name: "Cats" }).check();
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(page.getByText("Filters applied")).toBeVisible();
  await expect(page.getByText("1 active filter", { exact: true })).toBeAttached();
  expect(await passThroughDeck(page)).toEqual([`Carl Cats${suffix}`]);
  await page.getByRole("button", { name: "Start Over" }).click();
  await page.getByRole("link", { name: /^Filters/ }).click();
  await page.getByLabel("Maximum price (€)").fill("500");
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(page.getByText("Enter a price from €0 to €100")).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Maximum price (€)").fill("20");
  await page.getByRole("button", { name: "Show results" }).click();
  await expect(page.getByText("2 active filters")).toBeAttached();
  await expect(page.getByRole("heading", { name: "No more profiles" })).toBeVisible();
  await page.getByRole("link", { name: /^Filters/ }).click();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByText("Filters cleared")).toBeVisible();

  // The owner likes the dog sitter.
  while ((await topCardName(page).textContent()) !== dogSitter.name) {
    await page.getByRole("button", { name: `Pass on Carl Cats${suffix}` }).click();
    await expect(topCardName(page)).not.toHaveText(`Carl Cats${suffix}`);
  }
  await page.getByRole("button", { name: `Like ${dogSitter.name}` }).click();
  await expect(topCardName(page).filter({ hasText: dogSitter.name })).toHaveCount(0);
  // The deck reloads once the like is stored (Start Over stays; the liked card stays away).
  await expect(page.getByRole("heading", { name: "No more profiles" }).or(topCardName(page))).toBeVisible();
  await page.waitForLoadState("networkidle");
  await logOut(page);

  // The sitter likes the owner's dog: it's a match, for both of them.
  await logIn(page, dogSitter.email, dogSitter.password);
  await page.waitForURL("**/dashboard");
  await browseLocally(page, jsEnabled, city);
  await expect(page.getByRole("heading", { name: "Find Pets" })).toBeVisible();
  await expect(topCardName(page)).toHaveText("Rex");
  await expect(page.getByTestId("top-card").getByText(`with ${owner.name}`)).toBeVisible();
  await page.getByRole("button", { name: "Like Rex" }).click();
  const overlay = page.getByRole("dialog", { name: "It's a Match!" });
  await expect(overlay).toBeVisible();
  await expect(overlay.getByText(`You and ${owner.name} like each other.`)).toBeVisible();
  await expect(overlay.getByRole("link", { name: "Send Message" })).toHaveAttribute(
    "href",
    /^\/messages\?userId=[\w-]+$/,
  );
  await expectAccessible(page);
  await overlay.getByRole("link", { name: "Keep Swiping" }).click();
  await expect(overlay).toHaveCount(0);
  await expect(page.getByRole("link", { name: `Send a message to ${owner.name}` })).toBeVisible();
  await logOut(page);

  await logIn(page, owner.email, owner.password);
  await page.waitForURL("**/dashboard");
  await expect(page.getByRole("link", { name: `Send a message to ${dogSitter.name}` })).toHaveAttribute(
    "href",
    /^\/messages\?userId=[\w-]+$/,
  );
});

test("the card follows a drag: 60 px shows the stamp and snaps back, past 100 px it likes", async ({
  page,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "Dragging needs JavaScript");
  test.setTimeout(120_000);
  await sitterIn(page, jsEnabled, { name: "Dana Drag", city: "Kiruna" });
  await ownerWithDog(page, jsEnabled, { name: "Otto Drag", city: "Kiruna", dog: "Bolt" });
  await visit(page, "/dashboard");
  await browseLocally(page, jsEnabled, "Kiruna");

  const card = page.getByTestId("top-card");
  await expect(topCardName(page)).toHaveText("Dana Drag");
  const box = (await card.boundingBox())!;
  const start = { x: box.x + box.width / 2, y: box.y + box.height / 3 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 30, start.y, { steps: 3 });
  await expect(card.getByText("LIKE")).toHaveCount(0);
  await page.mouse.move(start.x + 60, start.y, { steps: 3 });
  await expect(card.getByText("LIKE")).toBeVisible();
  await page.mouse.up();
  await expect(card.getByText("LIKE")).toHaveCount(0);
  await expect(topCardName(page)).toHaveText("Dana Drag");
  await expect.poll(async () => (await card.boundingBox())!.x).toBeCloseTo(box.x, 0);

  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x - 60, start.y, { steps: 3 });
  await expect(card.getByText("NOPE")).toBeVisible();
  await page.mouse.move(start.x + 150, start.y, { steps: 6 });
  await expect(card.getByText("LIKE")).toBeVisible();
  await page.mouse.up();
  await expect(page.getByRole("heading", { name: "No more profiles" })).toBeVisible();

  // The like was stored: starting over brings the card back, and the arrow keys decide too.
  await page.getByRole("button", { name: "Start Over" }).click();
  await expect(topCardName(page)).toHaveText("Dana Drag");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("heading", { name: "No more profiles" })).toBeVisible();
});
