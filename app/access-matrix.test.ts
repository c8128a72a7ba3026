import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RouteConfigEntry } from "@remix-run/route-config";
import { db } from "~/platform/db.server";
import { startSession } from "~/platform/session.server";
import { person, photoOf } from "~/testing/people";
import { ownerWithPet, sitterWithSlot, requested, card, premiumWithCard, dayAhead } from "~/testing/bookings";
import { proposeMeetGreet } from "~/features/meet-greets/index.server";
import { actOnSeries, requestSeries, weekdayOf } from "~/features/series/index.server";
import { payForBooking } from "~/features/bookings/index.server";
import { ensureConversation, sendMessage } from "~/features/messages/index.server";
import { requestExport } from "~/features/account/index.server";
import routes from "./routes";

/**
 * Every loader, action and resource route, asked by a second person for the first person's
 * records: each answers 404 (never 403, so nothing tells that the record exists) and changes
 * nothing. Every route module must be in this table, either with its requests or with the
 * reason it holds nobody's private records; a new route fails this test until it joins.
 */

type Ids = Awaited<ReturnType<typeof world>>;
type Probe = {
  method: "GET" | "POST";
  url: (ids: Ids) => string;
  params?: (ids: Ids) => Record<string, string>;
  form?: (ids: Ids) => Record<string, string>;
};

const MATRIX: Record<string, Probe[]> = {
  // The console: every page and action answers 404 to anyone who is not an operator.
  "routes/admin-layout.tsx": [{ method: "GET", url: () => "/admin" }],
  "routes/admin-overview.tsx": [{ method: "GET", url: () => "/admin" }],
  "routes/admin-people.tsx": [{ method: "GET", url: (ids) => `/admin/people?q=${ids.ownerId}` }],
  "routes/admin-person.tsx": [
    { method: "GET", url: (ids) => `/admin/people/${ids.ownerId}`, params: (ids) => ({ userId: ids.ownerId }) },
    ...["suspend", "lift"].map((intent) => ({
      method: "POST" as const,
      url: (ids: Ids) => `/admin/people/${ids.ownerId}`,
      params: (ids: Ids) => ({ userId: ids.ownerId }),
      form: () => ({ intent, reason: "because" }),
    })),
  ],
  "routes/admin-reports.tsx": [
    { method: "GET", url: () => "/admin/reports" },
    ...["dismiss", "hide", "warn", "suspend"].map((intent) => ({
      method: "POST" as const,
      url: () => "/admin/reports",
      form: (ids: Ids) => ({ intent, reportId: ids.reportId, reason: "because" }),
    })),
  ],
  "routes/admin-audit.tsx": [{ method: "GET", url: () => "/admin/audit" }],
  // A message can be reported only by the two people of its conversation.
  "routes/report.tsx": [
    {
      method: "GET",
      url: (ids) => `/report/message/${ids.messageId}`,
      params: (ids) => ({ subjectType: "message", subjectId: ids.messageId }),
    },
    {
      method: "POST",
      url: (ids) => `/report/message/${ids.messageId}`,
      params: (ids) => ({ subjectType: "message", subjectId: ids.messageId }),
      form: () => ({ reason: "scam" }),
    },
  ],
  // Unblocking names a block of the asker's own; blocking is the asker's own choice (features/safety/safety.test.ts).
  "routes/profile-privacy.tsx": [
    { method: "POST", url: () => "/profile/privacy", form: (ids) => ({ intent: "unblock", userId: ids.ownerId }) },
  ],
  // The console answers 404 to anyone but an operator, even for records that exist.
  "routes/admin-disputes.tsx": [{ method: "GET", url: () => "/admin/disputes" }],
  "routes/admin-dispute.tsx": [
    {
      method: "GET",
      url: (ids) => `/admin/disputes/${ids.disputeId}`,
      params: (ids) => ({ disputeId: ids.disputeId }),
    },
    {
      method: "POST",
      url: (ids) => `/admin/disputes/${ids.disputeId}`,
      params: (ids) => ({ disputeId: ids.disputeId }),
      form: () => ({ outcome: "refund", note: "mine now" }),
    },
  ],
  "routes/admin-bookings.tsx": [{ method: "GET", url: (ids) => `/admin/bookings?q=${ids.bookingId}` }],
  "routes/admin-booking.tsx": [
    {
      method: "GET",
      url: (ids) => `/admin/bookings/${ids.bookingId}`,
      params: (ids) => ({ bookingId: ids.bookingId }),
    },
    {
      method: "POST",
      url: (ids) => `/admin/bookings/${ids.bookingId}`,
      params: (ids) => ({ bookingId: ids.bookingId }),
      form: () => ({ amount: "1", note: "mine now" }),
    },
  ],
  "routes/booking-problem.tsx": [
    {
      method: "GET",
      url: (ids) => `/bookings/${ids.bookingId}/problem`,
      params: (ids) => ({ bookingId: ids.bookingId }),
    },
    {
      method: "POST",
      url: (ids) => `/bookings/${ids.bookingId}/problem`,
      params: (ids) => ({ bookingId: ids.bookingId }),
      form: () => ({ intent: "report", reason: "other", details: "mine now" }),
    },
    {
      method: "POST",
      url: (ids) => `/bookings/${ids.bookingId}/problem`,
      params: (ids) => ({ bookingId: ids.bookingId }),
      form: () => ({ intent: "post", body: "mine now" }),
    },
  ],
  // Only the person reviewed answers a review.
  "routes/profile-public.tsx": [
    { method: "POST", url: () => "/profile/public", form: (ids) => ({ reviewId: ids.reviewId, reply: "mine now" }) },
  ],
  "routes/dashboard-match.tsx": [
    { method: "GET", url: (ids) => `/dashboard/match/${ids.matchId}`, params: (ids) => ({ matchId: ids.matchId }) },
  ],
  "routes/booking-action.ts": ["accept", "decline", "finish", "release"].map((intent) => ({
    method: "POST" as const,
    url: (ids: Ids) => `/bookings/${ids.bookingId}`,
    params: (ids: Ids) => ({ bookingId: ids.bookingId }),
    form: () => ({ intent }),
  })),
  "routes/booking-cancel.tsx": [
    {
      method: "GET",
      url: (ids) => `/bookings/${ids.bookingId}/cancel`,
      params: (ids) => ({ bookingId: ids.bookingId }),
    },
    {
      method: "POST",
      url: (ids) => `/bookings/${ids.bookingId}/cancel`,
      params: (ids) => ({ bookingId: ids.bookingId }),
      form: () => ({ reason: "mine now" }),
    },
  ],
  "routes/booking-review.tsx": [
    {
      method: "GET",
      url: (ids) => `/bookings/${ids.bookingId}/review`,
      params: (ids) => ({ bookingId: ids.bookingId }),
    },
    {
      method: "POST",
      url: (ids) => `/bookings/${ids.bookingId}/review`,
      params: (ids) => ({ bookingId: ids.bookingId }),
      form: () => ({ rating: "1", comment: "x" }),
    },
  ],
  "routes/meet-greet.tsx": [
    { method: "GET", url: (ids) => `/meet/${ids.meetGreetId}`, params: (ids) => ({ meetId: ids.meetGreetId }) },
    ...["accept", "decline", "cancel"].map((intent) => ({
      method: "POST" as const,
      url: (ids: Ids) => `/meet/${ids.meetGreetId}`,
      params: (ids: Ids) => ({ meetId: ids.meetGreetId }),
      form: () => ({ intent }),
    })),
    {
      method: "POST",
      url: (ids) => `/meet/${ids.meetGreetId}`,
      params: (ids) => ({ meetId: ids.meetGreetId }),
      form: () => ({ intent: "move", day: "2031-01-10", time: "10:00", place: "video", placeNote: "" }),
    },
  ],
  "routes/series.tsx": [
    { method: "GET", url: (ids) => `/series/${ids.seriesId}`, params: (ids) => ({ seriesId: ids.seriesId }) },
    ...["accept", "decline", "withdraw", "end", "accept-change", "decline-change", "withdraw-change"].map((intent) => ({
      method: "POST" as const,
      url: (ids: Ids) => `/series/${ids.seriesId}`,
      params: (ids: Ids) => ({ seriesId: ids.seriesId }),
      form: () => ({ intent }),
    })),
    {
      method: "POST",
      url: (ids) => `/series/${ids.seriesId}`,
      params: (ids) => ({ seriesId: ids.seriesId }),
      form: (ids) => ({ intent: "skip", day: ids.seriesDay }),
    },
    {
      method: "POST",
      url: (ids) => `/series/${ids.seriesId}`,
      params: (ids) => ({ seriesId: ids.seriesId }),
      form: (ids) => ({
        intent: "propose-change",
        fromDay: ids.seriesDay,
        weekdays: String(weekdayOf(ids.seriesDay)),
        startTime: "11:00",
      }),
    },
  ],
  "routes/booking-visit.tsx": [
    {
      method: "GET",
      url: (ids) => `/bookings/${ids.bookingId}/visit`,
      params: (ids) => ({ bookingId: ids.bookingId }),
    },
    ...(
      [
        { intent: "check-in" },
        { intent: "tick", position: "0" },
        { intent: "details", note: "mine now" },
        { intent: "walk", distanceKm: "1", durationMinutes: "10" },
        { intent: "walk", route: "[[40.4165,-3.7038,0],[40.4169,-3.7038,60]]" },
        { intent: "check-out" },
      ] as Record<string, string>[]
    ).map((form) => ({
      method: "POST" as const,
      url: (ids: Ids) => `/bookings/${ids.bookingId}/visit`,
      params: (ids: Ids) => ({ bookingId: ids.bookingId }),
      form: () => form,
    })),
  ],
  "routes/payment.tsx": [
    { method: "GET", url: (ids) => `/payment/${ids.bookingId}`, params: (ids) => ({ bookingId: ids.bookingId }) },
    {
      method: "POST",
      url: (ids) => `/payment/${ids.bookingId}`,
      params: (ids) => ({ bookingId: ids.bookingId }),
      form: () => ({ attempt: randomUUID(), name: "X", number: "4242424242424242", expiry: "12/30", cvc: "123" }),
    },
    {
      method: "POST",
      url: (ids) => `/payment/${ids.bookingId}`,
      params: (ids) => ({ bookingId: ids.bookingId }),
      form: (ids) => ({ intent: "saved-card", cardId: ids.paymentMethodId }),
    },
  ],
  "routes/pet-edit.tsx": [
    { method: "GET", url: (ids) => `/pet/${ids.petId}/edit`, params: (ids) => ({ petId: ids.petId }) },
    {
      method: "POST",
      url: (ids) => `/pet/${ids.petId}/edit`,
      params: (ids) => ({ petId: ids.petId }),
      form: () => ({ name: "Mine", age: "1", petType: "dog" }),
    },
  ],
  "routes/pet-care-plan.tsx": [
    { method: "GET", url: (ids) => `/pet/${ids.petId}/care-plan`, params: (ids) => ({ petId: ids.petId }) },
    {
      method: "POST",
      url: (ids) => `/pet/${ids.petId}/care-plan`,
      params: (ids) => ({ petId: ids.petId }),
      form: () => ({ feeding: "mine now", medication: "", walks: "" }),
    },
  ],
  "routes/pet-delete.tsx": [
    { method: "GET", url: (ids) => `/pet/${ids.petId}/delete`, params: (ids) => ({ petId: ids.petId }) },
    { method: "POST", url: (ids) => `/pet/${ids.petId}/delete`, params: (ids) => ({ petId: ids.petId }) },
  ],
  "routes/photo-delete.tsx": [
    { method: "GET", url: (ids) => `/photos/${ids.photoId}/delete`, params: (ids) => ({ photoId: ids.photoId }) },
    { method: "POST", url: (ids) => `/photos/${ids.photoId}/delete`, params: (ids) => ({ photoId: ids.photoId }) },
  ],
  "routes/photos.tsx": [
    { method: "POST", url: () => "/photos", form: (ids) => ({ photoId: ids.photoId, move: "main" }) },
  ],
  "routes/availability-delete.tsx": [
    { method: "GET", url: (ids) => `/availability/${ids.slotId}/delete`, params: (ids) => ({ slotId: ids.slotId }) },
    { method: "POST", url: (ids) => `/availability/${ids.slotId}/delete`, params: (ids) => ({ slotId: ids.slotId }) },
  ],
  "routes/settings-export.ts": [
    { method: "GET", url: (ids) => `/settings/export/${ids.exportId}`, params: (ids) => ({ exportId: ids.exportId }) },
  ],
  "routes/media.$key.ts": [
    { method: "GET", url: (ids) => `/media/${ids.attachmentKey}`, params: (ids) => ({ key: ids.attachmentKey }) },
  ],
  "routes/messages.tsx": [
    { method: "GET", url: (ids) => `/messages?c=${ids.conversationId}` },
    { method: "GET", url: (ids) => `/messages?userId=${ids.ownerId}` },
    {
      method: "POST",
      url: () => "/messages",
      form: (ids) => ({ conversationId: ids.conversationId, body: "hello from outside" }),
    },
    { method: "GET", url: (ids) => `/messages?c=${ids.conversationId}&before=999999` },
  ],
  "routes/messages-send.tsx": [
    {
      method: "POST",
      url: () => "/messages/send",
      form: (ids) => ({ conversationId: ids.conversationId, body: "hello from outside" }),
    },
  ],
  "routes/notifications.tsx": [
    { method: "POST", url: () => "/notifications", form: (ids) => ({ intent: "open", id: ids.notificationId }) },
  ],
  "routes/payment-card-entry.ts": [
    {
      method: "POST",
      url: (ids) => `/payment/${ids.bookingId}/card-entry`,
      params: (ids) => ({ bookingId: ids.bookingId }),
      form: () => ({ attempt: randomUUID() }),
    },
  ],
  "routes/subscription.tsx": [
    ...["cancel", "reactivate", "keep-plan", "retry"].map((intent) => ({
      method: "POST" as const,
      url: () => "/subscription",
      form: (ids: Ids) => ({ intent, subscriptionId: ids.subscriptionId }),
    })),
    ...["set-default", "remove-card"].map((intent) => ({
      method: "POST" as const,
      url: () => "/subscription",
      form: (ids: Ids) => ({ intent, methodId: ids.paymentMethodId }),
    })),
  ],
  // Plans are public and a checkout subscribes the asker; only finishing a checkout names a subscription.
  "routes/subscription-checkout.tsx": [
    {
      method: "POST",
      url: () => "/subscription/checkout/monthly",
      params: () => ({ planId: "monthly" }),
      form: (ids) => ({ intent: "stripe-confirmed", subscriptionId: ids.subscriptionId, attempt: randomUUID() }),
    },
  ],
};

/** Routes that hold nobody else's records, and why. */
const EXEMPT: Record<string, string> = {
  "routes/index.tsx": "redirects only",
  "routes/welcome.tsx": "public",
  "routes/select-role.tsx": "public",
  "routes/auth.tsx": "public sign-in and sign-up",
  "routes/auth-callback.tsx": "the token in the link is the credential",
  "routes/forgot-password.tsx": "public; the same answer for every email",
  "routes/reset-password.tsx": "the token in the link is the credential",
  "routes/logout.tsx": "ends the asker's own session",
  "routes/settings-language.tsx": "the asker's own cookie",
  "routes/settings-push.ts":
    "the asker's own devices: a change or test names an endpoint and touches it only when it is theirs (push/push.test.ts)",
  "routes/settings-calendar.ts": "makes, replaces or turns off the asker's own calendar address",
  "routes/calendar-feed.ts":
    "the secret address is the credential; it lists only its owner's bookings (features/calendar/calendar.test.ts)",
  "routes/healthz.ts": "public health check",
  "routes/metrics.ts": "aggregate figures only, behind METRICS_TOKEN (platform/metrics.test.ts)",
  "routes/locales.ts": "public translations",
  "routes/dev-outbox.tsx":
    "development, tests and demo only; each visitor sees only their own emails (features/auth/outbox-access.test.ts)",
  "routes/dev-clock.ts": "development and tests only",
  "routes/events.ts": "streams only the asker's own events",
  "routes/app-layout.tsx": "the asker's own counts",
  "routes/dashboard.tsx": "the asker's own deck; card ids are checked in deck-actions.test.ts",
  "routes/dashboard-filters.tsx": "the asker's own filters",
  "routes/bookings.tsx": "lists the asker's own bookings",
  "routes/booking-request.tsx": "creates the asker's own booking; pet and sitter checks in bookings.test.ts",
  "routes/booking-stay.tsx": "creates the asker's own stay; pet, sitter and service checks in stays.test.ts",
  "routes/booking-walk.tsx": "creates the asker's own walk or visit; pet, sitter and service checks in walks.test.ts",
  "routes/meet-new.tsx": "creates the asker's own proposal; sitter and block checks in meet-greets.test.ts",
  "routes/profile.tsx": "the asker's own profile",
  "routes/pet-profile-setup.tsx": "creates the asker's own pet",
  "routes/sitter-profile-setup.tsx": "the asker's own profile",
  "routes/profile-edit.tsx": "the asker's own profile",
  "routes/user-profile.tsx": "public profiles are meant to be seen by members",
  "routes/availability.tsx": "the asker's own slots and free days: no sitter id is read from the request",
  "routes/not-found.tsx": "the 404 page",
  "routes/offline.tsx": "a static page for the service worker",
  "routes/webhooks-stripe.ts": "Stripe's signature is the credential (stripe-webhooks.test.ts)",
  "routes/dashboard-likes.tsx": "lists who liked the asker",
  "routes/subscription-card-entry.ts": "starts a card entry on the asker's own customer",
  "routes/subscription-card-new.tsx": "adds a card for the asker",
  "routes/terms.tsx": "public text",
  "routes/privacy.tsx": "public text",
  "routes/cookies.tsx": "public text",
  "routes/imprint.tsx": "public: the operator's published details",
  "routes/help.tsx": "public text",
  "routes/settings.tsx":
    "changes, exports and deletes only the asker's own account, after their password (features/account tests)",
  "routes/settings-email-confirm.tsx": "the token in the link is the credential",
  "routes/unsubscribe.tsx":
    "the signed token is the credential; forged or moved tokens are refused (features/account/account.test.ts)",
};

function routeFiles(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [entry.file, ...routeFiles(entry.children ?? [])]);
}

async function world() {
  const owner = await ownerWithPet();
  const sitter = await sitterWithSlot({ daysAhead: 2 });
  const booking = await requested(owner, sitter);
  await payForBooking(owner, booking.id, card(), randomUUID());
  const [a, b] = owner.id < sitter.id ? [owner.id, sitter.id] : [sitter.id, owner.id];
  const matchId = randomUUID();
  await db
    .insertInto("matches")
    .values({ id: matchId, user_a_id: a, user_b_id: b, created_at: new Date().toISOString() })
    .execute();
  const conversationId = await ensureConversation(owner.id, sitter.id);
  const attachmentKey = `${randomUUID()}-full.webp`;
  await sendMessage(
    sitter.id,
    conversationId,
    "",
    { type: "image", key: attachmentKey, previewKey: `${randomUUID()}-card.webp` },
    { image: "📷", video: "🎥" },
  );
  const photoId = await photoOf(owner.id);
  const notification = await db
    .selectFrom("notifications")
    .select("id")
    .where("user_id", "=", owner.id)
    .executeTakeFirstOrThrow();
  const { subscriptionId, paymentMethodId } = await premiumWithCard(owner);
  const messageId = String(
    (
      await db
        .selectFrom("messages")
        .select("id")
        .where("conversation_id", "=", conversationId)
        .executeTakeFirstOrThrow()
    ).id,
  );
  // The owner reported the sitter's message: the report is the owner's record.
  const reportId = randomUUID();
  await db
    .insertInto("reports")
    .values({
      id: reportId,
      reporter_id: owner.id,
      reported_user_id: sitter.id,
      subject_type: "message",
      subject_id: messageId,
      reason: "scam",
      created_at: new Date().toISOString(),
    })
    .execute();
  const reviewId = randomUUID();
  await db
    .insertInto("reviews")
    .values({
      id: reviewId,
      booking_id: booking.id,
      reviewer_id: sitter.id,
      reviewed_id: owner.id,
      rating: 5,
      comment: "Lovely",
      created_at: new Date().toISOString(),
    })
    .execute();
  const disputeId = randomUUID();
  await db
    .insertInto("disputes")
    .values({ id: disputeId, booking_id: booking.id, reason: "other", created_at: new Date().toISOString() })
    .execute();
  const exportId = (await requestExport(owner.id)).export.id;
  const meetGreet = await proposeMeetGreet(owner, {
    id: randomUUID(),
    sitterId: sitter.id,
    day: dayAhead(sitter.time_zone, 2),
    time: "18:00",
    place: "sitters_home",
    placeNote: "",
  });
  if (!meetGreet.ok) throw new Error(meetGreet.refusal);
  // The owner's weekly walk with the sitter, accepted: its date a week on is the owner's to skip or change.
  await db
    .insertInto("sitter_services")
    .values({ sitter_id: sitter.id, service: "walk", price_cents: 1500, duration_minutes: 30 })
    .execute();
  const series = await requestSeries(owner, {
    id: randomUUID(),
    sitterId: sitter.id,
    service: "walk",
    petIds: [owner.petId],
    day: sitter.day,
    startTime: "15:00",
    weekdays: [weekdayOf(sitter.day)],
    lastDay: null,
    notes: "",
  });
  if (!series.ok) throw new Error(series.refusal);
  if (!(await actOnSeries(sitter, series.series.id, { type: "accept" })).ok) throw new Error("series not accepted");
  return {
    seriesId: series.series.id,
    seriesDay: new Date(Date.parse(`${sitter.day}T12:00:00Z`) + 7 * 24 * 3600_000).toISOString().slice(0, 10),
    meetGreetId: meetGreet.meetGreet.id,
    messageId,
    reportId,
    exportId,
    subscriptionId,
    paymentMethodId,
    reviewId,
    disputeId,
    ownerId: owner.id,
    petId: owner.petId,
    slotId: sitter.slotId,
    bookingId: booking.id,
    matchId,
    conversationId,
    attachmentKey,
    photoId,
    notificationId: notification.id,
  };
}

/** Everything that a refused request must leave as it was. */
async function snapshot() {
  const tables = [
    "users",
    "pets",
    "photos",
    "care_plans",
    "visits",
    "visit_items",
    "visit_media",
    "bookings",
    "availability_slots",
    "sitter_days_off",
    "matches",
    "conversations",
    "messages",
    "reviews",
    "test_payments",
    "subscriptions",
    "payment_methods",
    "reports",
    "blocks",
    "audit_log",
    "sessions",
    "disputes",
    "dispute_posts",
    "booking_history",
    "meet_greets",
    "care_series",
    "care_series_schedules",
    "care_series_pets",
    "care_series_skips",
  ] as const;
  const rows = await Promise.all(tables.map((table) => db.selectFrom(table).selectAll().execute()));
  const notifications = await db.selectFrom("notifications").select(["id", "is_read"]).execute();
  return JSON.stringify([rows, notifications]);
}

/** The status a route answers with, thrown or returned, whatever form the answer takes. */
async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    const result = await run();
    if (result instanceof Response) return result.status;
    if (result && typeof result === "object" && "init" in result)
      return (result as { init?: { status?: number } }).init?.status ?? 200;
    return 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    if (thrown && typeof thrown === "object" && "init" in thrown)
      return (thrown as { init?: { status?: number } }).init?.status ?? 500;
    throw thrown;
  }
}

describe("access matrix", () => {
  it("lists every route, with its requests or the reason it holds nobody else's records", () => {
    const files = routeFiles(routes);
    const missing = files.filter((file) => !(file in MATRIX) && !(file in EXEMPT));
    expect(missing, "routes missing from the access matrix").toEqual([]);
    expect(
      [...Object.keys(MATRIX), ...Object.keys(EXEMPT)].filter((file) => !files.includes(file)),
      "entries for routes that no longer exist",
    ).toEqual([]);
  });

  it("answers 404 to another person for every record of someone else, and changes nothing", async () => {
    const ids = await world();
    // Someone who is both owner and sitter, so no role check can hide a missing ownership check.
    const { cookie } = await person("both", { signedIn: true });
    const before = await snapshot();
    const answers: string[] = [];
    for (const [file, probes] of Object.entries(MATRIX)) {
      const module = (await import(/* @vite-ignore */ `./${file}`)) as {
        loader?: (args: unknown) => Promise<unknown>;
        action?: (args: unknown) => Promise<unknown>;
      };
      for (const probe of probes) {
        const url = `http://localhost${probe.url(ids)}`;
        const body = probe.form ? new URLSearchParams(probe.form(ids)) : undefined;
        const request = new Request(url, {
          method: probe.method,
          headers: { Cookie: cookie, ...(body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}) },
          body,
        });
        const handler = probe.method === "GET" ? module.loader : module.action;
        if (!handler) throw new Error(`${file} has no ${probe.method === "GET" ? "loader" : "action"}`);
        const status = await statusOf(() => handler({ request, params: probe.params?.(ids) ?? {}, context: {} }));
        answers.push(
          `${probe.method} ${probe.url(ids)}${probe.form ? ` ${JSON.stringify(probe.form(ids))}` : ""} → ${status}`,
        );
      }
    }
    expect(
      answers.filter((answer) => !answer.endsWith("→ 404")),
      "requests that did not answer 404",
    ).toEqual([]);
    expect(await snapshot()).toBe(before);

    // The same records are there for their owner: the 404s above are about who asks.
    const ownerCookie = (await startSession(ids.ownerId)).split(";")[0]!;
    const asOwner = (path: string, params: Record<string, string>, file: string) =>
      statusOf(async () => {
        const module = (await import(/* @vite-ignore */ `./${file}`)) as {
          loader: (args: unknown) => Promise<unknown>;
        };
        return module.loader({
          request: new Request(`http://localhost${path}`, { headers: { Cookie: ownerCookie } }),
          params,
          context: {},
        });
      });
    expect(await asOwner(`/pet/${ids.petId}/edit`, { petId: ids.petId }, "routes/pet-edit.tsx")).toBe(200);
    expect(await asOwner(`/pet/${ids.petId}/care-plan`, { petId: ids.petId }, "routes/pet-care-plan.tsx")).toBe(200);
    expect(
      await asOwner(`/bookings/${ids.bookingId}/visit`, { bookingId: ids.bookingId }, "routes/booking-visit.tsx"),
    ).toBe(200);
    expect(
      await asOwner(`/bookings/${ids.bookingId}/cancel`, { bookingId: ids.bookingId }, "routes/booking-cancel.tsx"),
    ).toBe(200);
    expect(
      await asOwner(`/dashboard/match/${ids.matchId}`, { matchId: ids.matchId }, "routes/dashboard-match.tsx"),
    ).toBe(200);
    expect(await asOwner(`/messages?c=${ids.conversationId}`, {}, "routes/messages.tsx")).toBe(200);
    expect(
      await asOwner(`/bookings/${ids.bookingId}/problem`, { bookingId: ids.bookingId }, "routes/booking-problem.tsx"),
    ).toBe(200);
    expect(
      await asOwner(`/settings/export/${ids.exportId}`, { exportId: ids.exportId }, "routes/settings-export.ts"),
    ).toBe(200);
    expect(await asOwner(`/series/${ids.seriesId}`, { seriesId: ids.seriesId }, "routes/series.tsx")).toBe(200);
  });
});
