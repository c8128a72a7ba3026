import { randomUUID } from "node:crypto";
import { db } from "~/platform/db.server";
import { now, nowIso } from "~/platform/clock.server";
import { dateTimeFormat } from "~/platform/format";
import { notify } from "~/features/notifications/index.server";
import { REVIEWS_PAGE_SIZE } from "./rules";
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";

const YEAR_MS = 365 * 24 * 3600_000;

export interface ReviewView {
  id: string;
  reviewerName: string;
  /** Null when the operator removed the review: nothing of its words leaves the server. */
  rating: number | null;
  comment: string | null;
  reply: string | null;
  hidden: boolean;
  createdAt: string;
  date: string;
  /** The person reviewed may still answer it (once). */
  canReply: boolean;
  /** Written by the person looking: they cannot report it. */
  mine: boolean;
}

/** The reviews a person received, newest first, a page at a time. */
export async function reviewsOf(
  reviewedId: string,
  page: number,
  viewer: { id: string; mayReply: boolean },
  reader: { language: string; timeZone: string },
) {
  const rows = await db
    .selectFrom("reviews as r")
    .leftJoin("users as u", "u.id", "r.reviewer_id")
    .select([
      "r.id",
      "r.reviewer_id",
      "r.rating",
      "r.comment",
      "r.reply",
      "r.hidden_at",
      "r.created_at",
      "u.name as reviewer_name",
    ])
    .where("r.reviewed_id", "=", reviewedId)
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .limit(REVIEWS_PAGE_SIZE + 1)
    .offset((page - 1) * REVIEWS_PAGE_SIZE)
    .execute();
  const format = dateTimeFormat(reader.language, { dateStyle: "medium", timeZone: reader.timeZone });
  const reviews: ReviewView[] = rows.slice(0, REVIEWS_PAGE_SIZE).map((row) => {
    const hidden = row.hidden_at !== null;
    return {
      id: row.id,
      reviewerName: hidden ? "" : (row.reviewer_name ?? ""),
      rating: hidden ? null : row.rating,
      comment: hidden ? null : row.comment,
      reply: hidden ? null : row.reply,
      hidden,
      createdAt: row.created_at,
      date: format.format(new Date(row.created_at)),
      canReply: !hidden && row.reply === null && viewer.mayReply && viewer.id === reviewedId,
      mine: row.reviewer_id === viewer.id,
    };
  });
  return { reviews, page, hasMore: rows.length > REVIEWS_PAGE_SIZE };
}

export type ReplyResult = "saved" | "notFound" | "alreadyReplied" | "removed";

/** The person reviewed answers a review once; the reviewer is told. */
export async function replyToReview(userId: string, reviewId: string, reply: string): Promise<ReplyResult> {
  return db.transaction().execute(async (trx): Promise<ReplyResult> => {
    const review = await trx
      .selectFrom("reviews")
      .select(["id", "reviewer_id", "reviewed_id", "reply", "hidden_at"])
      .where("id", "=", reviewId)
      .executeTakeFirst();
    if (!review || review.reviewed_id !== userId) return "notFound";
    if (review.hidden_at) return "removed";
    const written = await trx
      .updateTable("reviews")
      .set({ reply, replied_at: nowIso() })
      .where("id", "=", reviewId)
      .where("reply", "is", null)
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) !== 1) return "alreadyReplied";
    const name = (await trx.selectFrom("users").select("name").where("id", "=", userId).executeTakeFirst())?.name ?? "";
    await notify(
      { userId: review.reviewer_id, type: "review", data: { kind: "reply", name }, link: `/users/${userId}` },
      trx,
    );
    return "saved";
  });
}

/** A sitter's cancellations of confirmed bookings in the last year, out of the bookings they confirmed in it. */
export async function sitterCancellations(sitterId: string): Promise<{ cancelled: number; confirmed: number }> {
  const since = new Date(now().getTime() - YEAR_MS).toISOString();
  const row = await db
    .selectFrom("bookings")
    .select((eb) => [
      eb.fn.countAll<number>().as("confirmed"),
      // Only the sitter's own cancellation sets cancelled_by "sitter" on a confirmed booking (a decline ends a request).
      eb.fn.sum<number>(eb.case().when("cancelled_by", "=", "sitter").then(1).else(0).end()).as("cancelled"),
    ])
    .where("sitter_id", "=", sitterId)
    .where("confirmed_at", ">=", since)
    .executeTakeFirstOrThrow();
  return { cancelled: Number(row.cancelled ?? 0), confirmed: Number(row.confirmed) };
}

/** The reviews section of a public profile: the page from `?reviews=`, and a sitter's cancellations. */
export async function reviewsSection(
  profile: { id: string; isSitter: boolean },
  viewer: { id: string; time_zone: string },
  url: URL,
  language: string,
  { withReplyForms = false } = {},
) {
  const asked = Number(url.searchParams.get("reviews"));
  const page = Number.isInteger(asked) && asked >= 1 && asked <= 10_000 ? asked : 1;
  // Answers are given from the person's own preview (/profile/public), whose action takes them.
  const listed = await reviewsOf(
    profile.id,
    page,
    { id: viewer.id, mayReply: withReplyForms },
    { language, timeZone: viewer.time_zone },
  );
  return { ...listed, cancellations: profile.isSitter ? await sitterCancellations(profile.id) : null };
}

/** An operator hides a review; false when it was already hidden. */
export async function hideReview(trx: Kysely<Database>, id: string, operatorId: string, at: string): Promise<boolean> {
  const hidden = await trx
    .updateTable("reviews")
    .set({ hidden_at: at, hidden_by: operatorId })
    .where("id", "=", id)
    .where("hidden_at", "is", null)
    .executeTakeFirst();
  return Number(hidden.numUpdatedRows) > 0;
}

/** A review of a completed booking, once per booking and reviewer; false when that reviewer already left one. */
export async function addReview(
  trx: Kysely<Database>,
  review: { bookingId: string; reviewerId: string; reviewedId: string; rating: number; comment: string },
): Promise<boolean> {
  const inserted = await trx
    .insertInto("reviews")
    .values({
      id: randomUUID(),
      booking_id: review.bookingId,
      reviewer_id: review.reviewerId,
      reviewed_id: review.reviewedId,
      rating: review.rating,
      comment: review.comment,
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(["booking_id", "reviewer_id"]).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}
