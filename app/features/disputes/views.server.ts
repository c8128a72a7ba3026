import type { Booking, DisputeOutcome } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { photoUrl } from "~/features/media/index.server";
import { findBooking } from "~/features/bookings/index.server";
import { bookingMoney, decide, type BookingMoney } from "~/features/bookings";

export interface DisputePhotoView {
  cardUrl: string;
  fullUrl: string;
  width: number;
  height: number;
}

export interface DisputePostView {
  id: string;
  /** Which side wrote it; "operator" for anyone else (only operators can). */
  side: "owner" | "sitter" | "operator";
  authorName: string;
  body: string;
  createdAt: string;
  photos: DisputePhotoView[];
}

export interface DisputeSummary {
  id: string;
  reason: string;
  status: "open" | "resolved";
  outcome: DisputeOutcome | null;
  refundCents: number | null;
  resolutionNote: string | null;
  createdAt: string;
  resolvedAt: string | null;
}

/** A booking's money as the bookings feature works it out, with where its payment stands. */
export type PaymentRecordView = BookingMoney & { paymentStatus: Booking["payment_status"]; provider: string };

export function moneyOf(booking: Booking): PaymentRecordView {
  return { ...bookingMoney(booking), paymentStatus: booking.payment_status, provider: booking.payment_provider };
}

export async function disputeThread(
  disputeId: string,
  booking: Pick<Booking, "owner_id" | "sitter_id">,
): Promise<DisputePostView[]> {
  const posts = await db
    .selectFrom("dispute_posts as p")
    .leftJoin("users as u", "u.id", "p.author_id")
    .select(["p.id", "p.author_id", "p.body", "p.created_at", "u.name"])
    .where("p.dispute_id", "=", disputeId)
    .orderBy("p.created_at")
    .orderBy("p.id")
    .execute();
  const photos =
    posts.length === 0
      ? []
      : await db
          .selectFrom("dispute_photos")
          .select(["post_id", "card_key", "full_key", "width", "height"])
          .where(
            "post_id",
            "in",
            posts.map((post) => post.id),
          )
          .orderBy("position")
          .execute();
  return posts.map((post) => ({
    id: post.id,
    side: post.author_id === booking.owner_id ? "owner" : post.author_id === booking.sitter_id ? "sitter" : "operator",
    authorName: post.name ?? "",
    body: post.body,
    createdAt: post.created_at,
    photos: photos
      .filter((photo) => photo.post_id === post.id)
      .map((photo) => ({
        cardUrl: photoUrl(photo.card_key),
        fullUrl: photoUrl(photo.full_key),
        width: photo.width,
        height: photo.height,
      })),
  }));
}

const summaryColumns = [
  "id",
  "reason",
  "status",
  "outcome",
  "refund_cents",
  "resolution_note",
  "created_at",
  "resolved_at",
] as const;

function toSummary(row: {
  id: string;
  reason: string;
  status: "open" | "resolved";
  outcome: DisputeOutcome | null;
  refund_cents: number | null;
  resolution_note: string | null;
  created_at: string;
  resolved_at: string | null;
}): DisputeSummary {
  return {
    id: row.id,
    reason: row.reason,
    status: row.status,
    outcome: row.outcome,
    refundCents: row.refund_cents,
    resolutionNote: row.resolution_note,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
  };
}

/** The problem page of a booking, for its owner or sitter only (anyone else: null, as if it did not exist). */
export async function problemPage(userId: string, bookingId: string) {
  const booking = await findBooking(bookingId);
  if (!booking || (booking.owner_id !== userId && booking.sitter_id !== userId)) return null;
  const as = booking.owner_id === userId ? ("owner" as const) : ("sitter" as const);
  const other = await db
    .selectFrom("users")
    .select(["id", "name", "time_zone"])
    .where("id", "=", as === "owner" ? booking.sitter_id : booking.owner_id)
    .executeTakeFirstOrThrow();
  const dispute = await db
    .selectFrom("disputes")
    .select(summaryColumns)
    .where("booking_id", "=", bookingId)
    .executeTakeFirst();
  const reportable = !dispute && decide(booking, { kind: as, userId }, { type: "report-problem" }, now()).ok;
  return {
    booking: {
      id: booking.id,
      as,
      petName: booking.pet_name,
      other: { name: other.name },
      startAt: booking.start_at,
      paymentStatus: booking.payment_status,
    },
    money: moneyOf(booking),
    dispute: dispute ? toSummary(dispute) : null,
    posts: dispute ? await disputeThread(dispute.id, booking) : [],
    can: { report: reportable, post: dispute?.status === "open" },
  };
}

export type DisputeStatusFilter = "open" | "resolved";
export const QUEUE_PAGE_SIZE = 25;

/** The operator's queue: open ones oldest first (the longest wait on top), settled ones newest first. */
export async function disputeQueue(status: DisputeStatusFilter, page: number) {
  const rows = await db
    .selectFrom("disputes as d")
    .innerJoin("bookings as b", "b.id", "d.booking_id")
    .innerJoin("users as o", "o.id", "b.owner_id")
    .innerJoin("users as s", "s.id", "b.sitter_id")
    .select([
      "d.id",
      "d.reason",
      "d.status",
      "d.outcome",
      "d.refund_cents",
      "d.created_at",
      "d.resolved_at",
      "b.id as booking_id",
      "b.pet_name",
      "o.name as owner_name",
      "s.name as sitter_name",
    ])
    .select([
      "b.status as booking_status",
      "b.total_cents",
      "b.payment_status",
      "b.payment_task",
      "b.capture_cents",
      "b.refund_due_cents",
      "b.refunded_cents",
      "b.released_at",
    ])
    .where("d.status", "=", status)
    .orderBy(status === "open" ? "d.created_at" : "d.resolved_at", status === "open" ? "asc" : "desc")
    .orderBy("d.id")
    .limit(QUEUE_PAGE_SIZE + 1)
    .offset((page - 1) * QUEUE_PAGE_SIZE)
    .execute();
  const disputes = rows.slice(0, QUEUE_PAGE_SIZE).map((row) => ({
    id: row.id,
    reason: row.reason,
    status: row.status,
    outcome: row.outcome,
    refund_cents: row.refund_cents,
    created_at: row.created_at,
    resolved_at: row.resolved_at,
    booking_id: row.booking_id,
    pet_name: row.pet_name,
    owner_name: row.owner_name,
    sitter_name: row.sitter_name,
    money: bookingMoney({ ...row, status: row.booking_status }),
  }));
  return { disputes, hasMore: rows.length > QUEUE_PAGE_SIZE };
}

/** One dispute for the operator: both sides' words and photos, the money, and whether it can still be settled. */
export async function disputeForOperator(disputeId: string) {
  const dispute = await db
    .selectFrom("disputes")
    .select([...summaryColumns, "booking_id"])
    .where("id", "=", disputeId)
    .executeTakeFirst();
  if (!dispute) return null;
  const booking = (await findBooking(dispute.booking_id))!;
  const people = await db
    .selectFrom("users")
    .select(["id", "name", "email"])
    .where("id", "in", [booking.owner_id, booking.sitter_id])
    .execute();
  const personOf = (id: string) => people.find((person) => person.id === id) ?? { id, name: "", email: "" };
  return {
    dispute: toSummary(dispute),
    booking: {
      id: booking.id,
      petName: booking.pet_name,
      startAt: booking.start_at,
      endAt: booking.end_at,
      completedAt: booking.completed_at,
      owner: personOf(booking.owner_id),
      sitter: personOf(booking.sitter_id),
    },
    money: moneyOf(booking),
    posts: await disputeThread(dispute.id, booking),
  };
}
