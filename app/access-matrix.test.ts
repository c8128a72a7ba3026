import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RouteConfigEntry } from "@remix-run/route-config";
import { db } from "~/platform/db.server";
import { startSession } from "~/platform/session.server";
import { person, photoOf } from "~/testing/people";
import { ownerWithPet, sitterWithSlot, requested, card, premiumWithCard } from "~/testing/bookings";
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
type Probe = { method: "GET" | "POST"; url: (ids: Ids) => string; params?: (ids: Ids) => Record<string, string>; form?: (ids: Ids) => Record<string, string> };

const MATRIX: Record<string, Probe[]> = {
  "routes/dashboard-match.tsx": [{ method: "GET", url: (ids) => `/dashboard/match/${ids.matchId}`, params: (ids) => ({ matchId: ids.matchId }) }],
  "routes/booking-action.ts": ["accept", "decline", "finish", "release"].map((intent) => ({
    method: "POST" as const,
    url: (ids: Ids) => `/bookings/${ids.bookingId}`,
    params: (ids: Ids) => ({ bookingId: ids.bookingId }),
    form: () => ({ intent }),
  })),
  "routes/booking-cancel.tsx": [
    { method: "GET", url: (ids) => `/bookings/${ids.bookingId}/cancel`, params: (ids) => ({ bookingId: ids.bookingId }) },
    { method: "POST", url: (ids) => `/bookings/${ids.bookingId}/cancel`, params: (ids) => ({ bookingId: ids.bookingId }), form: () => ({ reason: "mine now" }) },
  ],
  "routes/booking-review.tsx": [
    { method: "GET", url: (ids) => `/bookings/${ids.bookingId}/review`, params: (ids) => ({ bookingId: ids.bookingId }) },
    { method: "POST", url: (ids) => `/bookings/${ids.bookingId}/review`, params: (ids) => ({ bookingId: ids.bookingId }), form: () => ({ rating: "1", comment: "x" }) },
  ],
  "routes/payment.tsx": [
    { method: "GET", url: (ids) => `/payment/${ids.bookingId}`, params: (ids) => ({ bookingId: ids.bookingId }) },
    {
      method: "POST",
      url: (ids) => `/payment/${ids.bookingId}`,
      params: (ids) => ({ bookingId: ids.bookingId }),
      form: () => ({ attempt: randomUUID(), name: "X", number: "4242424242424242", expiry: "12/30", cvc: "123" }),
    },
  ],
  "routes/pet-edit.tsx": [
    { method: "GET", url: (ids) => `/pet/${ids.petId}/edit`, params: (ids) => ({ petId: ids.petId }) },
    { method: "POST", url: (ids) => `/pet/${ids.petId}/edit`, params: (ids) => ({ petId: ids.petId }), form: () => ({ name: "Mine", age: "1", petType: "dog" }) },
  ],
  "routes/pet-delete.tsx": [
    { method: "GET", url: (ids) => `/pet/${ids.petId}/delete`, params: (ids) => ({ petId: ids.petId }) },
    { method: "POST", url: (ids) => `/pet/${ids.petId}/delete`, params: (ids) => ({ petId: ids.petId }) },
  ],
  "routes/photo-delete.tsx": [
    { method: "GET", url: (ids) => `/photos/${ids.photoId}/delete`, params: (ids) => ({ photoId: ids.photoId }) },
    { method: "POST", url: (ids) => `/photos/${ids.photoId}/delete`, params: (ids) => ({ photoId: ids.photoId }) },
  ],
  "routes/photos.tsx": [{ method: "POST", url: () => "/photos", form: (ids) => ({ photoId: ids.photoId, move: "main" }) }],
  "routes/availability-delete.tsx": [
    { method: "GET", url: (ids) => `/availability/${ids.slotId}/delete`, params: (ids) => ({ slotId: ids.slotId }) },
    { method: "POST", url: (ids) => `/availability/${ids.slotId}/delete`, params: (ids) => ({ slotId: ids.slotId }) },
  ],
  "routes/settings-export.ts": [{ method: "GET", url: (ids) => `/settings/export/${ids.exportId}`, params: (ids) => ({ exportId: ids.exportId }) }],
  "routes/media.$key.ts": [{ method: "GET", url: (ids) => `/media/${ids.attachmentKey}`, params: (ids) => ({ key: ids.attachmentKey }) }],
  "routes/messages.tsx": [
    { method: "GET", url: (ids) => `/messages?c=${ids.conversationId}` },
    { method: "GET", url: (ids) => `/messages?userId=${ids.ownerId}` },
    { method: "POST", url: () => "/messages", form: (ids) => ({ conversationId: ids.conversationId, body: "hello from outside" }) },
  ],
  "routes/notifications.tsx": [{ method: "POST", url: () => "/notifications", form: (ids) => ({ intent: "open", id: ids.notificationId }) }],
  "routes/payment-card-entry.ts": [{ method: "POST", url: (ids) => `/payment/${ids.bookingId}/card-entry`, params: (ids) => ({ bookingId: ids.bookingId }), form: () => ({ attempt: randomUUID() }) }],
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
  "routes/healthz.ts": "public health check",
  "routes/locales.ts": "public translations",
  "routes/dev-outbox.tsx": "development, tests and demo only; each visitor sees only their own emails (features/auth/outbox-access.test.ts)",
  "routes/dev-clock.ts": "development and tests only",
  "routes/events.ts": "streams only the asker's own events",
  "routes/app-layout.tsx": "the asker's own counts",
  "routes/dashboard.tsx": "the asker's own deck; card ids are checked in deck-actions.test.ts",
  "routes/dashboard-filters.tsx": "the asker's own filters",
  "routes/bookings.tsx": "lists the asker's own bookings",
  "routes/booking-request.tsx": "creates the asker's own booking; pet and sitter checks in bookings.test.ts",
  "routes/profile.tsx": "the asker's own profile",
  "routes/pet-profile-setup.tsx": "creates the asker's own pet",
  "routes/sitter-profile-setup.tsx": "the asker's own profile",
  "routes/profile-edit.tsx": "the asker's own profile",
  "routes/profile-public.tsx": "the asker's own public profile",
  "routes/user-profile.tsx": "public profiles are meant to be seen by members",
  "routes/availability.tsx": "the asker's own slots",
  "routes/not-found.tsx": "the 404 page",
  "routes/offline.tsx": "a static page for the service worker",
  "routes/webhooks-stripe.ts": "Stripe's signature is the credential (stripe-webhooks.test.ts)",
  "routes/dashboard-likes.tsx": "lists who liked the asker",
  "routes/subscription-card-entry.ts": "starts a card entry on the asker's own customer",
  "routes/subscription-card-new.tsx": "adds a card for the asker",
  "routes/settings.tsx": "changes, exports and deletes only the asker's own account, after their password (features/account tests)",
  "routes/settings-email-confirm.tsx": "the token in the link is the credential",
  "routes/unsubscribe.tsx": "the signed token is the credential; forged or moved tokens are refused (features/account/account.test.ts)",
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
  await db.insertInto("matches").values({ id: matchId, user_a_id: a, user_b_id: b, created_at: new Date().toISOString() }).execute();
  const conversationId = await ensureConversation(owner.id, sitter.id);
  const attachmentKey = `${randomUUID()}-full.webp`;
  await sendMessage(sitter.id, conversationId, "", { type: "image", key: attachmentKey, previewKey: `${randomUUID()}-card.webp` }, { image: "📷", video: "🎥" });
  const photoId = await photoOf(owner.id);
  const notification = await db.selectFrom("notifications").select("id").where("user_id", "=", owner.id).executeTakeFirstOrThrow();
  const { subscriptionId, paymentMethodId } = await premiumWithCard(owner);
  const exportId = (await requestExport(owner.id)).export.id;
  return {
    exportId,
    subscriptionId,
    paymentMethodId,
    ownerId: owner.id, petId: owner.petId, slotId: sitter.slotId, bookingId: booking.id, matchId, conversationId, attachmentKey, photoId, notificationId: notification.id };
}

/** Everything that a refused request must leave as it was. */
async function snapshot() {
  const tables = ["users", "pets", "photos", "bookings", "availability_slots", "matches", "conversations", "messages", "reviews", "test_payments", "subscriptions", "payment_methods"] as const;
  const rows = await Promise.all(tables.map((table) => db.selectFrom(table).selectAll().execute()));
  const notifications = await db.selectFrom("notifications").select(["id", "is_read"]).execute();
  return JSON.stringify([rows, notifications]);
}

/** The status a route answers with, thrown or returned, whatever form the answer takes. */
async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    const result = await run();
    if (result instanceof Response) return result.status;
    if (result && typeof result === "object" && "init" in result) return (result as { init?: { status?: number } }).init?.status ?? 200;
    return 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    if (thrown && typeof thrown === "object" && "init" in thrown) return (thrown as { init?: { status?: number } }).init?.status ?? 500;
    throw thrown;
  }
}

describe("access matrix", () => {
  it("lists every route, with its requests or the reason it holds nobody else's records", () => {
    const files = routeFiles(routes);
    const missing = files.filter((file) => !(file in MATRIX) && !(file in EXEMPT));
    expect(missing, "routes missing from the access matrix").toEqual([]);
    expect([...Object.keys(MATRIX), ...Object.keys(EXEMPT)].filter((file) => !files.includes(file)), "entries for routes that no longer exist").toEqual([]);
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
        answers.push(`${probe.method} ${probe.url(ids)}${probe.form ? ` ${JSON.stringify(probe.form(ids))}` : ""} → ${status}`);
      }
    }
    expect(answers.filter((answer) => !answer.endsWith("→ 404")), "requests that did not answer 404").toEqual([]);
    expect(await snapshot()).toBe(before);

    // The same records are there for their owner: the 404s above are about who asks.
    const ownerCookie = (await startSession(ids.ownerId)).split(";")[0]!;
    const asOwner = (path: string, params: Record<string, string>, file: string) =>
      statusOf(async () => {
        const module = (await import(/* @vite-ignore */ `./${file}`)) as { loader: (args: unknown) => Promise<unknown> };
        return module.loader({ request: new Request(`http://localhost${path}`, { headers: { Cookie: ownerCookie } }), params, context: {} });
      });
    expect(await asOwner(`/pet/${ids.petId}/edit`, { petId: ids.petId }, "routes/pet-edit.tsx")).toBe(200);
    expect(await asOwner(`/bookings/${ids.bookingId}/cancel`, { bookingId: ids.bookingId }, "routes/booking-cancel.tsx")).toBe(200);
    expect(await asOwner(`/dashboard/match/${ids.matchId}`, { matchId: ids.matchId }, "routes/dashboard-match.tsx")).toBe(200);
    expect(await asOwner(`/messages?c=${ids.conversationId}`, {}, "routes/messages.tsx")).toBe(200);
    expect(await asOwner(`/settings/export/${ids.exportId}`, { exportId: ids.exportId }, "routes/settings-export.ts")).toBe(200);
  });
});
