import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { earningsOf, payForBooking, runDueBookingWork, transition } from "~/features/bookings/index.server";
import { clockTo, HOUR, MINUTE, resetClockAfterEach } from "~/testing/clock";
import { bookingRow, card, ownerWithPet, paymentRow, requested, sitterWithSlot } from "~/testing/bookings";
import { emailsTo, noticesOf, person } from "~/testing/people";
import { sitterCancellations } from "~/features/reviews/index.server";
import { addPost, reportProblem, resolveDispute } from "./disputes.server";
import { bookingForOperator, findBookings, refundBooking } from "./operator-bookings.server";
import { disputeQueue, problemPage } from "./views.server";

resetClockAfterEach();

const photo = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .toBuffer();

/** A booking of 2 h at 15 €/h (36 € with the fee), held, accepted and completed at its end. */
async function completedBooking() {
  const sitter = await sitterWithSlot();
  const owner = await ownerWithPet();
  const booking = await requested(owner, sitter);
  expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
  expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
  clockTo(booking.end_at);
  await runDueBookingWork();
  const row = await bookingRow(booking.id);
  expect(row).toMatchObject({ status: "completed", payment_status: "held", total_cents: 3600 });
  return { sitter, owner, booking: row };
}

const operator = () => person("owner", { columns: { is_admin: 1 } });
const disputeOf = (bookingId: string) =>
  db.selectFrom("disputes").selectAll().where("booking_id", "=", bookingId).executeTakeFirstOrThrow();
const historyOf = async (bookingId: string) =>
  (
    await db
      .selectFrom("booking_history")
      .select(["event", "actor_kind"])
      .where("booking_id", "=", bookingId)
      .orderBy("id")
      .execute()
  ).map((row) => `${row.event}:${row.actor_kind}`);

describe("an owner reports a problem", () => {
  it("pauses the automatic release, tells the sitter and the operators, and opens a thread both sides add to", async () => {
    const admin = await operator();
    const { sitter, owner, booking } = await completedBooking();
    const reported = await reportProblem(owner.id, booking.id, {
      reason: "shortVisit",
      details: "Back after 20 minutes.",
      images: [await photo()],
    });
    expect(reported).toMatchObject({ ok: true });
    expect(await bookingRow(booking.id)).toMatchObject({
      problem_reported_at: expect.any(String),
      problem_resolved_at: null,
      payment_status: "held",
    });
    expect(await noticesOf(sitter.id)).toContain("problemReported");
    expect((await emailsTo(sitter.email)).length).toBeGreaterThan(0);
    expect(await noticesOf(admin.id)).toContain("disputeOpened");

    // The 72 hours pass: the payment stays held while the problem is open.
    clockTo(booking.completed_at!, 72 * HOUR + MINUTE);
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "held", payment_task: null });
    expect(await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "release" })).toEqual({
      ok: false,
      refusal: "inDispute",
    });

    expect(
      await addPost(sitter.id, booking.id, { body: "I stayed the whole hour.", images: [await photo()] }),
    ).toMatchObject({ ok: true });
    const page = (await problemPage(owner.id, booking.id))!;
    expect(page.posts.map((post) => [post.side, post.body, post.photos.length])).toEqual([
      ["owner", "Back after 20 minutes.", 1],
      ["sitter", "I stayed the whole hour.", 1],
    ]);
    expect(page.can).toEqual({ report: false, post: true });
    expect(await noticesOf(owner.id)).toContain("disputePost");
  });

  it("refuses a second report, someone else's booking, the sitter, and a report after the release or the 72 hours, changing nothing", async () => {
    const { sitter, owner, booking } = await completedBooking();
    const stranger = await ownerWithPet();
    expect(await reportProblem(stranger.id, booking.id, { reason: "other", details: "x", images: [] })).toEqual({
      ok: false,
      notFound: true,
    });
    expect(await reportProblem(sitter.id, booking.id, { reason: "other", details: "x", images: [] })).toEqual({
      ok: false,
      notFound: true,
    });
    expect(await reportProblem(owner.id, randomUUID(), { reason: "other", details: "x", images: [] })).toEqual({
      ok: false,
      notFound: true,
    });
    expect(await reportProblem(owner.id, booking.id, { reason: "other", details: "first", images: [] })).toMatchObject({
      ok: true,
    });
    expect(await reportProblem(owner.id, booking.id, { reason: "other", details: "again", images: [] })).toEqual({
      ok: false,
      message: "disputes:refusals.alreadyReported",
    });
    expect(await addPost(stranger.id, booking.id, { body: "hello", images: [] })).toEqual({
      ok: false,
      notFound: true,
    });
    expect(await db.selectFrom("disputes").select("id").where("booking_id", "=", booking.id).execute()).toHaveLength(1);

    const released = await completedBooking();
    expect(
      (await transition(released.booking.id, { kind: "owner", userId: released.owner.id }, { type: "release" })).ok,
    ).toBe(true);
    expect(
      await reportProblem(released.owner.id, released.booking.id, { reason: "other", details: "late", images: [] }),
    ).toEqual({ ok: false, message: "disputes:refusals.alreadyReleased" });

    const late = await completedBooking();
    clockTo(late.booking.completed_at!, 72 * HOUR);
    expect(
      await reportProblem(late.owner.id, late.booking.id, { reason: "other", details: "late", images: [] }),
    ).toEqual({ ok: false, message: "disputes:refusals.tooLate" });
    expect(
      await db
        .selectFrom("disputes")
        .select("id")
        .where("booking_id", "in", [released.booking.id, late.booking.id])
        .execute(),
    ).toEqual([]);
  });

  it("a photo that is not an image is refused before anything is written", async () => {
    const { owner, booking } = await completedBooking();
    expect(
      await reportProblem(owner.id, booking.id, {
        reason: "damage",
        details: "Broken vase",
        images: [Buffer.from("<svg onload=alert(1)>")],
      }),
    ).toEqual({
      ok: false,
      message: "disputes:errors.photoInvalid",
    });
    expect(await bookingRow(booking.id)).toMatchObject({ problem_reported_at: null });
  });
});

describe("the operator settles a dispute", () => {
  it("a 40 % refund: the provider captures 60 %, the owner gets the rest back, the sitter keeps 18 € and the fee is 3.60 €; both told, audited", async () => {
    const admin = await operator();
    const { sitter, owner, booking } = await completedBooking();
    await reportProblem(owner.id, booking.id, { reason: "shortVisit", details: "Too short", images: [] });
    const dispute = await disputeOf(booking.id);
    expect((await disputeQueue("open", 1)).disputes.map((row) => row.id)).toContain(dispute.id);

    expect(
      await resolveDispute(admin.id, dispute.id, {
        settlement: { kind: "partial", refundCents: 1440 },
        note: "The visit was 40 % short.",
      }),
    ).toEqual({ ok: true, disputeId: dispute.id });
    const settled = await bookingRow(booking.id);
    expect(settled).toMatchObject({
      payment_status: "released",
      payment_task: null,
      capture_cents: 2160,
      refunded_cents: 1440,
      problem_resolved_at: expect.any(String),
    });
    expect(await paymentRow(settled.hold_ref)).toMatchObject({ status: "captured", amount_cents: 2160 });
    expect(
      await db
        .selectFrom("payment_idempotency")
        .select("key")
        .where("key", "like", `capture:${booking.id}:%`)
        .execute(),
    ).toHaveLength(1);
    expect(await earningsOf(sitter.id)).toMatchObject({ releasedCents: 1800, feeCents: 360 });
    expect(await disputeOf(booking.id)).toMatchObject({
      status: "resolved",
      outcome: "partial",
      refund_cents: 1440,
      resolved_by: admin.id,
    });
    expect(await noticesOf(owner.id)).toContain("disputePartlyRefunded");
    expect(await noticesOf(sitter.id)).toContain("disputePartlyRefunded");
    const audit = await db.selectFrom("audit_log").selectAll().where("subject_id", "=", dispute.id).execute();
    expect(audit).toMatchObject([
      { operator_id: admin.id, action: "dispute.resolve", reason: "The visit was 40 % short." },
    ]);
    expect(await historyOf(booking.id)).toEqual(
      expect.arrayContaining(["report-problem:owner", "resolve-dispute:operator", "captured:system"]),
    );
    const record = (await bookingForOperator(booking.id))!;
    expect(record.money).toMatchObject({
      priceCents: 3600,
      paidCents: 2160,
      refundedCents: 1440,
      sitterKeepsCents: 1800,
      platformFeeCents: 360,
    });

    // A second settlement, and words after it, change nothing.
    expect(await resolveDispute(admin.id, dispute.id, { settlement: { kind: "refund" }, note: "again" })).toEqual({
      ok: false,
      message: "disputes:refusals.noOpenDispute",
    });
    expect(await addPost(owner.id, booking.id, { body: "one more thing", images: [] })).toEqual({
      ok: false,
      message: "disputes:refusals.closed",
    });
    expect(await resolveDispute(admin.id, randomUUID(), { settlement: { kind: "refund" }, note: "x" })).toEqual({
      ok: false,
      notFound: true,
    });
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "released", refunded_cents: 1440 });
  });

  it("a full refund gives the whole hold back; a release in full captures it all", async () => {
    const admin = await operator();
    const refunded = await completedBooking();
    await reportProblem(refunded.owner.id, refunded.booking.id, {
      reason: "noShow",
      details: "Nobody came",
      images: [],
    });
    await resolveDispute(admin.id, (await disputeOf(refunded.booking.id)).id, {
      settlement: { kind: "refund" },
      note: "No-show confirmed",
    });
    expect(await bookingRow(refunded.booking.id)).toMatchObject({ payment_status: "refunded", payment_task: null });
    expect(await paymentRow(refunded.booking.hold_ref)).toMatchObject({ status: "voided" });
    expect(await disputeOf(refunded.booking.id)).toMatchObject({ outcome: "refund", refund_cents: 3600 });

    const released = await completedBooking();
    await reportProblem(released.owner.id, released.booking.id, { reason: "other", details: "Hm", images: [] });
    await resolveDispute(admin.id, (await disputeOf(released.booking.id)).id, {
      settlement: { kind: "release" },
      note: "Visit was fine",
    });
    expect(await bookingRow(released.booking.id)).toMatchObject({ payment_status: "released", refunded_cents: 0 });
    expect(await paymentRow(released.booking.hold_ref)).toMatchObject({ status: "captured", amount_cents: 3600 });
  });
});

describe("the operator refunds a released payment", () => {
  it("in parts, never above what was paid, each audited", async () => {
    const admin = await operator();
    const { owner, booking } = await completedBooking();
    expect((await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "release" })).ok).toBe(true);
    expect(await refundBooking(admin.id, booking.id, { amountCents: 3601, note: "too much" })).toEqual({
      ok: false,
      message: "disputes:refusals.amountTooHigh",
    });
    expect(await refundBooking(admin.id, randomUUID(), { amountCents: 100, note: "missing" })).toEqual({
      ok: false,
      notFound: true,
    });
    expect(await refundBooking(admin.id, booking.id, { amountCents: 1000, note: "Goodwill" })).toEqual({ ok: true });
    expect(await bookingRow(booking.id)).toMatchObject({
      payment_status: "released",
      refunded_cents: 1000,
      refund_due_cents: null,
    });
    expect(await paymentRow(booking.hold_ref)).toMatchObject({ status: "partly-refunded", amount_cents: 2600 });
    expect(await refundBooking(admin.id, booking.id, { amountCents: 2601, note: "too much" })).toEqual({
      ok: false,
      message: "disputes:refusals.amountTooHigh",
    });
    expect(await refundBooking(admin.id, booking.id, { amountCents: 2600, note: "All of it" })).toEqual({ ok: true });
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "refunded", refunded_cents: 3600 });
    expect(await paymentRow(booking.hold_ref)).toMatchObject({ status: "refunded", amount_cents: 0 });
    expect(
      await db.selectFrom("audit_log").select("reason").where("subject_id", "=", booking.id).orderBy("id").execute(),
    ).toEqual([{ reason: "Goodwill" }, { reason: "All of it" }]);
    expect(await noticesOf(owner.id)).toContain("operatorRefunded");
  });

  it("finds bookings by id, by a person's name or email, and by day; wildcards are taken literally", async () => {
    const { owner, booking } = await completedBooking();
    expect((await findBookings({ query: booking.id, day: "", page: 1 })).bookings.map((row) => row.id)).toEqual([
      booking.id,
    ]);
    expect(
      (await findBookings({ query: owner.email.toUpperCase(), day: "", page: 1 })).bookings.map((row) => row.id),
    ).toContain(booking.id);
    expect(
      (await findBookings({ query: "", day: booking.start_at.slice(0, 10), page: 1 })).bookings.map((row) => row.id),
    ).toContain(booking.id);
    expect((await findBookings({ query: "%", day: "", page: 1 })).bookings.map((row) => row.id)).not.toContain(
      booking.id,
    );
    expect((await findBookings({ query: "' OR 1=1 --", day: "not-a-day", page: 1 })).bookings).toEqual([]);
  });
});

describe("a sitter cancels a confirmed booking", () => {
  it("before it starts: the hold goes back in full, the owner is told at once, and it counts on the profile", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    await payForBooking(owner, booking.id, card(), randomUUID());
    await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" });
    expect(await sitterCancellations(sitter.id)).toEqual({ cancelled: 0, confirmed: 1 });
    const cancelled = await transition(
      booking.id,
      { kind: "sitter", userId: sitter.id },
      { type: "sitter-cancel", reason: "I am ill" },
    );
    expect(cancelled).toMatchObject({
      ok: true,
      booking: { status: "cancelled", cancelled_by: "sitter", cancel_reason: "I am ill", payment_status: "refunded" },
    });
    expect(await paymentRow(booking.hold_ref ?? (await bookingRow(booking.id)).hold_ref)).toMatchObject({
      status: "voided",
    });
    expect(await noticesOf(owner.id)).toContain("cancelledBySitter");
    expect((await emailsTo(owner.email)).some((email) => email.subject.includes(sitter.name))).toBe(true);
    expect(await sitterCancellations(sitter.id)).toEqual({ cancelled: 1, confirmed: 1 });
    expect(
      await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "sitter-cancel", reason: "again" }),
    ).toEqual({ ok: false, refusal: "wrongState" });
  });
});
