import { heldBooking, makeOperator, paymentOf } from "./disputes-data";
import { serverNow, signedUp, signIn } from "./people";
import { expect, logOut, test, visit } from "./support";

test("after the operator refunds 40 % of a 54 € booking, the sitter's card says they earn 27 €, as the payment record does", async ({
  page,
  request,
  jsEnabled,
}) => {
  test.setTimeout(240_000);
  const tag = jsEnabled ? "J" : "N";
  const owner = await signedUp(page, jsEnabled, "owner", `Olive Money ${tag}`);
  const sitter = await signedUp(page, jsEnabled, "sitter", `Seth Money ${tag}`);
  const admin = await signedUp(page, jsEnabled, "owner", `Otto Operator ${tag}`);
  makeOperator(admin.email);
  // 3 h at 15 €/h: 45 € for the sitter and 9 € fee, 54 € held.
  const { bookingId } = heldBooking(owner.email, sitter.email, await serverNow(request), "completed", "Bruno", 3);

  await signIn(page, sitter);
  await visit(page, "/bookings");
  await expect(page.getByText("You earn €45.00")).toBeVisible();
  await logOut(page);

  await signIn(page, owner);
  await visit(page, "/bookings");
  await page.getByRole("link", { name: "Report a problem" }).click();
  await page.getByRole("radio", { name: "Late or shorter than booked" }).check();
  await page.getByLabel("What happened?").fill("Back after an hour.");
  await page.getByRole("button", { name: "Report the problem" }).click();
  await expect(page.getByRole("heading", { name: "Problem reported: the payment waits" })).toBeVisible();
  await logOut(page);

  // The operator refunds 40 % of 54 €.
  await signIn(page, admin);
  await visit(page, "/admin/disputes");
  await page.getByRole("link", { name: `${owner.name} and ${sitter.name} · Bruno` }).click();
  await page.getByRole("radio", { name: "Partial refund" }).check();
  await page.getByLabel("Amount to refund (EUR)").fill("21.60");
  await page.getByLabel("Reason (kept in the audit log)").fill("The visit was 40 % short.");
  await page.getByRole("button", { name: "Settle" }).click();
  await expect(page.getByText("Settled: €21.60 was refunded to the owner; the rest was released.")).toBeVisible();
  const record = page.getByRole("table", { name: "Payment record" });
  await expect(record.getByRole("row", { name: /Paid in the end/ })).toContainText("€32.40");
  await expect(record.getByRole("row", { name: /Kept by the sitter/ })).toContainText("€27.00");
  await expect(record.getByRole("row", { name: /Platform fee/ })).toContainText("€5.40");
  expect(paymentOf(bookingId)).toEqual({
    payment_status: "released",
    refunded_cents: 2160,
    status: "completed",
    provider_status: "captured",
    provider_amount: 3240,
  });
  await logOut(page);

  // The sitter's card, and the booking's own page, say what the sitter keeps.
  await signIn(page, sitter);
  await visit(page, "/bookings");
  const card = page.getByRole("article", { name: `Bruno (${owner.name})` });
  await expect(card).toContainText("You earn €27.00 · Payment released · €21.60 refunded");
  await expect(card).not.toContainText("€45.00");
  await visit(page, `/bookings/${bookingId}/problem`);
  const mine = page.getByRole("table", { name: "Payment record" });
  await expect(mine.getByRole("row", { name: /Kept by the sitter/ })).toContainText("€27.00");
  await expect(mine.getByRole("row", { name: /^Refunded/ })).toContainText("€21.60");
  await logOut(page);

  // The owner's card: the price and the refund.
  await signIn(page, owner);
  await visit(page, "/bookings");
  await expect(page.getByRole("article", { name: sitter.name })).toContainText(
    "Total €54.00 · Payment released · €21.60 refunded",
  );
});
