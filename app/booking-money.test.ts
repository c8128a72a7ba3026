import { randomUUID } from "node:crypto";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { startSession } from "~/platform/session.server";
import { clockTo, resetClockAfterEach } from "~/testing/clock";
import { bookingRow, card, ownerWithPet, paymentRow, requested, sitterWithSlot } from "~/testing/bookings";
import { emailsTo, person } from "~/testing/people";
import { payForBooking, runDueBookingWork, transition } from "~/features/bookings/index.server";
import { reportProblem, resolveDispute } from "~/features/disputes/index.server";
import { personalData } from "~/features/account/index.server";
import * as bookingsPage from "./routes/bookings";
import * as problemPage from "./routes/booking-problem";
import * as notificationsPage from "./routes/notifications";
import * as profilePage from "./routes/profile";
import * as operatorDispute from "./routes/admin-dispute";
import * as operatorDisputes from "./routes/admin-disputes";
import * as operatorBooking from "./routes/admin-booking";
import * as operatorBookings from "./routes/admin-bookings";
import * as operatorPerson from "./routes/admin-person";
import * as operatorOverview from "./routes/admin-overview";

/**
 * Every place that shows a booking's money reads it from the bookings feature's `bookingMoney`:
 * after a settlement with a partial refund they all tell the same amounts.
 */

resetClockAfterEach();

type Loader<T> = (args: LoaderFunctionArgs) => Promise<T>;

async function load<T>(
  loader: Loader<T>,
  userId: string,
  path: string,
  params: Record<string, string> = {},
): Promise<T> {
  const cookie = (await startSession(userId)).split(";")[0]!;
  return loader({
    request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }),
    params,
    context: { cspNonce: "", clientAddress: "127.0.0.1" },
  });
}

/** A 3 h booking at 15 €/h (45 € for the sitter and 9 € fee: 54 € held), completed; the owner reports a problem; the operator refunds 40 %. */
async function settledWithPartialRefund() {
  const sitter = await sitterWithSlot({ rateCents: 1500 });
  const owner = await ownerWithPet();
  const operator = await person("owner", { columns: { is_admin: 1 } });
  const requestedBooking = await requested(owner, sitter, "09:00", 3);
  expect(requestedBooking.total_cents).toBe(5400);
  expect(await payForBooking(owner, requestedBooking.id, card(), randomUUID())).toEqual({ status: "held" });
  expect((await transition(requestedBooking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(
    true,
  );
  clockTo(requestedBooking.end_at);
  await runDueBookingWork();
  expect(
    await reportProblem(owner.id, requestedBooking.id, {
      reason: "shortVisit",
      details: "Back after an hour.",
      images: [],
    }),
  ).toMatchObject({ ok: true });
  const dispute = await db
    .selectFrom("disputes")
    .select("id")
    .where("booking_id", "=", requestedBooking.id)
    .executeTakeFirstOrThrow();
  expect(
    await resolveDispute(operator.id, dispute.id, {
      settlement: { kind: "partial", refundCents: 2160 },
      note: "The visit was 40 % short.",
    }),
  ).toEqual({ ok: true, disputeId: dispute.id });
  return { sitter, owner, operator, disputeId: dispute.id, booking: await bookingRow(requestedBooking.id) };
}

describe("a booking's money after a settlement with a partial refund", () => {
  it("is the same everywhere: 54 € held, 21.60 € refunded, 32.40 € paid, the sitter keeps 27 € and the fee is 5.40 €", async () => {
    const { sitter, owner, operator, disputeId, booking } = await settledWithPartialRefund();
    expect(booking).toMatchObject({ payment_status: "released", refunded_cents: 2160, payment_task: null });
    // What the provider took is what every page says was paid.
    expect((await paymentRow(booking.hold_ref))?.amount_cents).toBe(3240);

    // The booking cards (/bookings): the sitter's earnings follow the refund; the owner sees the price and the refund.
    const sitterCards = await load(bookingsPage.loader, sitter.id, "/bookings");
    expect(sitterCards.bookings.map((card) => ({ as: card.as, ...card.text }))).toMatchObject([
      { as: "sitter", amount: "€27.00", refunded: "€21.60" },
    ]);
    const ownerCards = await load(bookingsPage.loader, owner.id, "/bookings");
    expect(ownerCards.bookings.map((card) => ({ as: card.as, ...card.text }))).toMatchObject([
      { as: "owner", amount: "€54.00", refunded: "€21.60" },
    ]);

    // The booking's own page, for both of its people.
    for (const who of [sitter, owner]) {
      const page = await load(problemPage.loader, who.id, `/bookings/${booking.id}/problem`, { bookingId: booking.id });
      expect(page.moneyText).toEqual({
        total: "€54.00",
        paid: "€32.40",
        refunded: "€21.60",
        sitter: "€27.00",
        fee: "€5.40",
      });
      expect(page.dispute?.refundText).toBe("€21.60");
    }

    // Notifications and emails about the outcome.
    for (const who of [sitter, owner]) {
      const notices = await load(notificationsPage.loader, who.id, "/notifications");
      const settled = notices.groups
        .flatMap((group) => group.items)
        .find((item) => item.data.kind === "disputePartlyRefunded");
      expect(settled?.text.refunded).toBe("€21.60");
    }
    const [sitterEmail] = (await emailsTo(sitter.email)).filter((email) => email.subject.includes("partial refund"));
    expect(sitterEmail!.text_body).toContain("€21.60 was refunded to the owner and €32.40 paid");
    expect(sitterEmail!.text_body).toContain("You keep €27.00 of the €32.40 paid; the platform fee is €5.40");
    const [ownerEmail] = (await emailsTo(owner.email)).filter((email) => email.subject.includes("partial refund"));
    expect(ownerEmail!.text_body).toContain("€21.60 was refunded to the owner and €32.40 paid");
    expect(ownerEmail!.text_body).not.toContain("You keep");

    // The sitter's profile: earnings and recent bookings.
    const profile = await load(profilePage.loader, sitter.id, "/profile");
    expect(profile.earnings).toMatchObject({
      heldCents: 0,
      releasedCents: 2700,
      feeCents: 540,
      bookings: [{ earningsCents: 2700, feeCents: 540 }],
    });
    expect(profile.history.map((entry) => entry.money)).toMatchObject([{ priceCents: 5400, sitterKeepsCents: 2700 }]);

    // The operator's pages.
    const record = { total: "€54.00", paid: "€32.40", refunded: "€21.60", sitter: "€27.00", fee: "€5.40" };
    expect(
      (await load(operatorDispute.loader, operator.id, `/admin/disputes/${disputeId}`, { disputeId })).moneyText,
    ).toEqual(record);
    expect(
      (await load(operatorBooking.loader, operator.id, `/admin/bookings/${booking.id}`, { bookingId: booking.id }))
        .moneyText,
    ).toEqual(record);
    const found = await load(operatorBookings.loader, operator.id, `/admin/bookings?q=${booking.id}`);
    expect(found.bookings).toMatchObject([{ id: booking.id, total: "€54.00", refunded: "€21.60" }]);
    const queue = await load(operatorDisputes.loader, operator.id, "/admin/disputes?status=resolved");
    expect(queue.disputes).toMatchObject([{ id: disputeId, total: "€54.00", refund: "€21.60" }]);
    const personPage = await load(operatorPerson.loader, operator.id, `/admin/people/${sitter.id}`, {
      userId: sitter.id,
    });
    expect(personPage.detail.bookings.map((entry) => entry.money)).toMatchObject([
      { priceCents: 5400, paidCents: 3240, refundedCents: 2160, sitterKeepsCents: 2700, platformFeeCents: 540 },
    ]);
    const figures = await load(operatorOverview.loader, operator.id, "/admin");
    expect(figures.series.feeCents.at(-1)).toBe(540);

    // The data export, for both people.
    for (const who of [sitter, owner]) {
      const exported = (await personalData(who.id)).bookings as { id: string; money: unknown }[];
      expect(exported.find((entry) => entry.id === booking.id)?.money).toEqual({
        paid_cents: 3240,
        refunded_cents: 2160,
        sitter_keeps_cents: 2700,
        platform_fee_cents: 540,
        pending: false,
      });
    }
  });
});
