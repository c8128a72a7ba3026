import type { Kysely } from "kysely";
import webpush from "web-push";
import type { Database } from "~db/schema";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { now, nowIso } from "~/platform/clock.server";
import { backoffDelayMs, oneDeliveryAtATime } from "~/platform/exclusive.server";
import type { Language } from "~/platform/i18n";
import { isLanguage } from "~/platform/i18n";
import { emailColumnOf, type EmailKind } from "~/platform/unsubscribe.server";
import { blockedBetween, isInactive } from "~/features/safety/index.server";
import { vapidKeys } from "./keys.server";

export interface PushNews {
  userId: string;
  /** The person's per-kind choice (the one their emails follow) that this push obeys. */
  preference: EmailKind;
  /** Whose act this tells of: nothing goes out while they are blocked, suspended or deleted. */
  sourceUserId?: string | null;
  /** A path of this app the push opens. */
  link: string;
  /** The words, in the person's language; asked only when a device of theirs will get them. */
  render: (reader: { language: Language; timeZone: string }) => Promise<{ title: string; body: string }>;
}

const TITLE_MAX = 120;
const BODY_MAX = 240;

/**
 * Writes one push per device of the person into the outbox, inside the caller's transaction, so a
 * push exists exactly when the change that causes it does. Returns how many were written.
 */
export async function enqueuePush(news: PushNews, database: Kysely<Database> = db): Promise<number> {
  const devices = await database
    .selectFrom("push_subscriptions")
    .select("id")
    .where("user_id", "=", news.userId)
    .execute();
  if (devices.length === 0) return 0;
  const column = emailColumnOf(news.preference);
  const person = await database
    .selectFrom("users")
    .select([column, "language", "time_zone", "suspended_at", "deleted_at"])
    .where("id", "=", news.userId)
    .executeTakeFirst();
  if (!person || person.suspended_at || person.deleted_at || person[column] !== 1) return 0;
  if (news.sourceUserId && !(await mayStillTell(news.userId, news.sourceUserId, database))) return 0;
  const { title, body } = await news.render({
    language: isLanguage(person.language) ? person.language : "en",
    timeZone: person.time_zone,
  });
  const at = nowIso();
  await database
    .insertInto("push_outbox")
    .values(
      devices.map((device) => ({
        subscription_id: device.id,
        user_id: news.userId,
        source_user_id: news.sourceUserId ?? null,
        title: clip(title, TITLE_MAX),
        body: clip(body, BODY_MAX),
        link: safeLink(news.link),
        created_at: at,
      })),
    )
    .execute();
  deliverPushesSoon();
  return devices.length;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
// Links are written by the server, but only paths inside the app are ever opened.
const safeLink = (link: string) => (link.startsWith("/") && !link.startsWith("//") ? link : "/notifications");

async function mayStillTell(userId: string, sourceUserId: string, database: Kysely<Database>) {
  return !(await isInactive(sourceUserId, database)) && !(await blockedBetween(userId, sourceUserId, database));
}

export const PUSH_RETRY = { firstDelayMs: 30_000, maxDelayMs: 30 * 60_000, giveUpAfterMs: 24 * 3_600_000 } as const;
/** How long a push service keeps a push for a device that is offline. */
const TIME_TO_LIVE_SECONDS = 24 * 3600;
const REQUEST_TIMEOUT_MS = 10_000;

export const nextPushDelayMs = (attempts: number) => backoffDelayMs(attempts, PUSH_RETRY);

/** One delivery at a time, across instances too (as for emails), so a push is never sent twice. */
export const deliverPendingPushes = oneDeliveryAtATime("push-delivery", () => deliverBatch());

let soon: NodeJS.Timeout | null = null;

/** Pushes are news of the moment: delivered a moment after they are written, not at the next scheduler round. */
function deliverPushesSoon() {
  // Unit tests deliver when they choose.
  if (env.NODE_ENV === "test" || soon) return;
  soon = setTimeout(() => {
    soon = null;
    deliverPendingPushes().catch((error: unknown) => console.error("Push delivery failed", error));
  }, 500);
  soon.unref();
}

async function deliverBatch(): Promise<void> {
  const keys = await vapidKeys();
  if (!keys) return;
  const pending = await db
    .selectFrom("push_outbox as o")
    .innerJoin("push_subscriptions as s", "s.id", "o.subscription_id")
    .select(["o.id", "o.user_id", "o.source_user_id", "o.title", "o.body", "o.link", "o.attempts", "o.created_at"])
    .select(["s.id as subscriptionId", "s.endpoint", "s.p256dh", "s.auth"])
    .where("o.sent_at", "is", null)
    .where("o.failed_at", "is", null)
    .where((eb) => eb.or([eb("o.next_try_at", "is", null), eb("o.next_try_at", "<=", nowIso())]))
    .orderBy("o.id")
    .limit(100)
    .execute();
  const gone = new Set<string>();
  for (const push of pending) {
    if (gone.has(push.subscriptionId)) continue;
    if (push.source_user_id && !(await mayStillTell(push.user_id, push.source_user_id, db))) {
      await db
        .updateTable("push_outbox")
        .set({ failed_at: nowIso(), last_error: "withheld: the sender is blocked or suspended" })
        .where("id", "=", push.id)
        .execute();
      continue;
    }
    const payload = JSON.stringify({
      title: push.title,
      body: push.body,
      link: push.link,
      badge: await unreadCount(push.user_id),
    });
    let status = 0;
    let problem = "";
    try {
      const request = webpush.generateRequestDetails(
        { endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } },
        payload,
        {
          vapidDetails: keys,
          TTL: TIME_TO_LIVE_SECONDS,
          contentEncoding: "aes128gcm",
          urgency: "high",
        },
      );
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body ? new Uint8Array(request.body) : null,
        redirect: "error",
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      status = response.status;
      problem = status >= 200 && status < 300 ? "" : `${status} ${(await response.text()).slice(0, 200)}`;
    } catch (error) {
      problem = (error instanceof Error ? error.message : String(error)).slice(0, 300);
    }
    if (!problem) {
      await db
        .updateTable("push_outbox")
        .set({ sent_at: nowIso(), last_error: null, next_try_at: null })
        .where("id", "=", push.id)
        .execute();
    } else if (status === 404 || status === 410) {
      // The browser unsubscribed or the subscription expired: it never comes back. Its pushes go with it.
      await db.deleteFrom("push_subscriptions").where("id", "=", push.subscriptionId).execute();
      gone.add(push.subscriptionId);
    } else {
      // Other 4xx answers (a bad request, a payload too large) will not change by waiting; 429 and 5xx will.
      await recordFailure(push, problem, status >= 400 && status < 500 && status !== 429);
    }
  }
}

async function recordFailure(
  push: { id: number; attempts: number; created_at: string },
  problem: string,
  refusedForGood: boolean,
) {
  const at = now();
  const attempts = push.attempts + 1;
  const giveUp = refusedForGood || at.getTime() - Date.parse(push.created_at) >= PUSH_RETRY.giveUpAfterMs;
  await db
    .updateTable("push_outbox")
    .set({
      attempts,
      last_error: problem,
      next_try_at: giveUp ? null : new Date(at.getTime() + nextPushDelayMs(attempts)).toISOString(),
      failed_at: giveUp ? at.toISOString() : null,
    })
    .where("id", "=", push.id)
    .execute();
}

async function unreadCount(userId: string): Promise<number> {
  const row = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("user_id", "=", userId)
    .where("is_read", "=", 0)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Sent pushes and those given up are kept a day (for the log of what went out), then removed. */
export async function pruneSentPushes(): Promise<void> {
  const dayAgo = new Date(now().getTime() - 24 * 3_600_000).toISOString();
  await db
    .deleteFrom("push_outbox")
    .where((eb) => eb.or([eb("sent_at", "<=", dayAgo), eb("failed_at", "<=", dayAgo)]))
    .execute();
}

/** "Send a test": one push to one of the person's own devices, whatever their preferences. */
export async function enqueueTestPush(
  userId: string,
  endpoint: string,
  render: (language: Language) => Promise<{ title: string; body: string }>,
): Promise<boolean> {
  const device = await db
    .selectFrom("push_subscriptions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select(["s.id", "u.language"])
    .where("s.endpoint", "=", endpoint)
    .where("s.user_id", "=", userId)
    .executeTakeFirst();
  if (!device) return false;
  const { title, body } = await render(isLanguage(device.language) ? device.language : "en");
  await db
    .insertInto("push_outbox")
    .values({ subscription_id: device.id, user_id: userId, title, body, link: "/settings", created_at: nowIso() })
    .execute();
  deliverPushesSoon();
  return true;
}
