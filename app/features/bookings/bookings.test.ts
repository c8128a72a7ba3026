import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { databaseEngine, db } from "~/platform/db.server";
import { clockTo, DAY, HOUR, MINUTE, resetClockAfterEach } from "~/testing/clock";
import { bookingOf, closeOpenBookingsOf, transition } from "./bookings.server";
import { requestBooking } from "./requests.server";
import { payForBooking } from "./payment-entry.server";
import { runDueBookingWork } from "./due-work.server";
import type { Actor } from "./machine";
import {
  CARDS,
  at,
  bookingRow,
  bookingsOf,
  card,
  countPayments,
  dayAhead,
  ownerWithPet,
  paymentRow,
  requestInput,
  requested,
  sitterWithSlot,
  slot,
  slotsOf,
  type Owner,
} from "~/testing/bookings";
import { emailsTo, noticesOf, notificationsOf, person, petOf, type Person } from "~/testing/people";

resetClockAfterEach();

const asOwner = (who: { id: string }): Actor => ({ kind: "owner", userId: who.id });
const asSitter = (who: { id: string }): Actor => ({ kind: "sitter", userId: who.id });

/** A rate no other test uses, so holds of its bookings can be counted by their amount (2 h × rate × 1.2). */
let nextRate = 1700;
const uniqueRate = () => (nextRate += 7);
const totalFor = (rate: number, hours: number) => rate * hours + Math.round(rate * hours * 0.2);

const captures = async (bookingId: string) =>
  (await db.selectFrom("payment_idempotency").select("key").where("key", "like", `capture:${bookingId}:%`).execute())
    .length;

/** An owner's held request for the sitter's 10:00–12:00. */
async function heldRequest(owner: Owner, sitterOf: { id: string; day: string }, startTime = "10:00", hours = 2) {
  const booking = await requested(owner, sitterOf, startTime, hours);
  expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
  return booking;
}

async function confirmedBooking(options: { rateCents?: number; daysAhead?: number } = {}) {
  const sitter = await sitterWithSlot(options);
  const owner = await ownerWithPet();
  const booking = await heldRequest(owner, sitter);
  expect((await transition(booking.id, asSitter(sitter), { type: "accept" })).ok).toBe(true);
  return { sitter, owner, booking };
}

describe("the happy path", () => {
  it("request → pay → accept → in progress → completed → released, with the slot split and everybody told", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();

    const request = await requestBooking(owner, requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2));
    expect(request.status).toBe("created");
    if (request.status !== "created") return;
    const start = at(sitter, sitter.day, "10:00");
    const end = at(sitter, sitter.day, "12:00");
    expect(request.booking).toMatchObject({
      status: "requested",
      payment_status: "unpaid",
      owner_id: owner.id,
      sitter_id: sitter.id,
      pet_id: owner.petId,
      pet_name: "Rex",
      start_at: start.toISOString(),
      end_at: end.toISOString(),
      hours: 2,
      hourly_rate_cents: 1500,
      subtotal_cents: 3000,
      fee_cents: 600,
      total_cents: 3600,
      payment_provider: "test",
    });
    const id = request.booking.id;
    // Nobody is told before the card is authorised.
    expect(await noticesOf(sitter.id)).toEqual([]);
    expect(await emailsTo(sitter.email)).toHaveLength(0);

    expect(await payForBooking(owner, id, card(), "attempt-1")).toEqual({ status: "held" });
    let booking = await bookingRow(id);
    expect(booking).toMatchObject({
      status: "requested",
      payment_status: "held",
      payment_task: null,
      card_label: "Visa •••• 4242",
      hold_due_at: null,
      payment_error: null,
    });
    expect(await paymentRow(booking.hold_ref)).toMatchObject({
      kind: "hold",
      status: "held",
      amount_cents: 3600,
      card_last4: "4242",
    });
    expect(await notificationsOf(sitter.id)).toEqual([expect.objectContaining({ type: "booking_request" })]);
    expect(await emailsTo(sitter.email)).toHaveLength(1);
    expect(await noticesOf(owner.id)).toEqual([]);

    const accepted = await transition(id, asSitter(sitter), { type: "accept" });
    expect(accepted).toMatchObject({ ok: true, booking: { status: "confirmed", payment_status: "held" } });
    expect(await noticesOf(owner.id)).toEqual(["accepted"]);
    expect(await emailsTo(owner.email)).toHaveLength(1);
    expect(await slotsOf(sitter.id)).toEqual([
      {
        start_at: at(sitter, sitter.day, "09:00").toISOString(),
        end_at: start.toISOString(),
        status: "available",
        booking_id: null,
      },
      { start_at: start.toISOString(), end_at: end.toISOString(), status: "booked", booking_id: id },
      {
        start_at: end.toISOString(),
        end_at: at(sitter, sitter.day, "17:00").toISOString(),
        status: "available",
        booking_id: null,
      },
    ]);

    // Nothing happens before the start.
    await runDueBookingWork();
    expect((await bookingRow(id)).status).toBe("confirmed");

    clockTo(start);
    await runDueBookingWork();
    expect((await bookingRow(id)).status).toBe("in-progress");

    clockTo(end);
    await runDueBookingWork();
    booking = await bookingRow(id);
    expect(booking).toMatchObject({ status: "completed", payment_status: "held" });
    expect(booking.completed_at).not.toBeNull();
    expect((await noticesOf(owner.id)).sort()).toEqual(["accepted", "completed", "started"]);

    const released = await transition(id, asOwner(owner), { type: "release" });
    expect(released).toMatchObject({
      ok: true,
      booking: { status: "completed", payment_status: "released", payment_task: null },
    });
    booking = await bookingRow(id);
    expect(booking.released_at).not.toBeNull();
    expect(await paymentRow(booking.hold_ref)).toMatchObject({ status: "captured", amount_cents: 3600 });
    expect((await noticesOf(sitter.id)).sort()).toEqual(["released", "requested"]);

    // Releasing again is refused and captures nothing more.
    expect(await transition(id, asOwner(owner), { type: "release" })).toEqual({ ok: false, refusal: "wrongState" });
    expect(await captures(id)).toBe(1);
    expect((await noticesOf(sitter.id)).filter((kind) => kind === "released")).toHaveLength(1);
  });
});

describe("paying", () => {
  it("a declined card fails without telling the sitter; another card then works", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);

    expect(await payForBooking(owner, booking.id, card(CARDS.declined), "a1")).toEqual({
      status: "failed",
      code: "card_declined",
    });
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "requested",
      payment_status: "failed",
      payment_error: "card_declined",
      card_ref: null,
      payment_task: null,
    });
    expect(await noticesOf(sitter.id)).toEqual([]);
    expect(await emailsTo(sitter.email)).toHaveLength(0);
    expect((await transition(booking.id, asSitter(sitter), { type: "accept" })).ok).toBe(false);

    expect(await payForBooking(owner, booking.id, card(CARDS.luhnInvalid), "a2")).toEqual({
      status: "failed",
      code: "incorrect_number",
    });

    expect(await payForBooking(owner, booking.id, card(), "a3")).toEqual({ status: "held" });
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "requested",
      payment_status: "held",
      payment_error: null,
    });
    expect(await noticesOf(sitter.id)).toEqual(["requested"]);
    expect(await emailsTo(sitter.email)).toHaveLength(1);
  });

  it("insufficient funds within six days fail at the hold: the card is cleared, the sitter is not told", async () => {
    const rate = uniqueRate();
    const sitter = await sitterWithSlot({ rateCents: rate });
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);

    expect(await payForBooking(owner, booking.id, card(CARDS.noFunds), "a1")).toEqual({
      status: "failed",
      code: "insufficient_funds",
    });
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "requested",
      payment_status: "failed",
      payment_error: "insufficient_funds",
      card_ref: null,
      card_label: null,
      hold_ref: null,
      payment_task: null,
    });
    expect(await countPayments("hold", totalFor(rate, 2))).toBe(0);
    expect(await noticesOf(sitter.id)).toEqual([]);
    expect(await transition(booking.id, asSitter(sitter), { type: "accept" })).toEqual({
      ok: false,
      refusal: "notPaid",
    });

    expect(await payForBooking(owner, booking.id, card(), "a2")).toEqual({ status: "held" });
    expect(await noticesOf(sitter.id)).toEqual(["requested"]);
  });

  it("nobody but the owner pays for a booking", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const stranger = await person("owner");
    const booking = await requested(owner, sitter);
    expect(await payForBooking(stranger, booking.id, card(), "a1")).toEqual({ status: "refused", refusal: "notFound" });
    expect(await payForBooking(sitter, booking.id, card(), "a1")).toEqual({ status: "refused", refusal: "notFound" });
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "unpaid", card_ref: null });
  });
});

describe("the sitter declines, the owner cancels", () => {
  it("declining cancels the request and voids the hold", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const booking = await heldRequest(owner, sitter);

    expect(await transition(booking.id, asSitter(sitter), { type: "decline" })).toMatchObject({
      ok: true,
      booking: { status: "cancelled", cancelled_by: "sitter", payment_status: "refunded", payment_task: null },
    });
    const row = await bookingRow(booking.id);
    expect(await paymentRow(row.hold_ref)).toMatchObject({ status: "voided" });
    expect(await noticesOf(owner.id)).toEqual(["declined"]);
    expect((await slotsOf(sitter.id)).map((s) => s.status)).toEqual(["available"]);
    expect(await transition(booking.id, asSitter(sitter), { type: "accept" })).toEqual({
      ok: false,
      refusal: "wrongState",
    });
  });

  it("cancelling a confirmed booking in time needs a reason, frees the slot and voids the hold", async () => {
    // Two days ahead: well before the default (flexible) policy's 24 hours, so all of it goes back.
    const { sitter, owner, booking } = await confirmedBooking({ daysAhead: 2 });
    const before = await bookingRow(booking.id);

    for (const reason of ["", "   "])
      expect(await transition(booking.id, asOwner(owner), { type: "cancel", reason })).toEqual({
        ok: false,
        refusal: "reasonRequired",
      });
    expect(await transition(booking.id, asOwner(owner), { type: "cancel", reason: "x".repeat(501) })).toEqual({
      ok: false,
      refusal: "reasonTooLong",
    });
    expect(await transition(booking.id, asSitter(sitter), { type: "cancel", reason: "I'm the sitter" })).toEqual({
      ok: false,
      refusal: "notYours",
    });
    expect(await bookingRow(booking.id)).toEqual(before);
    expect((await slotsOf(sitter.id)).filter((s) => s.status === "booked")).toHaveLength(1);

    const cancelled = await transition(booking.id, asOwner(owner), { type: "cancel", reason: " Plans changed " });
    expect(cancelled).toMatchObject({
      ok: true,
      booking: {
        status: "cancelled",
        cancelled_by: "owner",
        cancel_reason: "Plans changed",
        payment_status: "refunded",
      },
    });
    expect(await paymentRow(before.hold_ref)).toMatchObject({ status: "voided" });
    expect((await slotsOf(sitter.id)).every((s) => s.status === "available" && s.booking_id === null)).toBe(true);
    expect((await noticesOf(sitter.id)).sort()).toEqual(["cancelledByOwner", "requested"]);
    // The freed time can be booked again.
    const again = await ownerWithPet();
    expect((await requestBooking(again, requestInput(sitter.id, again.petId, sitter.day, "10:00", 2))).status).toBe(
      "created",
    );
  });

  it("after a cancellation the sitter's day is whole again: a request across the freed time fits", async () => {
    const { sitter, owner, booking } = await confirmedBooking();
    expect((await transition(booking.id, asOwner(owner), { type: "cancel", reason: "Plans changed" })).ok).toBe(true);
    // 09:30–12:30 was inside the 09:00–17:00 the sitter published, and nothing is booked any more.
    const other = await ownerWithPet();
    expect(await requestBooking(other, requestInput(sitter.id, other.petId, sitter.day, "09:30", 3))).toMatchObject({
      status: "created",
    });
  });

  it("cancelling is refused once the booking has started", async () => {
    const { owner, booking } = await confirmedBooking();
    clockTo(booking.start_at);
    expect(await transition(booking.id, asOwner(owner), { type: "cancel", reason: "Too late" })).toEqual({
      ok: false,
      refusal: "alreadyStarted",
    });
    await runDueBookingWork();
    expect(await transition(booking.id, asOwner(owner), { type: "cancel", reason: "Too late" })).toEqual({
      ok: false,
      refusal: "wrongState",
    });
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "in-progress",
      payment_status: "held",
      cancel_reason: null,
    });
  });
});

describe("a closed account", () => {
  it("ends the person's open bookings on both sides, gives every hold back and tells the other people once", async () => {
    const { sitter, owner, booking: confirmedOne } = await confirmedBooking();
    const otherOwner = await ownerWithPet();
    const waiting = await heldRequest(otherOwner, sitter, "14:00", 2);
    const finished = await confirmedBooking();

    const closed = await closeOpenBookingsOf(sitter.id, "suspended");
    expect(closed.sort()).toEqual([confirmedOne.id, waiting.id].sort());
    for (const id of closed) {
      const row = await bookingRow(id);
      expect(row).toMatchObject({
        status: "cancelled",
        cancelled_by: "system",
        cancel_reason: "accountClosed",
        payment_status: "refunded",
        payment_task: null,
      });
      expect(await paymentRow(row.hold_ref)).toMatchObject({ status: "voided" });
    }
    expect((await noticesOf(owner.id)).filter((kind) => kind === "accountClosed")).toHaveLength(1);
    expect((await noticesOf(otherOwner.id)).filter((kind) => kind === "accountClosed")).toHaveLength(1);
    expect(await noticesOf(sitter.id)).not.toContain("accountClosed");
    expect((await slotsOf(sitter.id)).every((s) => s.status === "available")).toBe(true);
    // Someone else's booking is untouched, and a second run finds nothing left to close.
    expect(await bookingRow(finished.booking.id)).toMatchObject({ status: "confirmed", payment_status: "held" });
    expect(await closeOpenBookingsOf(sitter.id, "suspended")).toEqual([]);
  });

  it("leaves a completed booking's payment to the release or a dispute", async () => {
    const { sitter, owner, booking } = await confirmedBooking();
    clockTo(booking.end_at);
    await runDueBookingWork();
    expect(await closeOpenBookingsOf(owner.id, "deleted")).toEqual([]);
    expect(await bookingRow(booking.id)).toMatchObject({ status: "completed", payment_status: "held" });
    expect(await noticesOf(sitter.id)).not.toContain("accountClosed");
  });
});

describe("time passing", () => {
  it("releases the payment automatically 72 hours after completion, not before", async () => {
    const { sitter, booking } = await confirmedBooking();
    clockTo(booking.end_at);
    await runDueBookingWork();
    const completed = await bookingRow(booking.id);
    expect(completed).toMatchObject({ status: "completed", payment_status: "held" });

    clockTo(completed.completed_at!, 72 * HOUR - MINUTE);
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "held", released_at: null });
    expect(await captures(booking.id)).toBe(0);

    clockTo(completed.completed_at!, 72 * HOUR);
    await runDueBookingWork();
    const released = await bookingRow(booking.id);
    expect(released).toMatchObject({ payment_status: "released", payment_task: null });
    expect(await paymentRow(released.hold_ref)).toMatchObject({ status: "captured" });
    expect((await noticesOf(sitter.id)).sort()).toEqual(["released", "requested"]);
  });

  it("ten days ahead: the card is kept, the sitter told and able to accept, the hold placed two days before", async () => {
    const rate = uniqueRate();
    const sitter = await sitterWithSlot({ daysAhead: 10, rateCents: rate });
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    const holdDue = new Date(new Date(booking.start_at).getTime() - 2 * DAY).toISOString();

    expect(await payForBooking(owner, booking.id, card(), "a1")).toEqual({ status: "card-saved" });
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "requested",
      payment_status: "unpaid",
      hold_due_at: holdDue,
      card_label: "Visa •••• 4242",
      hold_ref: null,
      payment_task: null,
    });
    expect(await countPayments("hold", totalFor(rate, 2))).toBe(0);
    expect(await noticesOf(sitter.id)).toEqual(["requested"]);
    expect(await emailsTo(sitter.email)).toHaveLength(1);

    expect(await transition(booking.id, asSitter(sitter), { type: "accept" })).toMatchObject({
      ok: true,
      booking: { status: "confirmed", payment_status: "unpaid" },
    });

    clockTo(holdDue, -MINUTE);
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "unpaid", hold_ref: null });

    clockTo(holdDue);
    await runDueBookingWork();
    const heldRow = await bookingRow(booking.id);
    expect(heldRow).toMatchObject({
      status: "confirmed",
      payment_status: "held",
      hold_due_at: null,
      payment_task: null,
    });
    expect(await paymentRow(heldRow.hold_ref)).toMatchObject({ status: "held", amount_cents: totalFor(rate, 2) });
    expect(await countPayments("hold", totalFor(rate, 2))).toBe(1);
    // The sitter heard about the request once.
    expect(await noticesOf(sitter.id)).toEqual(["requested"]);
  });

  it("ten days ahead with insufficient funds: the system cancels when the hold fails, both are told, the slot is freed", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 10 });
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    expect(await payForBooking(owner, booking.id, card(CARDS.noFunds), "a1")).toEqual({ status: "card-saved" });
    expect((await transition(booking.id, asSitter(sitter), { type: "accept" })).ok).toBe(true);
    expect((await slotsOf(sitter.id)).filter((s) => s.status === "booked")).toHaveLength(1);

    clockTo((await bookingRow(booking.id)).hold_due_at!);
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "cancelled",
      cancelled_by: "system",
      cancel_reason: "payment",
      payment_status: "failed",
      payment_error: "insufficient_funds",
      payment_task: null,
    });
    expect((await noticesOf(owner.id)).sort()).toEqual(["accepted", "holdFailed"]);
    expect((await noticesOf(sitter.id)).sort()).toEqual(["cancelledPayment", "requested"]);
    expect((await slotsOf(sitter.id)).every((s) => s.status === "available" && s.booking_id === null)).toBe(true);
  });

  it("an unpaid request lapses 15 minutes after it was made; an authorised one does not", async () => {
    const sitter = await sitterWithSlot();
    const unpaidOwner = await ownerWithPet();
    const paidOwner = await ownerWithPet();
    const unpaid = await requested(unpaidOwner, sitter);
    const paid = await heldRequest(paidOwner, sitter);
    const farSitter = await sitterWithSlot({ daysAhead: 10 });
    const farOwner = await ownerWithPet();
    const far = await requested(farOwner, farSitter);
    expect(await payForBooking(farOwner, far.id, card(), "a1")).toEqual({ status: "card-saved" });

    clockTo(unpaid.created_at, 14 * MINUTE);
    await runDueBookingWork();
    expect((await bookingRow(unpaid.id)).status).toBe("requested");

    clockTo(unpaid.created_at, 15 * MINUTE);
    await runDueBookingWork();
    expect(await bookingRow(unpaid.id)).toMatchObject({
      status: "cancelled",
      cancelled_by: "system",
      cancel_reason: "expired",
    });
    expect(await noticesOf(unpaidOwner.id)).toEqual(["expired"]);
    expect(await bookingRow(paid.id)).toMatchObject({ status: "requested", payment_status: "held" });
    expect(await bookingRow(far.id)).toMatchObject({ status: "requested", payment_status: "unpaid" });
    expect(await payForBooking(unpaidOwner, unpaid.id, card(), "late")).toEqual({
      status: "refused",
      refusal: "wrongState",
    });
  });

  it("a paid request the sitter never answers does not keep the owner's money once its time has passed", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const booking = await heldRequest(owner, sitter);
    clockTo(booking.end_at, HOUR);
    await runDueBookingWork();
    // The request lapsed at its start and the hold was given back; nobody can act on it any more.
    const row = await bookingRow(booking.id);
    expect(row).toMatchObject({
      status: "cancelled",
      cancel_reason: "unanswered",
      payment_status: "refunded",
      payment_task: null,
    });
    expect(await transition(booking.id, asSitter(sitter), { type: "accept" })).toEqual({
      ok: false,
      refusal: "wrongState",
    });
    expect(await transition(booking.id, asOwner(owner), { type: "cancel", reason: "No answer" })).toMatchObject({
      ok: false,
    });
    expect(await noticesOf(owner.id)).toContain("unanswered");
    expect(await paymentRow(row.hold_ref)).toMatchObject({ status: "voided" });
  });
});

describe("refusals change nothing", () => {
  it("requests to oneself, with someone else's pet, to nobody, in the past or outside the sitter's time", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const strangersPet = await petOf((await person("owner")).id);
    const both = await person("both");
    const bothPet = await petOf(both.id);
    await slot(both.id, at(both, sitter.day, "09:00"), at(both, sitter.day, "17:00"));
    const unverified = await person("sitter", { verified: false });
    const noRate = await person("sitter", { rateCents: null });
    const anOwner = await person("owner");
    for (const who of [unverified, noRate, anOwner])
      await slot(who.id, at(who, sitter.day, "09:00"), at(who, sitter.day, "17:00"));

    const ask = (who: Person, sitterId: string, petId: string, day: string, time: string, hours = 2) =>
      requestBooking(who, requestInput(sitterId, petId, day, time, hours));
    expect(await ask(both, both.id, bothPet, sitter.day, "10:00")).toEqual({ status: "refused", reason: "self" });
    expect(await ask(owner, sitter.id, strangersPet, sitter.day, "10:00")).toEqual({
      status: "refused",
      reason: "petNotFound",
    });
    expect(await ask(owner, sitter.id, randomUUID(), sitter.day, "10:00")).toEqual({
      status: "refused",
      reason: "petNotFound",
    });
    for (const target of [randomUUID(), unverified.id, noRate.id, anOwner.id])
      expect(await ask(owner, target, owner.petId, sitter.day, "10:00")).toEqual({
        status: "refused",
        reason: "sitterNotFound",
      });
    expect(await ask(owner, sitter.id, owner.petId, dayAhead(sitter.time_zone, -1), "10:00")).toEqual({
      status: "refused",
      reason: "past",
    });
    expect(await ask(owner, sitter.id, owner.petId, sitter.day, "08:00")).toEqual({
      status: "refused",
      reason: "outsideAvailability",
    });
    expect(await ask(owner, sitter.id, owner.petId, sitter.day, "16:00")).toEqual({
      status: "refused",
      reason: "outsideAvailability",
    });
    expect(await ask(owner, sitter.id, owner.petId, sitter.day, "17:00", 1)).toEqual({
      status: "refused",
      reason: "outsideAvailability",
    });
    expect(await ask(owner, sitter.id, owner.petId, dayAhead(sitter.time_zone, 2), "10:00")).toEqual({
      status: "refused",
      reason: "outsideAvailability",
    });
    expect(await bookingsOf(owner.id)).toHaveLength(0);
    expect(await bookingsOf(both.id)).toHaveLength(0);

    // The edges of the slot are inside it.
    expect((await ask(owner, sitter.id, owner.petId, sitter.day, "15:00")).status).toBe("created");
    expect((await ask(owner, sitter.id, owner.petId, sitter.day, "09:00")).status).toBe("created");
    // A 'both' user books another sitter with their own pet.
    expect((await ask(both, sitter.id, bothPet, sitter.day, "11:00")).status).toBe("created");
  });

  it("time already booked is outside the sitter's availability", async () => {
    const { sitter } = await confirmedBooking();
    const other = await ownerWithPet();
    expect(await requestBooking(other, requestInput(sitter.id, other.petId, sitter.day, "11:00", 2))).toEqual({
      status: "refused",
      reason: "outsideAvailability",
    });
    expect(await requestBooking(other, requestInput(sitter.id, other.petId, sitter.day, "10:00", 1))).toEqual({
      status: "refused",
      reason: "outsideAvailability",
    });
    expect((await requestBooking(other, requestInput(sitter.id, other.petId, sitter.day, "12:00", 2))).status).toBe(
      "created",
    );
  });

  it("forged ids: someone else's booking looks as if it did not exist", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const booking = await heldRequest(owner, sitter);
    const before = await bookingRow(booking.id);
    const strangerOwner = await person("owner");
    const strangerSitter = await person("sitter");

    expect(await transition(booking.id, asOwner(strangerOwner), { type: "cancel", reason: "mine now" })).toEqual({
      ok: false,
      refusal: "notFound",
    });
    expect(await transition(booking.id, asSitter(strangerSitter), { type: "accept" })).toEqual({
      ok: false,
      refusal: "notFound",
    });
    expect(await transition(booking.id, asSitter(strangerSitter), { type: "decline" })).toEqual({
      ok: false,
      refusal: "notFound",
    });
    expect(await transition(randomUUID(), asSitter(sitter), { type: "accept" })).toEqual({
      ok: false,
      refusal: "notFound",
    });
    // The owner claiming to be the sitter of their own booking is not the sitter.
    expect(await transition(booking.id, { kind: "sitter", userId: owner.id }, { type: "accept" })).toEqual({
      ok: false,
      refusal: "notYours",
    });
    expect(await bookingOf(strangerOwner.id, booking.id)).toBeUndefined();
    expect(await bookingOf(owner.id, booking.id)).toMatchObject({ id: booking.id });
    expect(await bookingOf(sitter.id, booking.id)).toMatchObject({ id: booking.id });
    expect(await bookingRow(booking.id)).toEqual(before);
    expect(await noticesOf(owner.id)).toEqual([]);
  });

  it("accepting time that is no longer available is refused and changes nothing", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const booking = await heldRequest(owner, sitter);
    await db.deleteFrom("availability_slots").where("id", "=", sitter.slotId).execute();
    const before = await bookingRow(booking.id);
    expect(await transition(booking.id, asSitter(sitter), { type: "accept" })).toEqual({
      ok: false,
      refusal: "slotTaken",
    });
    expect(await bookingRow(booking.id)).toEqual(before);
    expect(await noticesOf(owner.id)).toEqual([]);
  });

  it("the sitter cannot accept a request that is not paid for", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    expect(await transition(booking.id, asSitter(sitter), { type: "accept" })).toEqual({
      ok: false,
      refusal: "notPaid",
    });
    expect(await bookingRow(booking.id)).toMatchObject({ status: "requested", confirmed_at: null });
    expect((await slotsOf(sitter.id)).map((s) => s.status)).toEqual(["available"]);
    expect(await noticesOf(owner.id)).toEqual([]);
  });
});

describe("double submissions", () => {
  it("the same request sent twice makes one booking; someone else reusing the id gets nothing", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const input = requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2);
    const [first, second] = await Promise.all([requestBooking(owner, input), requestBooking(owner, input)]);
    expect(first.status).toBe("created");
    expect(second.status).toBe("created");
    const third = await requestBooking(owner, input);
    expect(third).toMatchObject({ status: "created", booking: { id: input.id } });
    expect(await bookingsOf(owner.id)).toHaveLength(1);

    const other = await ownerWithPet();
    expect(await requestBooking(other, { ...input, petIds: [other.petId] })).toEqual({
      status: "refused",
      reason: "duplicate",
    });
    expect(await bookingsOf(other.id)).toHaveLength(0);
  });

  it("paying twice with the same attempt, one after the other: one card saved and one hold", async () => {
    const rate = uniqueRate();
    const sitter = await sitterWithSlot({ rateCents: rate });
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    const cardsBefore = await countPayments("card");
    expect(await payForBooking(owner, booking.id, card(), "same")).toEqual({ status: "held" });
    expect(await payForBooking(owner, booking.id, card(), "same")).toEqual({ status: "held" });
    expect((await countPayments("card")) - cardsBefore).toBe(1);
    expect(await countPayments("hold", totalFor(rate, 2))).toBe(1);
    expect(await noticesOf(sitter.id)).toEqual(["requested"]);
  });

  it("paying twice with the same attempt at the same moment: one card saved and one hold", async () => {
    const rate = uniqueRate();
    const sitter = await sitterWithSlot({ rateCents: rate });
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    const cardsBefore = await countPayments("card");
    const outcomes = await Promise.all([
      payForBooking(owner, booking.id, card(), "same"),
      payForBooking(owner, booking.id, card(), "same"),
    ]);
    expect(outcomes.every((outcome) => outcome.status !== "failed")).toBe(true);
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "held", payment_task: null });
    expect(await countPayments("hold", totalFor(rate, 2))).toBe(1);
    expect(await noticesOf(sitter.id)).toEqual(["requested"]);
    expect((await countPayments("card")) - cardsBefore).toBe(1);
  });

  it("paying twice for a booking far ahead tells the sitter once", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 10 });
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    const cardsBefore = await countPayments("card");
    expect(await payForBooking(owner, booking.id, card(), "same")).toEqual({ status: "card-saved" });
    expect(await payForBooking(owner, booking.id, card(), "same")).toEqual({ status: "card-saved" });
    expect((await countPayments("card")) - cardsBefore).toBe(1);
    expect(await noticesOf(sitter.id)).toEqual(["requested"]);
    expect(await emailsTo(sitter.email)).toHaveLength(1);
  });

  it("a declined retry for a booking far ahead keeps the card already saved", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 10 });
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    expect(await payForBooking(owner, booking.id, card(), "first")).toEqual({ status: "card-saved" });
    const kept = await bookingRow(booking.id);
    // Already authorised: a second payment (a forged or replayed post) changes nothing, whatever the card.
    expect(await payForBooking(owner, booking.id, card(CARDS.declined), "second")).toEqual({ status: "card-saved" });
    expect(await bookingRow(booking.id)).toMatchObject({
      payment_status: "unpaid",
      card_ref: kept.card_ref,
      hold_due_at: kept.hold_due_at,
    });
    expect(await transition(booking.id, asSitter(sitter), { type: "accept" })).toMatchObject({
      ok: true,
      booking: { status: "confirmed" },
    });
  });

  it("accepting twice at once confirms once and splits the slot once", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const booking = await heldRequest(owner, sitter);
    const results = await Promise.all([
      transition(booking.id, asSitter(sitter), { type: "accept" }),
      transition(booking.id, asSitter(sitter), { type: "accept" }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, refusal: "wrongState" }]);
    expect((await bookingRow(booking.id)).status).toBe("confirmed");
    expect((await slotsOf(sitter.id)).map((s) => s.status)).toEqual(["available", "booked", "available"]);
    expect(await noticesOf(owner.id)).toEqual(["accepted"]);
  });

  it("releasing twice at once captures once", async () => {
    const { sitter, owner, booking } = await confirmedBooking();
    clockTo(booking.end_at);
    await runDueBookingWork();
    const results = await Promise.all([
      transition(booking.id, asOwner(owner), { type: "release" }),
      transition(booking.id, asOwner(owner), { type: "release" }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    const row = await bookingRow(booking.id);
    expect(row).toMatchObject({ payment_status: "released", payment_task: null });
    expect(await paymentRow(row.hold_ref)).toMatchObject({ status: "captured" });
    expect(await captures(booking.id)).toBe(1);
    expect((await noticesOf(sitter.id)).filter((kind) => kind === "released")).toHaveLength(1);
  });
});

describe("concurrency", () => {
  it("50 owners want the same two hours; the sitter accepts them all at once: one confirmed, 49 cancelled and refunded", async () => {
    const rate = uniqueRate();
    const sitter = await sitterWithSlot({ rateCents: rate });
    const owners = await Promise.all(Array.from({ length: 50 }, () => ownerWithPet()));
    const bookings = await Promise.all(owners.map((owner) => heldRequest(owner, sitter)));
    expect(await countPayments("hold", totalFor(rate, 2))).toBe(50);
    expect(await noticesOf(sitter.id)).toHaveLength(50);

    const results = await Promise.all(
      bookings.map((booking) => transition(booking.id, asSitter(sitter), { type: "accept" })),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    for (const result of results) if (!result.ok) expect(["wrongState", "slotTaken"]).toContain(result.refusal);

    const rows = await db.selectFrom("bookings").selectAll().where("sitter_id", "=", sitter.id).execute();
    const confirmed = rows.filter((row) => row.status === "confirmed");
    const cancelled = rows.filter((row) => row.status === "cancelled");
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0]).toMatchObject({ payment_status: "held" });
    expect(cancelled).toHaveLength(49);
    for (const row of cancelled) {
      expect(row).toMatchObject({
        cancelled_by: "system",
        cancel_reason: "slotTaken",
        payment_status: "refunded",
        payment_task: null,
      });
      expect(await paymentRow(row.hold_ref)).toMatchObject({ status: "voided" });
    }
    expect(await paymentRow(confirmed[0]!.hold_ref)).toMatchObject({ status: "held" });
    const slots = await slotsOf(sitter.id);
    expect(slots.filter((s) => s.status === "booked")).toEqual([
      expect.objectContaining({ booking_id: confirmed[0]!.id }),
    ]);
    expect(slots).toHaveLength(3);

    for (const [index, owner] of owners.entries()) {
      expect(await noticesOf(owner.id), `owner ${index}`).toEqual([
        bookings[index]!.id === confirmed[0]!.id ? "accepted" : "slotTaken",
      ]);
    }
  });

  it("accepting one request cancels only the requests that overlap it", async () => {
    const sitter = await sitterWithSlot();
    const [a, b, c] = await Promise.all([ownerWithPet(), ownerWithPet(), ownerWithPet()]);
    const tenToTwelve = await heldRequest(a, sitter, "10:00", 2);
    const elevenToOne = await heldRequest(b, sitter, "11:00", 2);
    const twelveToTwo = await heldRequest(c, sitter, "12:00", 2);
    expect((await transition(tenToTwelve.id, asSitter(sitter), { type: "accept" })).ok).toBe(true);
    expect(await bookingRow(elevenToOne.id)).toMatchObject({
      status: "cancelled",
      cancel_reason: "slotTaken",
      payment_status: "refunded",
    });
    expect(await bookingRow(twelveToTwo.id)).toMatchObject({ status: "requested", payment_status: "held" });
    expect(await transition(twelveToTwo.id, asSitter(sitter), { type: "accept" })).toMatchObject({
      ok: true,
      booking: { status: "confirmed" },
    });
    expect((await slotsOf(sitter.id)).map((s) => s.status)).toEqual(["available", "booked", "booked", "available"]);
  });

  it.runIf(databaseEngine === "postgres")(
    "a second confirmed booking over the same hours is refused by the database itself, whatever writes it",
    async () => {
      const sitter = await sitterWithSlot();
      const [a, b] = await Promise.all([ownerWithPet(), ownerWithPet()]);
      const tenToTwelve = await heldRequest(a, sitter, "10:00", 2);
      const elevenToOne = await heldRequest(b, sitter, "11:00", 2);
      expect((await transition(tenToTwelve.id, asSitter(sitter), { type: "accept" })).ok).toBe(true);
      // Past every check of the booking machine: the exclusion constraint still refuses it.
      const forced = db
        .updateTable("bookings")
        .set({ status: "confirmed", cancel_reason: null })
        .where("id", "=", elevenToOne.id)
        .execute();
      await expect(forced).rejects.toMatchObject({ code: "23P01" });
      expect(await bookingRow(elevenToOne.id)).toMatchObject({ status: "cancelled" });
    },
  );

  it("two schedulers running at once change each booking once", async () => {
    const rate = uniqueRate();
    // Due to start (and finish) soon; unpaid and lapsing; far ahead with a card kept and the hold due.
    const { sitter: sitterA, owner: ownerA, booking: near } = await confirmedBooking({ rateCents: rate });
    const sitterB = await sitterWithSlot();
    const ownerB = await ownerWithPet();
    const unpaid = await requested(ownerB, sitterB);
    const sitterC = await sitterWithSlot({ daysAhead: 10, rateCents: rate + 1 });
    const ownerC = await ownerWithPet();
    const far = await requested(ownerC, sitterC);
    expect(await payForBooking(ownerC, far.id, card(), "a1")).toEqual({ status: "card-saved" });
    expect((await transition(far.id, asSitter(sitterC), { type: "accept" })).ok).toBe(true);

    clockTo((await bookingRow(far.id)).hold_due_at!);
    await Promise.all([runDueBookingWork(), runDueBookingWork()]);
    expect(await bookingRow(near.id)).toMatchObject({ status: "completed", payment_status: "held" });
    expect(await bookingRow(unpaid.id)).toMatchObject({ status: "cancelled", cancel_reason: "expired" });
    expect(await bookingRow(far.id)).toMatchObject({ status: "confirmed", payment_status: "held", payment_task: null });
    expect((await noticesOf(ownerA.id)).sort()).toEqual(["accepted", "completed", "started"]);
    expect(await noticesOf(ownerB.id)).toEqual(["expired"]);
    expect(await noticesOf(ownerC.id)).toEqual(["accepted"]);
    expect(await countPayments("hold", totalFor(rate + 1, 2))).toBe(1);

    const completedAt = (await bookingRow(near.id)).completed_at!;
    clockTo(completedAt, 72 * HOUR);
    await Promise.all([runDueBookingWork(), runDueBookingWork()]);
    expect(await bookingRow(near.id)).toMatchObject({ payment_status: "released", payment_task: null });
    expect(await captures(near.id)).toBe(1);
    expect((await noticesOf(sitterA.id)).sort()).toEqual(["released", "requested"]);
    expect((await noticesOf(ownerC.id)).sort()).toEqual(["accepted", "completed", "started"]);
    expect(await emailsTo(ownerB.email)).toHaveLength(1);
  });
});
