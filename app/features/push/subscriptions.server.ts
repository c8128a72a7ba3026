import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { db, lockPeople } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { acceptedEndpoint, validAuth, validP256dh } from "./endpoints.server";
import { deviceLabel } from "./device-label";

/** Subscriptions one person may hold: one more drops their oldest. */
export const MAX_SUBSCRIPTIONS_PER_PERSON = 10;

export interface SubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type PushRefusal =
  | "settings:push.refusals.endpoint"
  | "settings:push.refusals.keys"
  | "settings:push.refusals.unknown"
  | "settings:push.refusals.unavailable";

export type SaveResult = { ok: true; id: string } | { ok: false; error: PushRefusal };

/**
 * Stores this browser's subscription for the signed-in person (the only person it can be for: the
 * caller passes the session's id, never one from the form). The same endpoint again (a renewed
 * subscription, or another account signed in on this browser) replaces the earlier row.
 */
export async function saveSubscription(
  userId: string,
  input: SubscriptionInput,
  userAgent: string | null,
): Promise<SaveResult> {
  if (!acceptedEndpoint(input.endpoint)) return { ok: false, error: "settings:push.refusals.endpoint" };
  if (!validP256dh(input.p256dh) || !validAuth(input.auth)) return { ok: false, error: "settings:push.refusals.keys" };
  const id = randomUUID();
  return db.transaction().execute(async (trx): Promise<SaveResult> => {
    await lockPeople(trx, userId);
    const existing = await trx
      .selectFrom("push_subscriptions")
      .select(["user_id", "auth"])
      .where("endpoint", "=", input.endpoint)
      .executeTakeFirst();
    // Another account signed in on the same browser takes its subscription over, which proves itself by
    // the same secret; an endpoint posted with other keys would only break another person's device.
    if (existing && existing.user_id !== userId && existing.auth !== input.auth)
      return { ok: false, error: "settings:push.refusals.endpoint" };
    await trx.deleteFrom("push_subscriptions").where("endpoint", "=", input.endpoint).execute();
    await trx
      .insertInto("push_subscriptions")
      .values({
        id,
        user_id: userId,
        endpoint: input.endpoint,
        p256dh: input.p256dh,
        auth: input.auth,
        device_label: deviceLabel(userAgent).slice(0, 80),
        created_at: nowIso(),
      })
      .execute();
    const kept = await trx
      .selectFrom("push_subscriptions")
      .select("id")
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(MAX_SUBSCRIPTIONS_PER_PERSON)
      .execute();
    await trx
      .deleteFrom("push_subscriptions")
      .where("user_id", "=", userId)
      .where(
        "id",
        "not in",
        kept.map((row) => row.id),
      )
      .execute();
    return { ok: true, id };
  });
}

/** Turns push off for one of the person's own devices; another person's endpoint is refused, untouched. */
export async function removeSubscription(userId: string, endpoint: string): Promise<boolean> {
  const result = await db
    .deleteFrom("push_subscriptions")
    .where("endpoint", "=", endpoint)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function subscriptionOf(userId: string, endpoint: string) {
  return db
    .selectFrom("push_subscriptions")
    .selectAll()
    .where("endpoint", "=", endpoint)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

export interface DeviceView {
  label: string;
  since: string;
}

export async function listDevices(userId: string): Promise<DeviceView[]> {
  const rows = await db
    .selectFrom("push_subscriptions")
    .select(["device_label", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((row) => ({ label: row.device_label, since: row.created_at }));
}

/** For the data export: the devices, without the endpoint and keys (they are secrets of the browser). */
export async function exportSubscriptions(userId: string, database: Kysely<Database> = db) {
  const rows = await database
    .selectFrom("push_subscriptions")
    .select(["device_label", "endpoint", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({
    device: row.device_label,
    pushService: new URL(row.endpoint).host,
    since: row.created_at,
  }));
}

export async function eraseSubscriptions(userId: string, database: Kysely<Database> = db): Promise<void> {
  await database.deleteFrom("push_subscriptions").where("user_id", "=", userId).execute();
}
