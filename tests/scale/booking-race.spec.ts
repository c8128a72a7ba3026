import { dayAhead, ownerWithDog, sitterAvailableOn } from "../e2e/people";
import { expect, logIn, test, visit } from "../e2e/support";
import { acceptAddresses, bookingCard, requestAndPay } from "./bookings";
import { instances, personOn, query, sameSessionOn } from "./instances";

const pets = ["Argo", "Pepper", "Luna", "Milo"];

test("accepts for the same two hours sent at once, half through each instance: one booking confirmed, the others cancelled and refunded", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const city = "Thessaloniki";
  const day = await dayAhead(request, 2);
  // Each owner holds a request for 10:00–12:00, made and paid through one instance or the other;
  // the people sign up side by side.
  const ownerPages = pets.map(async (pet, index) => {
    const ownerPage = await (await personOn(browser, instances[index % 2]!)).newPage();
    await ownerWithDog(ownerPage, true, { name: `Olympia Race ${index + 1}`, city, dog: pet });
    return ownerPage;
  });
  const [sitter, ...pages] = await Promise.all([
    sitterAvailableOn(page, true, day, { name: "Theo Race", city, rate: 12 }),
    ...ownerPages,
  ]);
  await Promise.all(pages.map((ownerPage) => requestAndPay(ownerPage, sitter, day)));
  const owners = pages.map((ownerPage, index) => ({ pet: pets[index]!, page: ownerPage }));

  await logIn(page, sitter.email, sitter.password);
  await page.waitForURL("**/dashboard");
  const addresses = await acceptAddresses(page, pets);
  // The same form the page posts, with the sitter's session, half through each instance, all at once.
  const clients = await Promise.all(instances.map((instance) => sameSessionOn(page.context(), instance)));
  const responses = await Promise.all(
    pets.map((pet, index) =>
      clients[index % 2]!.post(addresses.get(pet)!, { form: { intent: "accept" }, maxRedirects: 0 }),
    ),
  );
  // Each answer is the page's own: back to the bookings with a message (never an error page).
  for (const response of responses) {
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toMatch(/\/bookings$/);
  }
  await Promise.all(clients.map((client) => client.dispose()));

  const ids = [...addresses.values()].map((address) => address.split("/").pop()!);
  const rows = await query<{
    id: string;
    status: string;
    payment_status: string;
    cancel_reason: string | null;
    cancelled_by: string | null;
    hold_ref: string;
  }>("select id, status, payment_status, cancel_reason, cancelled_by, hold_ref from bookings where id = any($1)", [
    ids,
  ]);
  expect(rows).toHaveLength(pets.length);
  const confirmed = rows.filter((row) => row.status === "confirmed");
  expect(confirmed).toHaveLength(1);
  expect(confirmed[0]).toMatchObject({ payment_status: "held" });
  for (const row of rows.filter((row) => row.id !== confirmed[0]!.id)) {
    expect(row).toMatchObject({
      status: "cancelled",
      cancelled_by: "system",
      cancel_reason: "slotTaken",
      payment_status: "refunded",
    });
  }
  // The payment records: the winner's hold is still held, every other hold voided.
  const holds = await query<{ ref: string; status: string }>(
    "select ref, status from test_payments where ref = any($1)",
    [rows.map((row) => row.hold_ref)],
  );
  expect(holds.map((hold) => hold.status).sort()).toEqual(["held", ...Array(pets.length - 1).fill("voided")].sort());
  expect(holds.find((hold) => hold.ref === confirmed[0]!.hold_ref)?.status).toBe("held");
  // The sitter's calendar holds the one booking.
  const slots = await query<{ status: string; booking_id: string | null }>(
    "select s.status, s.booking_id from availability_slots s join users u on u.id = s.sitter_id where u.email = $1 and s.status = 'booked'",
    [sitter.email],
  );
  expect(slots).toEqual([{ status: "booked", booking_id: confirmed[0]!.id }]);

  // What the people see, each on the instance they use.
  await visit(page, "/bookings?tab=accepted");
  const winner = pets[ids.indexOf(confirmed[0]!.id)]!;
  await expect(bookingCard(page, winner).getByText("Accepted", { exact: true })).toBeVisible();
  await Promise.all(
    owners.map(async ({ pet, page: ownerPage }) => {
      await visit(ownerPage, "/bookings");
      const card = bookingCard(ownerPage, sitter.name);
      if (pet === winner) {
        await expect(card.getByText("Accepted", { exact: true })).toBeVisible();
        await expect(card.getByText(/Payment held/)).toBeVisible();
      } else {
        await expect(card.getByText("Cancelled: the sitter accepted another booking for this time.")).toBeVisible();
        await expect(card.getByText("Hold released")).toBeVisible();
        await visit(ownerPage, "/notifications");
        await expect(ownerPage.getByRole("button", { name: /Your booking request could not be accepted/ })).toHaveCount(
          1,
        );
      }
      await ownerPage.context().close();
    }),
  );
});
