import webpush from "web-push";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { nowIso } from "~/platform/clock.server";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const subject = () => env.VAPID_SUBJECT ?? `mailto:${env.OPERATOR_EMAIL ?? "hello@trusted-sitters.local"}`;

let made: Promise<VapidKeys | null> | null = null;

/**
 * The server's VAPID keys: the configured ones; else, in development, demo and test mode, a pair made
 * once and kept in the database (every instance reads the same row); else none, and push is off.
 */
export function vapidKeys(): Promise<VapidKeys | null> {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY)
    return Promise.resolve({ publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: subject() });
  if (!env.devToolsEnabled) return Promise.resolve(null);
  made ??= storedKeys().catch((error: unknown) => {
    made = null;
    throw error;
  });
  return made;
}

async function storedKeys(): Promise<VapidKeys> {
  const fresh = webpush.generateVAPIDKeys();
  // Two instances starting together both try; the first row wins and both read it.
  await db
    .insertInto("push_keys")
    .values({ name: "vapid", public_key: fresh.publicKey, private_key: fresh.privateKey, created_at: nowIso() })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .execute();
  const row = await db
    .selectFrom("push_keys")
    .select(["public_key", "private_key"])
    .where("name", "=", "vapid")
    .executeTakeFirstOrThrow();
  return { publicKey: row.public_key, privateKey: row.private_key, subject: subject() };
}
