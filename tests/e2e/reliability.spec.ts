import { answeredRequests } from "./database";
import { dayAhead, ownerWithDog, serverNow, sitterAvailableOn, signIn } from "./people";
import { expect, expectAccessible, logOut, test, visit } from "./support";
import { idOf } from "./disputes-data";

test("a sitter's reliability figures appear on their profile once a fifth request is answered", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(150_000);
  const [city, suffix] = jsEnabled ? ["Cairns", "J"] : ["Alice Springs", "N"];
  const day = await dayAhead(request, 3);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, { name: `Rita Reliable ${suffix}`, city, rate: 15 });
  const owner = await ownerWithDog(page, jsEnabled, { name: `Otto Often ${suffix}`, city, dog: "Rex" });
  // Four earlier requests, each accepted three hours after it arrived, all cared for.
  answeredRequests(owner.email, sitter.email, new Date(await serverNow(request)), 4, 180);
  const sitterId = idOf(sitter.email);

  // Four requests say too little: no figures.
  await visit(page, `/users/${sitterId}`);
  await expect(page.getByRole("heading", { name: "Reviews" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Reliability" })).toHaveCount(0);

  // A fifth request, paid, then accepted by the sitter.
  await page.getByRole("link", { name: `Book ${sitter.name}` }).click();
  await page.getByLabel("Date").fill(day);
  if (!jsEnabled) await page.getByRole("button", { name: "Show times" }).click();
  await page.getByLabel("Start time").selectOption("10:00");
  await page.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
  await page.getByLabel("Name on card").fill("Otto Often");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: /^Pay €/ }).click();
  await expect(page).toHaveURL(/\/bookings$/);
  await logOut(page);

  await signIn(page, sitter);
  await visit(page, "/bookings?tab=pending");
  await page.getByRole("article").filter({ hasText: owner.name }).getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText("Booking Accepted")).toBeVisible();
  // The sitter sees their own figures in the preview of their public profile.
  await visit(page, "/profile/public");
  const own = page.getByRole("region", { name: "Reliability" });
  await expect(own.getByText("From 5 requests in the last 90 days.")).toBeVisible();
  await logOut(page);

  await signIn(page, owner);
  await visit(page, `/users/${sitterId}`);
  const figures = page.getByRole("region", { name: "Reliability" });
  // Answers after 3 h, 3 h, 3 h, 3 h and a few seconds: the middle one is 3 hours.
  await expect(figures.getByText("Within 3 hours")).toBeVisible();
  await expect(figures.getByText("100%")).toBeVisible();
  // Four visits done, all by the same owner: one client, who came back.
  await expect(figures.getByText("1 of 1 client")).toBeVisible();
  await expect(
    figures.getByText("Half of the requests of the last 90 days were accepted or declined faster than this."),
  ).toBeVisible();
  await expectAccessible(page);
});
