import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { confirmedBookingSoon } from "./database";
import { upload } from "./images";
import { ownerWithDog, sitterIn } from "./people";
import { expect, expectAccessible, logIn, test, visit, type Person } from "./support";

async function serverNow(request: APIRequestContext): Promise<Date> {
  const { now } = (await (await request.get("/dev/clock")).json()) as { now: string };
  return new Date(now);
}

async function sitterBrowser(
  browser: Browser,
  jsEnabled: boolean,
  sitter: Person,
  extra: Parameters<Browser["newContext"]>[0] = {},
): Promise<Page> {
  const context = await browser.newContext({
    ...(jsEnabled ? {} : { javaScriptEnabled: false }),
    viewport: { width: 393, height: 851 },
    locale: "en-GB",
    ...extra,
  });
  const sitterPage = await context.newPage();
  await logIn(sitterPage, sitter.email, sitter.password);
  await sitterPage.waitForURL("**/dashboard");
  return sitterPage;
}

async function writeCarePlan(page: Page, dog: string) {
  await visit(page, "/profile");
  await page.getByRole("link", { name: `Care plan ${dog}` }).click();
  await expect(page.getByRole("heading", { name: `Care plan for ${dog}`, level: 1 })).toBeVisible();
  // Bad input first: a phone with letters is refused beside its field, and nothing is saved.
  await page.getByLabel("Vet's phone").fill("call me");
  await page.getByRole("button", { name: "Save care plan" }).click();
  await expect(page.getByLabel("Vet's phone")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Use digits, spaces and + ( ) - only.")).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Feeding").fill("08:00 – 80 g dry food");
  await page.getByLabel("Medication").fill("09:00 – Apoquel 16 mg");
  await page.getByLabel("House notes").fill("Keys with the concierge, <b>alarm</b> code 1234");
  await page.getByLabel("Vet's name").fill("Dr. Vega");
  await page.getByLabel("Vet's phone").fill("+34 910 000 000");
  await page.getByRole("button", { name: "Save care plan" }).click();
  await expect(page.getByText(`Care plan for ${dog} saved`)).toBeVisible();
  await page.getByRole("link", { name: `Care plan ${dog}` }).click();
  await expect(page.getByLabel("Medication")).toHaveValue("09:00 – Apoquel 16 mg");
}

test("the owner writes a care plan; the sitter sees it only in the booking's window, checks in, ticks the medication, adds a photo and checks out; the owner follows and gets the report", async ({
  page,
  browser,
  request,
  jsEnabled,
}) => {
  test.setTimeout(240_000);
  const tag = jsEnabled ? "J" : "N";
  const sitter = await sitterIn(page, jsEnabled, { name: `Vera Visitor ${tag}`, city: "Mo i Rana" });
  const owner = await ownerWithDog(page, jsEnabled, { name: `Otto Owner ${tag}`, city: "Mo i Rana", dog: "Rex" });
  await writeCarePlan(page, "Rex");

  const now = await serverNow(request);
  const later = confirmedBookingSoon(owner.email, sitter.email, now, 3 * 24 * 60);
  const sitterPage = await sitterBrowser(browser, jsEnabled, sitter);
  const checkSitterPage = () => (jsEnabled ? expectAccessible(sitterPage) : Promise.resolve());

  // Three days ahead: the booking is there, its care plan is not yet.
  await sitterPage.goto("/bookings");
  await sitterPage.goto(`/bookings/${later}/visit`);
  await expect(sitterPage.getByRole("heading", { name: "Visit: Rex" })).toBeVisible();
  await expect(sitterPage.getByText(/The care plan opens 24 hours before the booking starts/)).toBeVisible();
  await expect(sitterPage.getByText("Apoquel")).toHaveCount(0);
  await expect(sitterPage.getByRole("button", { name: "Check in" })).toHaveCount(0);
  await checkSitterPage();

  // Starting in ten minutes: the plan shows, and check-in is open.
  const soon = confirmedBookingSoon(owner.email, sitter.email, now, 10);
  await sitterPage.goto(`/bookings/${soon}/visit`);
  await expect(sitterPage.getByRole("heading", { name: "Care plan for Rex" })).toBeVisible();
  await expect(sitterPage.getByText("Keys with the concierge, <b>alarm</b> code 1234")).toBeVisible();
  await checkSitterPage();

  // The owner watches the visit's page.
  await visit(page, `/bookings/${soon}/visit`);
  await expect(page.getByText("Not checked in yet.")).toBeVisible();

  await sitterPage.getByRole("button", { name: "Check in" }).click();
  await expect(sitterPage.getByText(/^Checked in at \d/)).toBeVisible();
  // A second check-in (a replayed form) is refused with a message and changes nothing.
  if (!jsEnabled) {
    const replay = await sitterPage.request.post(`/bookings/${soon}/visit`, {
      form: { intent: "check-in" },
      headers: { Origin: new URL(sitterPage.url()).origin },
      maxRedirects: 0,
    });
    expect(replay.status()).toBe(302);
  }
  if (!jsEnabled) await page.reload();
  await expect(page.getByText(/^Checked in at \d/)).toBeVisible();

  await sitterPage.getByRole("button", { name: "Done: 09:00 – Apoquel 16 mg" }).click();
  await expect(sitterPage.getByText("Marked as done")).toBeVisible();
  await expect(
    sitterPage
      .getByRole("listitem")
      .filter({ hasText: "Apoquel" })
      .getByText(/^Done at \d/),
  ).toBeVisible();

  // A file that is not a photo is refused beside the field; a real photo is added.
  await sitterPage
    .getByLabel("Add a photo or short video")
    .setInputFiles({ name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("<script>alert(1)</script>") });
  await sitterPage.getByRole("button", { name: "Upload" }).click();
  await expect(
    sitterPage.getByText("Choose a photo (JPEG, PNG, GIF, WebP) or a short video (MP4, WebM)."),
  ).toBeVisible();
  await expect(sitterPage.getByLabel("Add a photo or short video")).toHaveAttribute("aria-invalid", "true");
  await checkSitterPage();
  await sitterPage.getByLabel("Add a photo or short video").setInputFiles([await upload("rex-park.jpg")]);
  await sitterPage.getByRole("button", { name: "Upload" }).click();
  await expect(sitterPage.getByRole("img", { name: "Visit photo 1" })).toBeVisible();

  // The walk typed in (the way without JavaScript or a position): a nonsense distance is refused beside its field.
  await sitterPage.getByLabel("Distance (km)").fill("far");
  await sitterPage.getByLabel("Duration (minutes)").fill("25");
  await sitterPage.getByRole("button", { name: "Save the walk" }).click();
  await expect(sitterPage.getByText("Enter a distance between 0.1 and 40 km.")).toBeVisible();
  await expect(sitterPage.getByLabel("Distance (km)")).toHaveAttribute("aria-invalid", "true");
  await sitterPage.getByLabel("Distance (km)").fill("1.2");
  await sitterPage.getByRole("button", { name: "Save the walk" }).click();
  await expect(sitterPage.getByText("Walk saved")).toBeVisible();
  await expect(sitterPage.getByText("1.2 km in 25 min")).toBeVisible();

  await sitterPage.getByLabel("Ate well").check();
  await sitterPage.getByLabel("Note for the owner").fill("Rex loved the park.");
  await sitterPage.getByRole("button", { name: "Save notes" }).click();
  await expect(sitterPage.getByText("Notes saved")).toBeVisible();
  await checkSitterPage();

  await sitterPage.getByRole("button", { name: "Check out" }).click();
  await expect(sitterPage.getByText(/^Checked in at .+, checked out at .+\.$/)).toBeVisible();
  await expect(sitterPage.getByRole("button", { name: /^Done:/ })).toHaveCount(0);
  await expect(sitterPage.getByLabel("Add a photo or short video")).toHaveCount(0);
  // Back-filling after check-out is refused and changes nothing. The page is left first: open, it would
  // take the refusal's message on its next revalidation (the check-out's own events bring one).
  const origin = new URL(sitterPage.url()).origin;
  await sitterPage.goto("about:blank");
  const late = await sitterPage.request.post(`/bookings/${soon}/visit`, {
    form: { intent: "tick", position: "0" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(late.status()).toBe(302);
  await sitterPage.goto(`/bookings/${soon}/visit`);
  await expect(sitterPage.getByText("The visit is checked out: its report can no longer change.")).toBeVisible();
  await expect(sitterPage.getByText("MISSED")).toBeVisible();

  // The owner sees the report (live with JavaScript), with the missed feeding marked plainly.
  if (!jsEnabled) await page.reload();
  await expect(page.getByText(/, checked out at \d/)).toBeVisible();
  await expect(
    page.getByRole("listitem").filter({ hasText: "08:00 – 80 g dry food" }).getByText("MISSED"),
  ).toBeVisible();
  await expect(
    page
      .getByRole("listitem")
      .filter({ hasText: "Apoquel" })
      .getByText(/^Done at \d/),
  ).toBeVisible();
  await expect(page.getByRole("img", { name: "Visit photo 1" })).toBeVisible();
  await expect(page.getByText("Rex loved the park.")).toBeVisible();
  await expect(page.getByText("1.2 km in 25 min")).toBeVisible();
  await expectAccessible(page);

  // …in the chat as a card, and by email.
  await page.goto("/messages");
  await page.getByRole("link", { name: new RegExp(sitter.name) }).click();
  await expect(page.getByRole("log").getByText("Visit report for Rex: 1 of 2 done, 1 missed.")).toBeVisible();
  await expect(page.getByRole("log").getByRole("link", { name: "Open the visit report" })).toHaveAttribute(
    "href",
    `/bookings/${soon}/visit`,
  );
  await visit(page, "/dev/outbox");
  const email = page
    .getByRole("article")
    .filter({ has: page.getByRole("heading", { name: `Visit report for Rex from ${sitter.name}` }) });
  await expect(email).toContainText("✗ MISSED – Feeding: 08:00 – 80 g dry food");
  await expect(email).toContainText("✓ Medication: 09:00 – Apoquel 16 mg, done at");
  await expect(email).toContainText("Photos: 1, videos: 0");
  await expect(email.getByRole("link", { name: new RegExp(`/bookings/${soon}/visit$`) })).toBeVisible();
  await sitterPage.context().close();
});

test("a walk recorded with the browser's position is drawn on the report with its distance and duration", async ({
  page,
  browser,
  request,
  jsEnabled,
}) => {
  test.skip(
    !jsEnabled,
    "recording a walk needs JavaScript; without it the distance and duration are typed (the test above covers the page without JavaScript)",
  );
  test.setTimeout(180_000);
  const sitter = await sitterIn(page, jsEnabled, { name: "Walter Walker", city: "Vadsø" });
  const owner = await ownerWithDog(page, jsEnabled, { name: "Wanda Owner", city: "Vadsø", dog: "Bolt" });
  const booking = confirmedBookingSoon(owner.email, sitter.email, await serverNow(request), 5);
  // In Vadsø, where the owner lives: a route far from the booking's place is refused.
  const start = { latitude: 70.0744, longitude: 29.7487 };
  const sitterPage = await sitterBrowser(browser, jsEnabled, sitter, {
    permissions: ["geolocation"],
    geolocation: start,
  });
  // The browser's clock is moved on between positions, so the walk goes at a walker's pace (13.5 km/h).
  await sitterPage.clock.install();
  await sitterPage.goto(`/bookings/${booking}/visit`);
  await sitterPage.getByRole("button", { name: "Check in" }).click();
  await expect(sitterPage.getByText(/^Checked in at \d/)).toBeVisible();

  await sitterPage.getByRole("button", { name: "Start recording the walk" }).click();
  await expect(sitterPage.getByRole("status").filter({ hasText: "Recording:" })).toContainText("1 positions");
  // About 45 m north at each step.
  for (let step = 1; step <= 5; step += 1) {
    await sitterPage.clock.fastForward(12_000);
    await sitterPage.context().setGeolocation({ latitude: start.latitude + step * 0.0004, longitude: start.longitude });
    await expect(sitterPage.getByRole("status").filter({ hasText: "Recording:" })).toContainText(
      `${step + 1} positions`,
    );
  }
  await expectAccessible(sitterPage);
  await sitterPage.getByRole("button", { name: "Finish and save the walk" }).click();
  await expect(sitterPage.getByText("Walk saved")).toBeVisible();
  const route = sitterPage.getByRole("img", { name: /^Route of the walk: 0\.2 km in 1 min$/ });
  await expect(route).toBeVisible();
  // Six positions, and the last one again when Finish was pressed (the walk's end time).
  expect((await route.locator("polyline").getAttribute("points"))?.split(" ")).toHaveLength(7);
  await expect(sitterPage.getByRole("button", { name: "Start recording the walk" })).toHaveCount(0);

  await visit(page, `/bookings/${booking}/visit`);
  await expect(page.getByRole("img", { name: /^Route of the walk: 0\.2 km in 1 min$/ })).toBeVisible();
  // The page carries the drawing, never the positions.
  expect(await page.content()).not.toContain("70.07");
  await sitterPage.context().close();
});
