import { createECDH, randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { RouteConfigEntry } from "@remix-run/route-config";
import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";
import { startSession } from "~/platform/session.server";
import { resetClock } from "~/testing/clock";
import { takeToast } from "~/platform/toast.server";
import { honeypotFields } from "~/testing/browser";
import { person, petOf, photoOf } from "~/testing/people";
import { sitterWithSlot, requested, card, slot, at, premiumWithCard, dayAhead } from "~/testing/bookings";
import { proposeMeetGreet } from "~/features/meet-greets/index.server";
import { actOnSeries, requestSeries, weekdayOf } from "~/features/series/index.server";
import { payForBooking } from "~/features/bookings/index.server";
import { ensureConversation, sendMessage } from "~/features/messages/index.server";
import { issueEmailToken } from "~/features/auth/index.server";
import { requestEmailChange } from "~/features/account/index.server";
import { unsubscribeToken } from "~/platform/unsubscribe.server";
import routes from "./routes";

/**
 * Every form of the app, posted with hostile variations of a valid submission: script tags, SQL,
 * control characters, broken UTF-8, megabyte strings, repeated and bracketed keys, missing and
 * unknown fields, JSON and multipart bodies where a urlencoded form is expected, no body at all.
 * Each answer is below 500; a refusal (a 4xx, or a redirect with an error toast) carries a
 * translated message and changes nothing; an accepted one stores no control character and puts no
 * markup into an email. How stored markup is shown: tests/e2e/hostile-input.spec.ts. Every route
 * module with an action must be in the table; a new form fails the first test until it joins.
 *
 * FC_SEED=<n> replays a run; FC_RUNS=<n> changes the number of submissions per form.
 */

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() % 2 ** 31;
const RUNS = Number(process.env.FC_RUNS ?? 20);

type World = Awaited<ReturnType<typeof world>>;
type Who = "owner" | "sitter" | "both" | "admin" | "anonymous";
type Fields = [string, string | File][];
type Encoding = "urlencoded" | "multipart";

interface Form {
  /** What the form is, in the failure message. */
  name: string;
  who: Who;
  url: (w: World) => string;
  params?: (w: World) => Record<string, string>;
  /** A valid submission (fresh ids each time, so a valid post can succeed more than once). */
  fields: (w: World) => Fields;
  /** How the page posts it. */
  encoding?: Encoding;
  headers?: (w: World) => Record<string, string>;
  /** Its error toast reports the device's problem, not a refusal: the state change is the point. */
  errorToastIsOutcome?: true;
}

const PASSWORD = "correct horse battery";
const pushEndpoint = () => `https://fcm.googleapis.com/fcm/send/${randomUUID()}`;

const FORMS: Record<string, Form[]> = {
  "routes/auth.tsx": [
    {
      name: "sign-up",
      who: "anonymous",
      url: () => "/auth",
      fields: (w) => [
        ["intent", "signup"],
        ["role", "owner"],
        ["name", "Ana"],
        ["city", "Madrid"],
        ["postalCode", "28004"],
        ["phone", "+34 600 000 000"],
        ["email", `${randomUUID()}@example.com`],
        ["password", PASSWORD],
        ...w.honeypot,
      ],
    },
    {
      name: "login",
      who: "anonymous",
      url: () => "/auth",
      fields: (w) => [
        ["intent", "login"],
        ["email", w.owner.email],
        ["password", PASSWORD],
        ["redirectTo", "/profile"],
        ...w.honeypot,
      ],
    },
    {
      name: "resend confirmation",
      who: "anonymous",
      url: () => "/auth",
      fields: (w) => [["intent", "resend"], ["email", w.owner.email], ...w.honeypot],
    },
  ],
  "routes/auth-callback.tsx": [
    {
      name: "confirm email",
      who: "anonymous",
      url: () => "/auth/callback",
      fields: (w) => [["token", w.confirmToken]],
    },
  ],
  "routes/forgot-password.tsx": [
    {
      name: "forgot password",
      who: "anonymous",
      url: () => "/forgot-password",
      fields: (w) => [["email", w.owner.email], ...w.honeypot],
    },
  ],
  "routes/reset-password.tsx": [
    {
      name: "reset password with a token",
      who: "anonymous",
      url: () => "/reset-password",
      fields: (w) => [
        ["token", w.resetToken],
        ["password", PASSWORD],
        ["confirmPassword", PASSWORD],
      ],
    },
    {
      name: "change password signed in",
      who: "owner",
      url: () => "/auth/reset-password",
      fields: () => [
        ["currentPassword", PASSWORD],
        ["password", PASSWORD],
        ["confirmPassword", PASSWORD],
      ],
    },
  ],
  "routes/logout.tsx": [{ name: "log out", who: "owner", url: () => "/logout", fields: () => [] }],
  "routes/settings-language.tsx": [
    {
      name: "language",
      who: "owner",
      url: () => "/settings/language",
      fields: () => [
        ["language", "es"],
        ["redirectTo", "/profile?lng=en"],
      ],
    },
  ],
  "routes/dev-clock.ts": [
    {
      name: "dev clock",
      who: "anonymous",
      url: () => "/dev/clock",
      fields: () => [
        ["reset", "true"],
        ["advanceMinutes", "0"],
      ],
    },
  ],
  "routes/webhooks-stripe.ts": [
    {
      name: "stripe webhook",
      who: "anonymous",
      url: () => "/webhooks/stripe",
      fields: () => [
        ["id", "evt_1"],
        ["type", "payment_intent.succeeded"],
      ],
      headers: () => ({ "stripe-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` }),
    },
  ],
  "routes/dashboard.tsx": [
    {
      name: "like",
      who: "owner",
      url: () => "/dashboard",
      fields: (w) => [
        ["intent", "like"],
        ["userId", w.sitter.id],
        ["petId", ""],
        ["tab", "sitters"],
      ],
    },
    {
      name: "location",
      who: "owner",
      url: () => "/dashboard",
      fields: () => [
        ["intent", "location"],
        ["latitude", "40.4"],
        ["longitude", "-3.7"],
        ["refresh", "1"],
      ],
    },
    {
      name: "location error",
      who: "owner",
      errorToastIsOutcome: true,
      url: () => "/dashboard",
      fields: () => [
        ["intent", "location-error"],
        ["code", "denied"],
        ["tab", "pets"],
      ],
    },
    { name: "browse mode", who: "owner", url: () => "/dashboard", fields: () => [["intent", "browse-global"]] },
  ],
  "routes/dashboard-likes.tsx": [
    {
      name: "like back",
      who: "owner",
      url: () => "/dashboard/likes",
      fields: (w) => [
        ["intent", "like-back"],
        ["userId", w.sitter.id],
      ],
    },
  ],
  "routes/user-profile.tsx": [
    {
      name: "like back on a profile",
      who: "owner",
      url: (w) => `/users/${w.sitter.id}`,
      params: (w) => ({ userId: w.sitter.id }),
      fields: (w) => [
        ["intent", "like-back"],
        ["userId", w.sitter.id],
      ],
    },
  ],
  "routes/dashboard-filters.tsx": [
    {
      name: "filters",
      who: "owner",
      url: () => "/dashboard/filters",
      fields: () => [
        ["petType", "dog"],
        ["maxDistanceKm", "25"],
        ["minRating", "4"],
        ["maxPrice", "20"],
        ["sortBy", "distance"],
      ],
    },
  ],
  "routes/profile.tsx": [
    { name: "acting role", who: "both", url: () => "/profile", fields: () => [["actingRole", "owner"]] },
  ],
  "routes/profile-edit.tsx": [
    {
      name: "profile edit",
      who: "owner",
      url: () => "/profile/edit",
      fields: () => [
        ["name", "Ana"],
        ["phone", "+34 600 000 000"],
        ["city", "Madrid"],
        ["postalCode", "28004"],
        ["bio", "I love dogs."],
        ["timeZone", "Europe/Madrid"],
      ],
    },
    {
      name: "sitter details",
      who: "sitter",
      url: () => "/profile/edit",
      fields: () => [
        ["intent", "sitter"],
        ["hourlyRate", "22"],
        ["yearsExperience", "6"],
        ["experience", "puppies"],
        ["caresFor", "dog"],
        ["cancellationPolicy", "moderate"],
      ],
    },
  ],
  "routes/sitter-profile-setup.tsx": [
    {
      name: "sitter setup",
      who: "sitter",
      url: () => "/sitter-profile-setup",
      encoding: "multipart",
      fields: (w) => [
        ["bio", "Walks every day."],
        ["hourlyRate", "15"],
        ["experience", "puppies"],
        ["caresFor", "dog"],
        ["photos", w.image()],
      ],
    },
  ],
  "routes/pet-profile-setup.tsx": [
    {
      name: "pet setup",
      who: "owner",
      url: () => "/pet-profile-setup",
      encoding: "multipart",
      fields: (w) => [
        ["petType", "dog"],
        ["name", "Rex"],
        ["age", "3 years"],
        ["notes", "Friendly"],
        ["energyLevel", "high"],
        ["photos", w.image()],
      ],
    },
  ],
  "routes/pet-edit.tsx": [
    {
      name: "pet edit",
      who: "owner",
      url: (w) => `/pet/${w.petId}/edit`,
      params: (w) => ({ petId: w.petId }),
      fields: () => [
        ["petType", "dog"],
        ["name", "Rex"],
        ["age", "3"],
        ["notes", "Friendly"],
        ["temperament", "playful"],
        ["specialNeeds", ""],
        ["energyLevel", "medium"],
      ],
    },
  ],
  "routes/pet-care-plan.tsx": [
    {
      name: "care plan",
      who: "owner",
      url: (w) => `/pet/${w.petId}/care-plan`,
      params: (w) => ({ petId: w.petId }),
      fields: () => [
        ["feeding", "08:00 80 g\n18:00 80 g"],
        ["medication", "09:00 Apoquel 16 mg"],
        ["walks", "30 min on lead"],
        ["houseNotes", "Keys"],
        ["vetName", "Dr. Vega"],
        ["vetPhone", "+34 910 000 000"],
        ["vetAddress", "Calle Mayor 1"],
        ["emergencyName", "Ana"],
        ["emergencyPhone", "600"],
      ],
    },
  ],
  "routes/pet-delete.tsx": [
    {
      name: "pet delete",
      who: "owner",
      url: (w) => `/pet/${w.sparePetId}/delete`,
      params: (w) => ({ petId: w.sparePetId }),
      fields: () => [],
    },
  ],
  "routes/photos.tsx": [
    {
      name: "photo move",
      who: "owner",
      url: () => "/photos",
      fields: (w) => [
        ["photoId", w.photoId],
        ["move", "main"],
        ["redirectTo", "/profile/edit"],
      ],
    },
    {
      name: "photo upload",
      who: "owner",
      url: () => "/photos",
      encoding: "multipart",
      fields: (w) => [
        ["redirectTo", "/profile/edit"],
        ["photos", w.image()],
      ],
    },
  ],
  "routes/photo-delete.tsx": [
    {
      name: "photo delete",
      who: "owner",
      url: (w) => `/photos/${w.photoId}/delete`,
      params: (w) => ({ photoId: w.photoId }),
      fields: () => [["redirectTo", "/profile/edit"]],
    },
  ],
  "routes/availability.tsx": [
    {
      name: "add availability",
      who: "sitter",
      url: () => "/availability",
      fields: (w) => [
        ["day", w.sitter.day],
        ["startTime", "18:00"],
        ["endTime", "20:00"],
      ],
    },
    {
      name: "save a month of free days",
      who: "sitter",
      url: () => "/availability",
      fields: (w) => [
        ["intent", "month"],
        ["month", w.sitter.day.slice(0, 7)],
        ["free", w.sitter.day],
      ],
    },
  ],
  "routes/availability-delete.tsx": [
    {
      name: "delete availability",
      who: "sitter",
      url: (w) => `/availability/${w.spareSlotId}/delete`,
      params: (w) => ({ slotId: w.spareSlotId }),
      fields: () => [],
    },
  ],
  "routes/booking-request.tsx": [
    {
      name: "booking request",
      who: "owner",
      url: () => "/booking/request",
      fields: (w) => [
        ["id", randomUUID()],
        ["sitterId", w.sitter.id],
        ["petIds", w.petId],
        ["day", w.sitter.day],
        ["startTime", "14:00"],
        ["hours", "1"],
        ["notes", "Gate code 12"],
        ["cancellationPolicy", "flexible"],
      ],
    },
  ],
  "routes/meet-new.tsx": [
    {
      name: "meet & greet proposal",
      who: "owner",
      url: () => "/meet/new",
      fields: (w) => [
        ["id", randomUUID()],
        ["sitterId", w.sitter.id],
        ["day", dayAhead(w.sitter.time_zone, 3)],
        ["time", "17:00"],
        ["place", "elsewhere"],
        ["placeNote", "The park gate"],
      ],
    },
  ],
  "routes/meet-greet.tsx": [
    {
      name: "meet & greet answer",
      who: "sitter",
      url: (w) => `/meet/${w.meetGreetId}`,
      params: (w) => ({ meetId: w.meetGreetId }),
      fields: (w) => [
        ["intent", "move"],
        ["day", dayAhead(w.sitter.time_zone, 4)],
        ["time", "09:30"],
        ["place", "video"],
        ["placeNote", ""],
      ],
    },
  ],
  "routes/booking-walk.tsx": [
    {
      name: "walk request",
      who: "owner",
      url: () => "/booking/walk",
      fields: (w) => [
        ["id", randomUUID()],
        ["sitterId", w.sitter.id],
        ["service", "walk"],
        ["petIds", w.petId],
        ["day", w.sitter.day],
        ["startTime", "15:00"],
        ["notes", "Lead on the hook"],
        ["cancellationPolicy", "flexible"],
      ],
    },
    {
      name: "weekly walk request",
      who: "owner",
      url: () => "/booking/walk",
      fields: (w) => [
        ["id", randomUUID()],
        ["sitterId", w.sitter.id],
        ["service", "walk"],
        ["petIds", w.petId],
        ["day", w.sitter.day],
        ["startTime", "15:00"],
        ["notes", ""],
        ["cancellationPolicy", "flexible"],
        ["repeat", "weekly"],
        ["weekdays", String(weekdayOf(w.sitter.day))],
        ["until", ""],
      ],
    },
  ],
  "routes/series.tsx": [
    {
      name: "weekly care: skip a date",
      who: "owner",
      url: (w) => `/series/${w.seriesId}`,
      params: (w) => ({ seriesId: w.seriesId }),
      fields: (w) => [
        ["intent", "skip"],
        ["day", w.seriesDay],
      ],
    },
    {
      name: "weekly care: change the days or time",
      who: "owner",
      url: (w) => `/series/${w.seriesId}`,
      params: (w) => ({ seriesId: w.seriesId }),
      fields: (w) => [
        ["intent", "propose-change"],
        ["fromDay", w.seriesDay],
        ["weekdays", String(weekdayOf(w.seriesDay))],
        ["startTime", "16:30"],
      ],
    },
  ],
  "routes/booking-stay.tsx": [
    {
      name: "stay request",
      who: "owner",
      url: () => "/booking/stay",
      fields: (w) => [
        ["id", randomUUID()],
        ["sitterId", w.sitter.id],
        ["service", "boarding"],
        ["petIds", w.petId],
        ["firstDay", dayAhead(w.sitter.time_zone, 5)],
        ["dropOff", "10:00"],
        ["lastDay", dayAhead(w.sitter.time_zone, 8)],
        ["pickUp", "18:00"],
        ["notes", "Gate code 12"],
        ["cancellationPolicy", "flexible"],
      ],
    },
  ],
  "routes/booking-action.ts": [
    {
      name: "booking accept",
      who: "sitter",
      url: (w) => `/bookings/${w.paidBookingId}`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: () => [["intent", "accept"]],
    },
  ],
  "routes/report.tsx": [
    {
      name: "report a message",
      who: "owner",
      url: (w) => `/report/message/${w.messageId}`,
      params: (w) => ({ subjectType: "message", subjectId: w.messageId }),
      fields: () => [
        ["reason", "scam"],
        ["details", "Asked me to pay outside the app"],
      ],
    },
  ],
  "routes/profile-privacy.tsx": [
    {
      name: "block",
      who: "owner",
      url: (w) => `/profile/privacy?back=${encodeURIComponent(`/users/${w.both.id}`)}`,
      fields: (w) => [
        ["intent", "block"],
        ["userId", w.both.id],
      ],
    },
    {
      name: "unblock",
      who: "owner",
      url: () => "/profile/privacy",
      fields: (w) => [
        ["intent", "unblock"],
        ["userId", w.blockedId],
      ],
    },
  ],
  "routes/admin-person.tsx": [
    {
      name: "suspend",
      who: "admin",
      url: (w) => `/admin/people/${w.sitter.id}`,
      params: (w) => ({ userId: w.sitter.id }),
      fields: () => [
        ["intent", "suspend"],
        ["reason", "Asked owners to pay outside the app"],
      ],
    },
  ],
  "routes/admin-reports.tsx": [
    {
      name: "report decision",
      who: "admin",
      url: () => "/admin/reports",
      fields: (w) => [
        ["intent", "dismiss"],
        ["reportId", w.reportId],
        ["reason", "Nothing wrong"],
      ],
    },
  ],
  // The booking is requested, not confirmed: every visit action is refused, with its message, changing nothing.
  "routes/booking-visit.tsx": [
    ...(["check-in", "check-out"] as const).map((intent) => ({
      name: `visit ${intent}`,
      who: "sitter" as const,
      url: (w: World) => `/bookings/${w.paidBookingId}/visit`,
      params: (w: World) => ({ bookingId: w.paidBookingId }),
      fields: (): Fields => [["intent", intent]],
    })),
    {
      name: "visit tick",
      who: "sitter",
      url: (w) => `/bookings/${w.paidBookingId}/visit`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: () => [
        ["intent", "tick"],
        ["position", "0"],
      ],
    },
    {
      name: "visit notes",
      who: "sitter",
      url: (w) => `/bookings/${w.paidBookingId}/visit`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: () => [
        ["intent", "details"],
        ["quickNotes", "ate"],
        ["quickNotes", "peed"],
        ["note", "Good boy"],
      ],
    },
    {
      name: "visit typed walk",
      who: "sitter",
      url: (w) => `/bookings/${w.paidBookingId}/visit`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: () => [
        ["intent", "walk"],
        ["distanceKm", "1.5"],
        ["durationMinutes", "30"],
      ],
    },
    {
      name: "visit recorded walk",
      who: "sitter",
      url: (w) => `/bookings/${w.paidBookingId}/visit`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: () => [
        ["intent", "walk"],
        ["route", "[[40.4165,-3.7038,0],[40.4169,-3.7038,60]]"],
      ],
    },
    {
      name: "visit photo",
      who: "sitter",
      encoding: "multipart",
      url: (w) => `/bookings/${w.paidBookingId}/visit`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: (w) => [
        ["intent", "media"],
        ["media", w.image()],
      ],
    },
  ],
  "routes/booking-cancel.tsx": [
    {
      name: "booking cancel",
      who: "owner",
      url: (w) => `/bookings/${w.paidBookingId}/cancel`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: () => [["reason", "Plans changed"]],
    },
  ],
  "routes/booking-problem.tsx": [
    {
      name: "add to a problem",
      who: "sitter",
      url: (w) => `/bookings/${w.disputedBookingId}/problem`,
      params: (w) => ({ bookingId: w.disputedBookingId }),
      fields: (w) => [
        ["intent", "post"],
        ["body", "I stayed the whole hour"],
        ["photos", w.image()],
      ],
      encoding: "multipart",
    },
  ],
  "routes/admin-dispute.tsx": [
    {
      name: "settle a dispute",
      who: "admin",
      url: (w) => `/admin/disputes/${w.disputeId}`,
      params: (w) => ({ disputeId: w.disputeId }),
      fields: () => [
        ["outcome", "partial"],
        ["amount", "14.40"],
        ["note", "Shorter than booked"],
      ],
    },
  ],
  "routes/admin-booking.tsx": [
    {
      name: "operator refund",
      who: "admin",
      url: (w) => `/admin/bookings/${w.completedBookingId}`,
      params: (w) => ({ bookingId: w.completedBookingId }),
      fields: () => [
        ["amount", "5"],
        ["note", "Goodwill"],
      ],
    },
  ],
  "routes/profile-public.tsx": [
    {
      name: "answer a review",
      who: "sitter",
      url: () => "/profile/public",
      fields: (w) => [
        ["reviewId", w.reviewId],
        ["reply", "Thank you"],
      ],
    },
  ],
  "routes/booking-review.tsx": [
    {
      name: "booking review",
      who: "owner",
      url: (w) => `/bookings/${w.paidBookingId}/review`,
      params: (w) => ({ bookingId: w.paidBookingId }),
      fields: () => [
        ["rating", "5"],
        ["comment", "Great"],
      ],
    },
  ],
  "routes/payment.tsx": [
    {
      name: "booking payment",
      who: "owner",
      url: (w) => `/payment/${w.unpaidBookingId}`,
      params: (w) => ({ bookingId: w.unpaidBookingId }),
      fields: () => [
        ["attempt", randomUUID()],
        ["name", "Ana"],
        ["number", "4242 4242 4242 4242"],
        ["expiry", "12/30"],
        ["cvc", "123"],
      ],
    },
    {
      name: "booking payment with a saved card",
      who: "owner",
      url: (w) => `/payment/${w.unpaidBookingId}`,
      params: (w) => ({ bookingId: w.unpaidBookingId }),
      fields: (w) => [
        ["intent", "saved-card"],
        ["cardId", w.paymentMethodId],
      ],
    },
  ],
  "routes/payment-card-entry.ts": [
    {
      name: "card entry",
      who: "owner",
      url: (w) => `/payment/${w.unpaidBookingId}/card-entry`,
      params: (w) => ({ bookingId: w.unpaidBookingId }),
      fields: () => [["attempt", randomUUID()]],
    },
  ],
  "routes/subscription-card-entry.ts": [
    {
      name: "subscription card entry",
      who: "owner",
      url: () => "/subscription/card-entry",
      fields: () => [["attempt", randomUUID()]],
    },
  ],
  "routes/messages.tsx": [
    {
      name: "message",
      who: "owner",
      url: () => "/messages",
      fields: (w) => [
        ["conversationId", w.conversationId],
        ["body", "Hello"],
      ],
    },
    {
      name: "message with a photo",
      who: "owner",
      url: () => "/messages",
      encoding: "multipart",
      fields: (w) => [
        ["conversationId", w.conversationId],
        ["body", ""],
        ["attachment", w.image()],
      ],
    },
  ],
  "routes/messages-send.tsx": [
    {
      name: "message with a photo, with progress",
      who: "owner",
      url: () => "/messages/send",
      encoding: "multipart",
      fields: (w) => [
        ["conversationId", w.conversationId],
        ["body", ""],
        ["attachment", w.image()],
      ],
    },
    {
      name: "message by the progress route",
      who: "owner",
      url: () => "/messages/send",
      fields: (w) => [
        ["conversationId", w.conversationId],
        ["body", "Hello"],
      ],
    },
  ],
  "routes/notifications.tsx": [
    {
      name: "open notification",
      who: "owner",
      url: () => "/notifications",
      fields: (w) => [
        ["intent", "open"],
        ["id", w.notificationId],
      ],
    },
    {
      name: "mark all read",
      who: "owner",
      url: () => "/notifications",
      fields: () => [
        ["intent", "mark-all"],
        ["tab", "bookings"],
      ],
    },
    {
      name: "sounds",
      who: "owner",
      url: () => "/notifications",
      fields: () => [
        ["intent", "sounds"],
        ["sounds", "on"],
      ],
    },
  ],
  "routes/subscription-checkout.tsx": [
    {
      name: "subscription checkout",
      who: "sitter",
      url: () => "/subscription/checkout/monthly",
      params: () => ({ planId: "monthly" }),
      fields: (w) => [
        ["attempt", randomUUID()],
        ["name", "Ana"],
        ["email", w.sitter.email],
        ["number", "4242424242424242"],
        ["expiry", "12/30"],
        ["cvc", "123"],
      ],
    },
  ],
  "routes/subscription-card-new.tsx": [
    {
      name: "add card",
      who: "owner",
      url: () => "/subscription/cards/new",
      fields: () => [
        ["attempt", randomUUID()],
        ["name", "Ana"],
        ["number", "4242424242424242"],
        ["expiry", "12/30"],
        ["cvc", "123"],
      ],
    },
  ],
  "routes/settings.tsx": [
    {
      name: "change email",
      who: "owner",
      url: () => "/settings",
      fields: () => [
        ["intent", "change-email"],
        ["newEmail", `${randomUUID()}@example.com`],
        ["password", PASSWORD],
      ],
    },
    {
      name: "notification preferences",
      who: "owner",
      url: () => "/settings",
      fields: () => [
        ["intent", "notifications"],
        ["messages", "email"],
        ["bookings", "in-app"],
        ["reviews", "email"],
        ["marketing", "none"],
      ],
    },
    {
      name: "time zone",
      who: "owner",
      url: () => "/settings",
      fields: () => [
        ["intent", "time-zone"],
        ["timeZone", "Europe/Paris"],
      ],
    },
    { name: "data export", who: "owner", url: () => "/settings", fields: () => [["intent", "export"]] },
    {
      name: "delete account",
      who: "owner",
      url: () => "/settings",
      fields: () => [
        ["intent", "delete-account"],
        ["password", PASSWORD],
      ],
    },
  ],
  "routes/settings-push.ts": [
    {
      name: "turn on push for this device",
      who: "both",
      url: () => "/settings/push",
      fields: () => [
        ["intent", "subscribe"],
        ["endpoint", pushEndpoint()],
        ["p256dh", createECDH("prime256v1").generateKeys("base64url")],
        ["auth", randomBytes(16).toString("base64url")],
      ],
    },
    {
      name: "turn off push for this device",
      who: "both",
      url: () => "/settings/push",
      fields: () => [
        ["intent", "unsubscribe"],
        ["endpoint", pushEndpoint()],
      ],
    },
    {
      name: "send a test push",
      who: "both",
      url: () => "/settings/push",
      fields: () => [
        ["intent", "test"],
        ["endpoint", pushEndpoint()],
      ],
    },
  ],
  "routes/settings-calendar.ts": [
    {
      name: "make a calendar address",
      who: "both",
      url: () => "/settings/calendar",
      fields: () => [["intent", "renew"]],
    },
    {
      name: "turn off the calendar address",
      who: "both",
      url: () => "/settings/calendar",
      fields: () => [["intent", "stop"]],
    },
  ],
  "routes/settings-email-confirm.tsx": [
    {
      name: "confirm email change",
      who: "anonymous",
      url: () => "/settings/email/confirm",
      fields: (w) => [["token", w.emailChangeToken]],
    },
  ],
  "routes/unsubscribe.tsx": [
    {
      name: "unsubscribe",
      who: "anonymous",
      url: () => "/unsubscribe",
      fields: (w) => [["token", unsubscribeToken(w.owner.id, "bookings")]],
    },
    {
      name: "one-click unsubscribe",
      who: "anonymous",
      url: (w) => `/unsubscribe?token=${encodeURIComponent(unsubscribeToken(w.owner.id, "reviews"))}`,
      fields: () => [["List-Unsubscribe", "One-Click"]],
    },
  ],
  "routes/subscription.tsx": [
    {
      name: "subscription cancel",
      who: "owner",
      url: () => "/subscription",
      fields: (w) => [
        ["intent", "cancel"],
        ["subscriptionId", w.subscriptionId],
      ],
    },
    {
      name: "default card",
      who: "owner",
      url: () => "/subscription",
      fields: (w) => [
        ["intent", "set-default"],
        ["methodId", w.paymentMethodId],
      ],
    },
  ],
};

/** Strings that have broken web apps before. */
const MEGABYTE = "a".repeat(1024 * 1024);
const HOSTILE_TEXT = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "</textarea><script>alert(1)</script>",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "1; SELECT * FROM sessions",
  "\u0000",
  "a\u0000b",
  "\u0001\u0002\u0003\u0007\u0008\u000b\u000c\u001b\u007f",
  "\r\nSet-Cookie: x=1",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "\u202e\u200b\ufeff",
  "𝕏🐕‍🦺",
  "{{7*7}}${7*7}",
  "../../etc/passwd",
  "//evil.example.com",
  "https://evil.example.com",
  "__proto__",
  "NaN",
  "Infinity",
  "-1",
  "1e309",
  "0x10",
  "99999999999999999999999",
  "[]",
  "{}",
  '{"$gt":""}',
  "null",
  "undefined",
  "true",
  " ",
  "",
  MEGABYTE,
  `<script>${MEGABYTE}</script>`,
];

const hostileText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
      maxLength: 10,
    }),
  },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double()).map(String) },
);

/** Raw bytes of a urlencoded body: broken percent escapes and invalid UTF-8 that no browser sends. */
const RAW_VALUES = ["%", "%zz", "%ED%A0%80", "%FF%FE", "%C0%AF", "%00", "a%2", "%E2%82"];

type Mutation =
  | { kind: "replace"; field: number; value: string }
  | { kind: "raw"; field: number; value: string }
  | { kind: "drop"; field: number }
  | { kind: "repeat"; field: number; value: string }
  | { kind: "rename"; field: number; suffix: string }
  | { kind: "extra"; key: string; value: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("replace" as const), field: fc.nat(), value: hostileText }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("raw" as const), field: fc.nat(), value: fc.constantFrom(...RAW_VALUES) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("drop" as const), field: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("repeat" as const), field: fc.nat(), value: hostileText }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("rename" as const),
      field: fc.nat(),
      suffix: fc.constantFrom("[0]", "[]", ".x", "[__proto__]"),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("extra" as const),
      key: fc.constantFrom(
        "__proto__",
        "constructor",
        "prototype",
        "intent",
        "id",
        "user_id",
        "role",
        "$where",
        "a[b][c]",
        "\u0000",
        "",
      ),
      value: hostileText,
    }),
  },
);

/** How the body goes: mostly as the page posts it, sometimes in a shape it never sends. */
type Body = "as-posted" | "urlencoded" | "multipart" | "json" | "text" | "empty" | "none";
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 10, arbitrary: fc.constant("as-posted" as const) },
  { weight: 1, arbitrary: fc.constantFrom<Body>("urlencoded", "multipart", "json", "text", "empty", "none") },
);

interface Submission {
  mutations: Mutation[];
  body: Body;
  /** The first field's value when the body is JSON: a number, an array, an object… */
  jsonValue: unknown;
}
const submission: fc.Arbitrary<Submission> = fc.record({
  mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
  body,
  jsonValue: fc.constantFrom<unknown>(1, -1, [], ["a", "b"], {}, { $gt: "" }, null, true, Number.MAX_VALUE),
});

/** Submissions every form gets besides the random ones: cases that once gave a 500 or stored a NUL. */
const EXAMPLES: Submission[] = [
  { mutations: [{ kind: "replace", field: 0, value: "__proto__" }], body: "as-posted", jsonValue: 1 },
  ...[0, 1, 2].map((field): Submission => ({
    mutations: [{ kind: "replace", field, value: "a\u0000b" }],
    body: "as-posted",
    jsonValue: 1,
  })),
  { mutations: [{ kind: "replace", field: 1, value: MEGABYTE }], body: "as-posted", jsonValue: 1 },
  { mutations: [{ kind: "extra", key: "constructor", value: "x" }], body: "json", jsonValue: ["a", "b"] },
  { mutations: [{ kind: "drop", field: 0 }], body: "empty", jsonValue: 1 },
];

type Part = { key: string; value: string | File; raw?: boolean };

function mutate(valid: Fields, mutations: Mutation[]): Part[] {
  let parts: Part[] = valid.map(([key, value]) => ({ key, value }));
  for (const change of mutations) {
    if (change.kind === "extra") {
      parts.push({ key: change.key, value: change.value });
      continue;
    }
    if (parts.length === 0) continue;
    const index = change.field % parts.length;
    const part = parts[index]!;
    if (change.kind === "replace") parts[index] = { key: part.key, value: change.value };
    else if (change.kind === "raw") parts[index] = { key: part.key, value: change.value, raw: true };
    else if (change.kind === "drop") parts = parts.filter((_, at) => at !== index);
    else if (change.kind === "repeat") parts.splice(index + 1, 0, { key: part.key, value: change.value });
    else parts[index] = { ...part, key: `${part.key}${change.suffix}` };
  }
  return parts;
}

/** What a browser sends for a lone surrogate: the replacement character. */
const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

function requestFor(
  url: string,
  parts: Part[],
  encoding: Encoding,
  shape: Body,
  jsonValue: unknown,
  headers: Record<string, string>,
): Request {
  const kind = shape === "as-posted" ? encoding : shape;
  const init: RequestInit & { headers: Record<string, string> } = { method: "POST", headers: { ...headers } };
  if (kind === "urlencoded") {
    init.headers["Content-Type"] = "application/x-www-form-urlencoded";
    init.body = parts
      .filter((part) => typeof part.value === "string")
      .map(
        (part) =>
          `${encodeURIComponent(wellFormed(part.key))}=${part.raw ? part.value : encodeURIComponent(wellFormed(part.value as string))}`,
      )
      .join("&");
  } else if (kind === "multipart") {
    const form = new FormData();
    for (const part of parts) form.append(part.key, part.value);
    init.body = form;
  } else if (kind === "json") {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(
      Object.fromEntries(
        parts.map((part, at) => [
          part.key,
          at === 0 ? jsonValue : typeof part.value === "string" ? part.value : "file",
        ]),
      ),
    );
  } else if (kind === "text") {
    init.headers["Content-Type"] = "text/plain";
    init.body = parts.map((part) => `${part.key}=${typeof part.value === "string" ? part.value : "file"}`).join("\n");
  } else if (kind === "empty") {
    init.headers["Content-Type"] =
      encoding === "multipart" ? "multipart/form-data; boundary=----x" : "application/x-www-form-urlencoded";
    init.body = "";
  }
  return new Request(`http://localhost${url}`, init);
}

interface Answer {
  status: number;
  /** A 4xx, or a redirect that carries an error toast. */
  refused: boolean;
  /** The error messages the answer carries (translation keys or text). */
  messages: string[];
}

const isDataWithInit = (value: unknown): value is { data: unknown; init?: { status?: number } } =>
  !!value && typeof value === "object" && "data" in value && "init" in value;

/** The messages under `error`, `formErrors` and `message` anywhere in an action's data. */
function messagesIn(value: unknown, underError = false): string[] {
  if (typeof value === "string") return underError && value ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => messagesIn(item, underError));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) =>
      messagesIn(item, underError || key === "error" || key === "message" || key === "formErrors"),
    );
  }
  return [];
}

async function answerOf(run: () => Promise<unknown>): Promise<Answer> {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    if (!(thrown instanceof Response) && !isDataWithInit(thrown)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response && result.status >= 300 && result.status < 400) {
    const cookies = result.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    const { toast } = await takeToast(new Request("http://localhost/", { headers: { Cookie: cookies } }));
    const refused = toast?.type === "error";
    return {
      status: result.status,
      refused,
      messages: refused ? [toast.title, ...(toast.description ? [toast.description] : [])] : [],
    };
  }
  if (result instanceof Response) {
    const text = await result.text();
    let messages = text ? [text] : [];
    if (result.headers.get("Content-Type")?.includes("json")) messages = messagesIn(JSON.parse(text) as unknown);
    return { status: result.status, refused: result.status >= 400, messages };
  }
  if (isDataWithInit(result)) {
    const data = typeof result.data === "string" ? { message: result.data } : result.data;
    const status = result.init?.status ?? 200;
    return { status, refused: status >= 400, messages: messagesIn(data) };
  }
  return { status: 200, refused: false, messages: messagesIn(result) };
}

/** Every translation key of the English locale, as `namespace:key`. */
const LOCALE_DIR = path.resolve("locales/en");
const translationKeys = new Set(
  readdirSync(LOCALE_DIR).flatMap((file) => {
    const namespace = file.replace(/\.json$/, "");
    const flatten = (value: unknown, prefix: string): string[] =>
      value && typeof value === "object"
        ? Object.entries(value).flatMap(([key, item]) => flatten(item, prefix ? `${prefix}.${key}` : key))
        : [`${namespace}:${prefix}`];
    return flatten(JSON.parse(readFileSync(path.join(LOCALE_DIR, file), "utf8")), "");
  }),
);
const looksLikeKey = (message: string) => /^([a-z]+:)?[a-zA-Z]+(\.[\w-]+)+$/.test(message);
const isTranslated = (key: string) =>
  key.includes(":")
    ? translationKeys.has(key) ||
      translationKeys.has(key.replace(/_[a-z]+$/, "")) ||
      translationKeys.has(`${key}_other`)
    : [...translationKeys].some((known) => known.endsWith(`:${key}`));

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
const controlsIn = (snapshot: string) => snapshot.match(CONTROL)?.length ?? 0;

async function snapshot(): Promise<string> {
  const rows = await Promise.all(WATCHED.map((table) => db.selectFrom(table).selectAll().execute()));
  return JSON.stringify(rows);
}

let png: Uint8Array<ArrayBuffer>;

async function world() {
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
    image: () => new File([png], "photo.png", { type: "image/png" }),
  };
}

function routeFiles(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [entry.file, ...routeFiles(entry.children ?? [])]);
}

type RouteModule = { action?: (args: unknown) => Promise<unknown> };
const load = (file: string) => import(/* @vite-ignore */ `./${file}`) as Promise<RouteModule>;

beforeAll(async () => {
  png = new Uint8Array(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: "#c84" } })
      .png()
      .toBuffer(),
  );
});

describe("hostile input", () => {
  it("covers every route that has an action", async () => {
    const files = [...new Set(routeFiles(routes))];
    const withAction: string[] = [];
    for (const file of files) if ((await load(file)).action) withAction.push(file);
    expect(
      withAction.filter((file) => !(file in FORMS)),
      "routes with an action missing from FORMS",
    ).toEqual([]);
    expect(
      Object.keys(FORMS).filter((file) => !withAction.includes(file)),
      "FORMS entries without an action",
    ).toEqual([]);
  });

  for (const [file, forms] of Object.entries(FORMS)) {
    for (const form of forms) {
      it(`${form.name} (${file}) answers hostile submissions below 500; a refusal has a message and changes nothing`, async () => {
        const w = await world();
        const { action } = await load(file);
        const userId = form.who === "anonymous" ? null : w[form.who].id;
        try {
          await fc.assert(
            fc.asyncProperty(submission, async ({ mutations, body: shape, jsonValue }) => {
              const cookie = userId ? (await startSession(userId)).split(";")[0]! : null;
              const headers = {
                ...(cookie ? { Cookie: cookie } : {}),
                Origin: "http://localhost",
                ...form.headers?.(w),
              };
              const parts = mutate(form.fields(w), mutations);
              const request = requestFor(form.url(w), parts, form.encoding ?? "urlencoded", shape, jsonValue, headers);
              const before = await snapshot();
              const answer = await answerOf(() =>
                action!({
                  request,
                  params: form.params?.(w) ?? {},
                  context: { clientAddress: randomUUID(), cspNonce: "n" },
                }),
              );
              expect(answer.status, "status").toBeLessThan(500);
              if (answer.refused && !(form.errorToastIsOutcome && answer.status < 400)) {
                expect(answer.messages.length, `a refusal (${answer.status}) without a message`).toBeGreaterThan(0);
                const untranslated = answer.messages.filter(
                  (message) => looksLikeKey(message) && !isTranslated(message),
                );
                expect(untranslated, "messages missing from locales/en").toEqual([]);
                expect(await snapshot(), "a refused submission changed the database").toBe(before);
              } else {
                expect(controlsIn(await snapshot()), "control characters stored by an accepted submission").toBe(
                  controlsIn(before),
                );
              }
              const markup = await db
                .selectFrom("email_outbox")
                .select("html_body")
                .where("html_body", "like", "%<script%")
                .executeTakeFirst();
              expect(markup?.html_body, "an email carries markup from a submission").toBeUndefined();
            }),
            {
              numRuns: EXAMPLES.length + RUNS,
              seed: SEED,
              endOnFailure: true,
              examples: EXAMPLES.map((example): [Submission] => [example]),
            },
          );
        } finally {
          resetClock();
        }
      });
    }
  }
});
