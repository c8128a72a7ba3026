import { dayAhead, ownerWithDog, sitterAvailableOn } from "../e2e/people";
import { expect, logIn, test, visit } from "../e2e/support";
import { bookingCard, requestAndPay } from "./bookings";
import { advanceBothClocks, instances, personOn, query } from "./instances";

test("both instances' schedulers see the same due work at the same moment: the booking completes once and its payment is released once", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const city = "Dubrovnik";
  const day = await dayAhead(request, 2);
  const ownerContext = await personOn(browser, instances[1]);
  const ownerPage = await ownerContext.newPage();
  const [sitter, owner] = await Promise.all([
    sitterAvailableOn(page, true, day, { name: "Dora Scheduler", city, rate: 14 }),
    ownerWithDog(ownerPage, true, { name: "Ivo Scheduler", city, dog: "Tin" }),
  ]);
  await requestAndPay(ownerPage, sitter, day);

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  await visit(page, "/bookings?tab=pending");
  await bookingCard(page, "Tin").getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText("Booking Accepted")).toBeVisible();
  const [booking] = await query<{ id: string; hold_ref: string }>(
    "select b.id, b.hold_ref from bookings b join users u on u.id = b.owner_id where u.email = $1 and b.status = 'confirmed'",
    [owner.email],
  );
  expect(booking).toBeDefined();

  // The booking starts and ends: both schedulers find it due at once.
  await advanceBothClocks(request, 4 * 24 * 60);
  await visit(ownerPage, "/notifications");
  await expect(ownerPage.getByRole("button", { name: /Booking completed/ })).toHaveCount(1);
  await expect(ownerPage.getByRole("button", { name: /Your booking with Dora Scheduler has started/ })).toHaveCount(1);

  // 72 hours after it ended, the capture is due on both instances at the same moment.
  await advanceBothClocks(request, 73 * 60);
  const history = await query<{ payment_to: string }>(
    "select payment_to from booking_history where booking_id = $1 and payment_to = 'released'",
    [booking!.id],
  );
  expect(history).toHaveLength(1);
  const [row] = await query<{ payment_status: string; payment_task: string | null }>(
    "select payment_status, payment_task from bookings where id = $1",
    [booking!.id],
  );
  expect(row).toEqual({ payment_status: "released", payment_task: null });
  const [hold] = await query<{ status: string; amount_cents: number }>(
    "select status, amount_cents from test_payments where ref = $1",
    [booking!.hold_ref],
  );
  // €14 × 2 h + the 20 % fee, captured once.
  expect(hold).toEqual({ status: "captured", amount_cents: 3360 });
  const captures = await query<{ key: string }>("select key from payment_idempotency where key like $1", [
    `capture:${booking!.id}:%`,
  ]);
  expect(captures).toHaveLength(1);

  // What the two people see, each through their own instance: one release, told once.
  await visit(page, "/notifications");
  await expect(page.getByRole("button", { name: /Payment released/ })).toHaveCount(1);
  await visit(page, "/bookings?tab=completed");
  await expect(bookingCard(page, "Tin").getByText(/Released to you|Payment released/)).toBeVisible();
  await visit(ownerPage, "/bookings?tab=completed");
  await expect(bookingCard(ownerPage, sitter.name).getByText(/Payment released/)).toBeVisible();
  await expect(bookingCard(ownerPage, sitter.name).getByRole("button", { name: "Release Payment" })).toHaveCount(0);
  await ownerContext.close();
});
