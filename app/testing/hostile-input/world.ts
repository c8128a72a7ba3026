// The people and records a valid post of every form needs, and the database as a refused post must leave it.

import { randomUUID } from "node:crypto";
import sharp from "sharp";
import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";
import { honeypotFields } from "~/testing/browser";
import { person, petOf, photoOf } from "~/testing/people";
import { sitterWithSlot, requested, card, slot, at, premiumWithCard, dayAhead } from "~/testing/bookings";
import { proposeMeetGreet } from "~/features/meet-greets/index.server";
import { actOnSeries, requestSeries, weekdayOf } from "~/features/series/index.server";
import { payForBooking } from "~/features/bookings/index.server";
import { ensureConversation, sendMessage } from "~/features/messages/index.server";
import { issueEmailToken } from "~/features/auth/index.server";
import { requestEmailChange } from "~/features/account/index.server";
import { PASSWORD, type Fields } from "./form";

export type World = Awaited<ReturnType<typeof world>>;

let png: Uint8Array<ArrayBuffer> | undefined;

/** What a refused submission must leave as it was: every table but the bookkeeping ones. */
const WATCHED = [
  "users",
  "push_subscriptions",
  "push_outbox",
  "email_tokens",
  "notifications",
  "email_outbox",
  "pets",
  "photos",
  "swipes",
  "matches",
  "availability_slots",
  "sitter_days_off",
  "bookings",
  "test_payments",
  "payment_idempotency",
  "reviews",
  "conversations",
  "messages",
  "conversation_reads",
  "live_events",
  "payment_methods",
  "subscriptions",
  "subscription_payments",
  "stripe_events",
  "reports",
  "blocks",
  "audit_log",
  "disputes",
  "dispute_posts",
  "dispute_photos",
  "booking_history",
  "care_plans",
  "visits",
  "visit_items",
  "visit_media",
  "meet_greets",
  "care_series",
  "care_series_schedules",
  "care_series_pets",
  "care_series_skips",
] as const satisfies readonly (keyof Database)[];

/** Control characters as a snapshot (JSON) holds them; tab, line feed and carriage return are text. */
const CONTROL = /(?<!\\)(\\\\)*\\u00(0[0-8bcef]|1[0-9a-f])|\u007f/g;
export const controlsIn = (snapshot: string) => snapshot.match(CONTROL)?.length ?? 0;

export async function snapshot(): Promise<string> {
  const rows = await Promise.all(WATCHED.map((table) => db.selectFrom(table).selectAll().execute()));
  return JSON.stringify(rows);
}

/** The people and records every form of the app needs to be posted validly, made anew for each form. */
export async function world() {
  png ??= new Uint8Array(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: "#c84" } })
      .png()
      .toBuffer(),
  );
  const image = png;
  const owner = await person("owner", { password: PASSWORD });
  const petId = await petOf(owner.id);
  const sparePetId = await petOf(owner.id, { name: "Spare" });
  const sitter = await sitterWithSlot({ daysAhead: 3 });
  await db
    .insertInto("sitter_services")
    .values([
      { sitter_id: sitter.id, service: "boarding", price_cents: 4000, duration_minutes: null },
      { sitter_id: sitter.id, service: "walk", price_cents: 1500, duration_minutes: 30 },
    ])
    .execute();
  const spareSlotId = await slot(sitter.id, at(sitter, sitter.day, "20:00"), at(sitter, sitter.day, "22:00"));
  const both = await person("both");
  const ownerWithPet = { ...owner, petId };
  const unpaid = await requested(ownerWithPet, sitter, "09:00", 1);
  const paid = await requested(ownerWithPet, sitter, "11:00", 2);
  await payForBooking(owner, paid.id, card(), randomUUID());
  const conversationId = await ensureConversation(owner.id, sitter.id);
  await sendMessage(sitter.id, conversationId, "Hello", null, { image: "📷", video: "🎥" });
  const photoId = await photoOf(owner.id);
  const notification = await db
    .selectFrom("notifications")
    .select("id")
    .where("user_id", "=", owner.id)
    .executeTakeFirstOrThrow();
  const { subscriptionId, paymentMethodId } = await premiumWithCard(owner);
  const admin = await person("owner", { columns: { is_admin: 1 } });
  const messageId = String(
    (
      await db
        .selectFrom("messages")
        .select("id")
        .where("conversation_id", "=", conversationId)
        .executeTakeFirstOrThrow()
    ).id,
  );
  const reportId = randomUUID();
  await db
    .insertInto("reports")
    .values({
      id: reportId,
      reporter_id: both.id,
      reported_user_id: sitter.id,
      subject_type: "profile",
      subject_id: sitter.id,
      reason: "other",
      created_at: new Date().toISOString(),
    })
    .execute();
  const blockedId = (await person("owner")).id;
  await db
    .insertInto("blocks")
    .values({ blocker_id: owner.id, blocked_id: blockedId, created_at: new Date().toISOString() })
    .execute();
  // Completed bookings (set here: the clock stays put), one with an open dispute, and a review to answer.
  const completedBookings: string[] = [];
  for (const startTime of ["13:00", "14:00"]) {
    const booking = await requested(ownerWithPet, sitter, startTime, 1);
    await payForBooking(owner, booking.id, card(), randomUUID());
    await db
      .updateTable("bookings")
      .set({ status: "completed", completed_at: new Date().toISOString() })
      .where("id", "=", booking.id)
      .execute();
    completedBookings.push(booking.id);
  }
  const [completedBookingId, disputedBookingId] = completedBookings as [string, string];
  const disputeId = randomUUID();
  await db
    .updateTable("bookings")
    .set({ problem_reported_at: new Date().toISOString() })
    .where("id", "=", disputedBookingId)
    .execute();
  await db
    .insertInto("disputes")
    .values({ id: disputeId, booking_id: disputedBookingId, reason: "other", created_at: new Date().toISOString() })
    .execute();
  const reviewId = randomUUID();
  await db
    .insertInto("reviews")
    .values({
      id: reviewId,
      booking_id: completedBookingId,
      reviewer_id: owner.id,
      reviewed_id: sitter.id,
      rating: 4,
      created_at: new Date().toISOString(),
    })
    .execute();
  const meetGreet = await proposeMeetGreet(owner, {
    id: randomUUID(),
    sitterId: sitter.id,
    day: dayAhead(sitter.time_zone, 2),
    time: "18:00",
    place: "sitters_home",
    placeNote: "",
  });
  if (!meetGreet.ok) throw new Error(meetGreet.refusal);
  const meetGreetId = meetGreet.meetGreet.id;
  // A weekly walk on the sitter's day at 16:00, accepted: its date a week later can be skipped or changed.
  const series = await requestSeries(ownerWithPet, {
    id: randomUUID(),
    sitterId: sitter.id,
    service: "walk",
    petIds: [petId],
    day: sitter.day,
    startTime: "16:00",
    weekdays: [weekdayOf(sitter.day)],
    lastDay: null,
    notes: "",
  });
  if (!series.ok || !(await actOnSeries(sitter, series.series.id, { type: "accept" })).ok)
    throw new Error("weekly care not set up");
  const seriesDay = new Date(Date.parse(`${sitter.day}T12:00:00Z`) + 7 * 24 * 3600_000).toISOString().slice(0, 10);
  await requestEmailChange(owner.id, `changed-${randomUUID()}@example.com`, PASSWORD);
  const changeLink = await db
    .selectFrom("email_outbox")
    .select("text_body")
    .where("text_body", "like", "%/settings/email/confirm?token=%")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return {
    admin,
    seriesId: series.series.id,
    seriesDay,
    meetGreetId,
    messageId,
    reportId,
    blockedId,
    completedBookingId,
    disputedBookingId,
    disputeId,
    reviewId,
    emailChangeToken: decodeURIComponent(/token=([^\s"&]+)/.exec(changeLink.text_body)![1]!),
    owner,
    sitter,
    both,
    petId,
    sparePetId,
    spareSlotId,
    unpaidBookingId: unpaid.id,
    paidBookingId: paid.id,
    conversationId,
    photoId,
    notificationId: notification.id,
    subscriptionId,
    paymentMethodId,
    confirmToken: await issueEmailToken(owner.id, "confirm"),
    resetToken: await issueEmailToken(owner.id, "reset"),
    honeypot: Object.entries(honeypotFields()) as Fields,
    image: () => new File([image], "photo.png", { type: "image/png" }),
  };
}
