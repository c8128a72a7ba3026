import type { Booking, BookingStatus, CancellationPolicy } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { deliverSoon } from "~/platform/email.server";
import { enqueueNewsEmail, notify } from "~/features/notifications/index.server";
import { BOOKING_TABS, decide, type Actor, type BookingEvent } from "./machine";
import { bookingMoney, type BookingMoney } from "./money";
import { bookedPetNames } from "./booked-pets.server";
import { isWalkService } from "./walks.server";
import { addReview } from "~/features/reviews/index.server";

export interface BookingView {
  id: string;
  as: "owner" | "sitter";
  other: { id: string; name: string };
  /** The first booked pet's name (pages that name one pet). */
  petName: string;
  /** Every booked pet's name, in order. */
  petNames: string[];
  status: BookingStatus;
  paymentStatus: Booking["payment_status"];
  paymentProvider: string;
  cardLabel: string | null;
  holdDueAt: string | null;
  startAt: string;
  endAt: string;
  timeZone: string;
  /** 'hourly', or a stay: 'boarding', 'house_sitting', 'day_care'. */
  serviceType: string;
  /** 'charge': a stay charged when it starts and paid out at release; 'hold': held and captured. */
  paymentMode: Booking["payment_mode"];
  /** Hours, or a stay's nights or days. */
  hours: number;
  /** The price per hour, or per night or day. */
  hourlyRateCents: number;
  /** The sitter's price per extra pet and hour, as agreed. */
  extraPetCents: number;
  /** What the owner pays, what went back, what the sitter keeps and the fee. */
  money: BookingMoney;
  notes: string;
  cancelReason: string | null;
  cancelledBy: Booking["cancelled_by"];
  can: {
    pay: boolean;
    accept: boolean;
    decline: boolean;
    cancel: boolean;
    finish: boolean;
    release: boolean;
    review: boolean;
    reportProblem: boolean;
  };
  /** A problem the owner reported: open until the operator settles it. */
  problem: "open" | "settled" | null;
  /** The sitter's policy when the booking was requested (null: older than policies, a full refund). */
  cancellationPolicy: CancellationPolicy | null;
  /** The owner's money if they cancelled now, by the machine's own decision; null when they cannot. */
  ownerCancel: BookingMoney | null;
  /** For the owner of a completed booking: a new request prefilled from it. */
  bookAgain: string | null;
  /** The weekly series this booking is an occurrence of. */
  seriesId: string | null;
}

/** The booking as an owner's cancellation at `at` would leave it, read through bookingMoney. */
export function ownerCancelPreview(booking: Booking, at: Date): BookingMoney | null {
  const decision = decide(booking, { kind: "owner", userId: booking.owner_id }, { type: "cancel", reason: "-" }, at);
  return decision.ok ? bookingMoney({ ...booking, ...decision.change.set }) : null;
}

export type BookingTab = keyof typeof BOOKING_TABS;

function allowed(booking: Booking, actor: Actor, event: BookingEvent, at: Date) {
  return decide(booking, actor, event, at).ok;
}

export function toView(
  booking: Booking & { owner_name: string; sitter_name: string; sitter_time_zone: string },
  viewerId: string,
  reviewed: boolean,
  petNames: string[] = [booking.pet_name],
): BookingView {
  const as = booking.owner_id === viewerId ? "owner" : "sitter";
  const actor: Actor = { kind: as, userId: viewerId };
  const at = now();
  return {
    id: booking.id,
    as,
    other:
      as === "owner"
        ? { id: booking.sitter_id, name: booking.sitter_name }
        : { id: booking.owner_id, name: booking.owner_name },
    petName: booking.pet_name,
    petNames: petNames.length ? petNames : [booking.pet_name],
    extraPetCents: booking.extra_pet_cents,
    status: booking.status,
    paymentStatus: booking.payment_status,
    paymentProvider: booking.payment_provider,
    cardLabel: booking.card_label,
    holdDueAt: booking.hold_due_at,
    startAt: booking.start_at,
    endAt: booking.end_at,
    timeZone: booking.sitter_time_zone,
    serviceType: booking.service_type,
    paymentMode: booking.payment_mode,
    hours: booking.hours,
    hourlyRateCents: booking.hourly_rate_cents,
    money: bookingMoney(booking),
    notes: booking.notes,
    cancelReason: booking.cancel_reason,
    cancelledBy: booking.cancelled_by,
    can: {
      pay: allowed(booking, actor, { type: "card-saved", cardRef: "", cardLabel: "" }, at),
      accept: allowed(booking, actor, { type: "accept" }, at),
      decline: allowed(booking, actor, { type: "decline" }, at),
      cancel: allowed(
        booking,
        actor,
        as === "owner" ? { type: "cancel", reason: "-" } : { type: "sitter-cancel", reason: "-" },
        at,
      ),
      finish: allowed(booking, actor, { type: "finish" }, at),
      release: allowed(booking, actor, { type: "release" }, at),
      review: booking.status === "completed" && !reviewed,
      reportProblem: allowed(booking, actor, { type: "report-problem" }, at),
    },
    problem: booking.problem_reported_at ? (booking.problem_resolved_at ? "settled" : "open") : null,
    cancellationPolicy: booking.cancellation_policy,
    ownerCancel: as === "owner" ? ownerCancelPreview(booking, at) : null,
    bookAgain: as === "owner" && booking.status === "completed" ? bookAgainPath(booking) : null,
    seriesId: booking.series_id,
  };
}

/** The request page for the same service with the same sitter, prefilled from this completed booking. */
export function bookAgainPath(booking: { id: string; sitter_id: string; service_type: string }): string {
  const again = encodeURIComponent(booking.id);
  const sitter = encodeURIComponent(booking.sitter_id);
  if (booking.service_type === "hourly") return `/booking/request?walkerId=${sitter}&again=${again}`;
  if (isWalkService(booking.service_type))
    return `/booking/walk?walkerId=${sitter}&service=${booking.service_type}&again=${again}`;
  return `/booking/stay?sitterId=${sitter}&service=${encodeURIComponent(booking.service_type)}&again=${again}`;
}

function withNames() {
  return db
    .selectFrom("bookings as b")
    .innerJoin("users as o", "o.id", "b.owner_id")
    .innerJoin("users as s", "s.id", "b.sitter_id")
    .selectAll("b")
    .select(["o.name as owner_name", "s.name as sitter_name", "s.time_zone as sitter_time_zone"]);
}

async function reviewedBy(userId: string, bookingIds: string[]): Promise<Set<string>> {
  if (bookingIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("reviews")
    .select("booking_id")
    .where("reviewer_id", "=", userId)
    .where("booking_id", "in", bookingIds)
    .execute();
  return new Set(rows.map((row) => row.booking_id));
}

export async function listBookings(userId: string, tab: BookingTab, limit = 100): Promise<BookingView[]> {
  let query = withNames().where((eb) => eb.or([eb("b.owner_id", "=", userId), eb("b.sitter_id", "=", userId)]));
  const statuses = BOOKING_TABS[tab];
  if (statuses) query = query.where("b.status", "in", statuses);
  const rows = await query.orderBy("b.start_at", "desc").orderBy("b.id").limit(limit).execute();
  const ids = rows.map((row) => row.id);
  const [reviewed, petNames] = await Promise.all([reviewedBy(userId, ids), bookedPetNames(ids)]);
  return rows.map((row) => toView(row, userId, reviewed.has(row.id), petNames.get(row.id)));
}

export async function bookingView(userId: string, id: string): Promise<BookingView | null> {
  const row = await withNames()
    .where("b.id", "=", id)
    .where((eb) => eb.or([eb("b.owner_id", "=", userId), eb("b.sitter_id", "=", userId)]))
    .executeTakeFirst();
  if (!row) return null;
  const [reviewed, petNames] = await Promise.all([reviewedBy(userId, [id]), bookedPetNames([id])]);
  return toView(row, userId, reviewed.has(id), petNames.get(id));
}

/** A sitter's earnings: held payments (what they will keep once released) and released ones (what they keep after refunds). */
export async function earningsOf(sitterId: string) {
  const rows = await withNames()
    .where("b.sitter_id", "=", sitterId)
    .where("b.payment_status", "in", ["held", "released"])
    .orderBy("b.start_at", "desc")
    .execute();
  const bookings = rows.map((row) => ({ row, money: bookingMoney(row) }));
  const sum = (status: Booking["payment_status"] | null, field: "sitterKeepsCents" | "platformFeeCents") =>
    bookings
      .filter(({ row }) => status === null || row.payment_status === status)
      .reduce((total, { money }) => total + money[field], 0);
  return {
    heldCents: sum("held", "sitterKeepsCents"),
    releasedCents: sum("released", "sitterKeepsCents"),
    feeCents: sum(null, "platformFeeCents"),
    bookings: bookings.slice(0, 20).map(({ row, money }) => ({
      id: row.id,
      ownerName: row.owner_name,
      petName: row.pet_name,
      startAt: row.start_at,
      status: row.payment_status,
      earningsCents: money.sitterKeepsCents,
      feeCents: money.platformFeeCents,
    })),
  };
}

export type ReviewResult = "saved" | "not-found" | "not-completed" | "already-reviewed";

export async function leaveReview(
  reviewerId: string,
  bookingId: string,
  rating: number,
  comment: string,
): Promise<ReviewResult> {
  const result = await db.transaction().execute(async (trx): Promise<ReviewResult> => {
    const booking = await trx.selectFrom("bookings").selectAll().where("id", "=", bookingId).executeTakeFirst();
    if (!booking || (booking.owner_id !== reviewerId && booking.sitter_id !== reviewerId)) return "not-found";
    if (booking.status !== "completed") return "not-completed";
    const reviewedId = booking.owner_id === reviewerId ? booking.sitter_id : booking.owner_id;
    if (!(await addReview(trx, { bookingId, reviewerId, reviewedId, rating, comment }))) return "already-reviewed";
    const reviewer = await trx
      .selectFrom("users")
      .select("name")
      .where("id", "=", reviewerId)
      .executeTakeFirstOrThrow();
    await notify({ userId: reviewedId, type: "review", data: { name: reviewer.name, rating }, link: "/profile" }, trx);
    await enqueueNewsEmail(
      reviewedId,
      { kind: "reviews", template: "review", link: "/profile", values: { name: reviewer.name, rating } },
      trx,
    );
    return "saved";
  });
  if (result === "saved") deliverSoon();
  return result;
}

export async function reviewsReceived(userId: string, limit = 5) {
  return db
    .selectFrom("reviews as r")
    .innerJoin("users as u", "u.id", "r.reviewer_id")
    .select(["r.id", "r.rating", "r.comment", "r.hidden_at", "r.created_at", "u.name as reviewer_name"])
    .where("r.reviewed_id", "=", userId)
    .orderBy("r.created_at", "desc")
    .limit(limit)
    .execute();
}
