import { upload } from "./images";
import { serverNow, signedUp, signIn, sitterIn } from "./people";
import { heldBooking, hideReview, idOf, makeOperator, paymentOf, reviewsOf } from "./disputes-data";
import { expect, expectAccessible, logOut, test, visit } from "./support";

test("a problem pauses the release; the operator refunds 40 %: the provider captures 60 %, the sitter keeps 18 € and the fee is 3.60 €", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(240_000);
  const tag = jsEnabled ? "J" : "N";
  const owner = await signedUp(page, jsEnabled, "owner", `Olga Disputes ${tag}`);
  const sitter = await signedUp(page, jsEnabled, "sitter", `Sam Disputes ${tag}`);
  const admin = await signedUp(page, jsEnabled, "owner", `Ona Operator ${tag}`);
  makeOperator(admin.email);
  const { bookingId, holdRef } = heldBooking(owner.email, sitter.email, await serverNow(request), "completed");

  // The owner reports the problem with words and a photo.
  await signIn(page, owner);
  await visit(page, "/bookings");
  await page.getByRole("link", { name: "Report a problem" }).click();
  await expect(page.getByRole("heading", { name: "Report a problem" })).toBeVisible();
  await expectAccessible(page);
  // Nothing chosen: every error at once, nothing written.
  await page.getByRole("button", { name: "Report the problem" }).click();
  await expect(page.getByText("Choose what went wrong.")).toBeVisible();
  await expect(page.getByText("Tell us what happened.")).toBeVisible();
  await page.getByRole("radio", { name: "Late or shorter than booked" }).check();
  await page.getByLabel("What happened?").fill("Back after 20 minutes <script>alert(1)</script>");
  await page.getByLabel("Photos (optional)").setInputFiles([await upload("door.jpg")]);
  await page.getByRole("button", { name: "Report the problem" }).click();
  await expect(page.getByRole("heading", { name: "Problem reported: the payment waits" })).toBeVisible();
  await expect(page.getByText("Back after 20 minutes <script>alert(1)</script>")).toBeVisible();
  await expect(page.getByRole("img", { name: `Photo 1 from ${owner.name}` })).toBeVisible();
  await expectAccessible(page);
  await logOut(page);

  // The sitter is told and adds their side.
  await signIn(page, sitter);
  await visit(page, "/notifications");
  await expect(page.getByText(`${owner.name} reported a problem`)).toBeVisible();
  await visit(page, `/bookings/${bookingId}/problem`);
  await page.getByLabel("Add your side").fill("I stayed the whole hour.");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText("I stayed the whole hour.")).toBeVisible();
  await logOut(page);

  // The operator settles it: 40 % of 36 € back to the owner.
  await signIn(page, admin);
  await visit(page, "/admin/disputes");
  await page.getByRole("link", { name: `${owner.name} and ${sitter.name} · Rex` }).click();
  await expect(page.getByRole("heading", { name: "Dispute" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("radio", { name: "Partial refund" }).check();
  await page.getByLabel("Amount to refund (EUR)").fill("50");
  await page.getByLabel("Reason (kept in the audit log)").fill("The visit was much shorter than booked.");
  await page.getByRole("button", { name: "Settle" }).click();
  await expect(page.getByText("The refund cannot be more than what was paid and not yet refunded.")).toBeVisible();
  expect(paymentOf(bookingId)).toMatchObject({
    payment_status: "held",
    provider_status: "held",
    provider_amount: 3600,
  });
  await page.getByLabel("Amount to refund (EUR)").fill("14.40");
  await page.getByRole("button", { name: "Settle" }).click();
  await expect(page.getByText("Settled: €14.40 was refunded to the owner; the rest was released.")).toBeVisible();
  const money = page.getByRole("table", { name: "Payment record" });
  await expect(money.getByRole("row", { name: /Paid in the end/ })).toContainText("€21.60");
  await expect(money.getByRole("row", { name: /^Refunded/ })).toContainText("€14.40");
  await expect(money.getByRole("row", { name: /Kept by the sitter/ })).toContainText("€18.00");
  await expect(money.getByRole("row", { name: /Platform fee/ })).toContainText("€3.60");
  expect(paymentOf(bookingId)).toEqual({
    payment_status: "released",
    refunded_cents: 1440,
    status: "completed",
    provider_status: "captured",
    provider_amount: 2160,
  });
  expect(holdRef).toMatch(/^test_hold_/);

  // The booking's page: found by the owner's email, with its whole history.
  await visit(page, `/admin/bookings?q=${encodeURIComponent(owner.email)}`);
  await page.getByRole("link", { name: `${owner.name} and ${sitter.name} · Rex` }).click();
  await expect(page.getByText("Problem reported")).toBeVisible();
  await expect(page.getByText("Problem settled")).toBeVisible();
  await expect(page.getByText(`By ${admin.name} (operator)`)).toBeVisible();
  await expectAccessible(page);
  await logOut(page);

  // Both sides see the outcome.
  await signIn(page, owner);
  await visit(page, "/bookings");
  await expect(page.getByText("€14.40 refunded")).toBeVisible();
  await visit(page, `/bookings/${bookingId}/problem`);
  await expect(page.getByRole("heading", { name: "Problem settled" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add", exact: true })).toHaveCount(0);
});

test("the sitter cancels a confirmed booking: the hold goes back, the owner is told, and the profile counts it; reviews page and an answer", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(240_000);
  const tag = jsEnabled ? "J" : "N";
  const owner = await signedUp(page, jsEnabled, "owner", `Olga Cancelled ${tag}`);
  const sitter = await sitterIn(page, jsEnabled, { name: `Sid Cancels ${tag}`, city: "Toledo" });
  const now = await serverNow(request);
  const { bookingId } = heldBooking(owner.email, sitter.email, now, "confirmed", "Luna");
  reviewsOf(sitter.email, bookingId, 7, now);
  hideReview("Review 6");

  await signIn(page, sitter);
  await visit(page, "/bookings");
  await page.getByRole("link", { name: "Cancel and refund" }).click();
  await expect(page.getByText(`${owner.name}'s hold will be released in full`)).toBeVisible();
  await page.getByRole("button", { name: "Cancel and refund" }).click();
  await expect(page.getByText("Please provide a reason for cancellation:").last()).toBeVisible();
  await page.getByLabel("Please provide a reason for cancellation:").fill("I broke my ankle.");
  await page.getByRole("button", { name: "Cancel and refund" }).click();
  await expect(page.getByText("The owner has been told and their hold released in full.")).toBeVisible();
  expect(paymentOf(bookingId)).toMatchObject({
    status: "cancelled",
    payment_status: "refunded",
    provider_status: "voided",
  });

  // The sitter's own preview: the newest reviews first, the removed one marked, an answer once.
  await visit(page, "/profile/public");
  const reviews = page.getByRole("region", { name: "Reviews" });
  await expect(reviews.getByText("Cancelled 1 of 1 booking in the last year")).toBeVisible();
  await expect(reviews.getByText("Review 7")).toBeVisible();
  await expect(reviews.getByText("Removed by Trusted Sitters")).toBeVisible();
  await expect(reviews.getByText("Review 6")).toHaveCount(0);
  await expect(reviews.getByText("Review 2")).toHaveCount(0);
  const newest = reviews.getByRole("listitem").filter({ hasText: "Review 7" });
  await newest.getByRole("button", { name: "Answer" }).click();
  await expect(newest.getByText("Write your answer.")).toBeVisible();
  await newest.getByLabel("Answer this review (once)").fill("Thank you, see you soon!");
  await newest.getByRole("button", { name: "Answer" }).click();
  await expect(page.getByText("Your answer was added")).toBeVisible();
  const answered = page.getByRole("region", { name: "Reviews" }).getByRole("listitem").filter({ hasText: "Review 7" });
  await expect(answered.getByText("Thank you, see you soon!")).toBeVisible();
  await expect(answered.getByRole("button", { name: "Answer" })).toHaveCount(0);
  await logOut(page);

  // The owner was told, and sees the same on the sitter's public profile, page by page.
  await signIn(page, owner);
  await visit(page, "/notifications");
  await expect(page.getByText(`${sitter.name} cancelled your booking`)).toBeVisible();
  await visit(page, `/users/${idOf(sitter.email)}`);
  const shown = page.getByRole("region", { name: "Reviews" });
  await expect(shown.getByText("Cancelled 1 of 1 booking in the last year")).toBeVisible();
  await expect(shown.getByText("Thank you, see you soon!")).toBeVisible();
  await expect(shown.getByRole("button", { name: "Answer" })).toHaveCount(0);
  await shown.getByRole("link", { name: "Older reviews" }).click();
  await expect(page.getByRole("region", { name: "Reviews" }).getByText("Review 2")).toBeVisible();
  await expect(page.getByRole("region", { name: "Reviews" }).getByText("Review 7")).toHaveCount(0);
  await expectAccessible(page);
});

test("operator pages answer 404 to members, and a forged booking id on the problem page too", async ({
  page,
  jsEnabled,
}) => {
  const member = await signedUp(page, jsEnabled, "owner", `Mia Member ${jsEnabled ? "J" : "N"}`);
  await signIn(page, member);
  for (const path of [
    "/admin/disputes",
    "/admin/bookings",
    `/admin/bookings/${crypto.randomUUID()}`,
    `/bookings/${crypto.randomUUID()}/problem`,
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
});
