import { db } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { isTimeZone } from "~/platform/time";
import { emailColumnOf, readUnsubscribeToken, type EmailKind } from "~/platform/unsubscribe.server";
import { timeZoneFor } from "~/features/auth/index.server";

export type EmailPreferences = Record<EmailKind, boolean>;

export async function emailPreferencesOf(userId: string): Promise<EmailPreferences> {
  const row = await db
    .selectFrom("users")
    .select(["email_messages", "email_bookings", "email_reviews", "email_marketing"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return {
    messages: row.email_messages === 1,
    bookings: row.email_bookings === 1,
    reviews: row.email_reviews === 1,
    marketing: row.email_marketing === 1,
  };
}

export async function saveEmailPreferences(userId: string, preferences: EmailPreferences): Promise<void> {
  await db
    .updateTable("users")
    .set({
      email_messages: preferences.messages ? 1 : 0,
      email_bookings: preferences.bookings ? 1 : 0,
      email_reviews: preferences.reviews ? 1 : 0,
      email_marketing: preferences.marketing ? 1 : 0,
      updated_at: nowIso(),
    })
    .where("id", "=", userId)
    .where("deleted_at", "is", null)
    .execute();
}

export type UnsubscribeCheck = { status: "valid"; kind: EmailKind } | { status: "invalid" };

/** A token we signed, for an account that still exists. */
export async function checkUnsubscribeToken(token: unknown): Promise<UnsubscribeCheck & { userId?: string }> {
  const read = readUnsubscribeToken(token);
  if (!read) return { status: "invalid" };
  const person = await db
    .selectFrom("users")
    .select("id")
    .where("id", "=", read.userId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return person ? { status: "valid", kind: read.kind, userId: person.id } : { status: "invalid" };
}

/** One click, without signing in (RFC 8058): the signed token names the person and the kind. Repeating it changes nothing. */
export async function unsubscribe(token: unknown): Promise<UnsubscribeCheck> {
  const check = await checkUnsubscribeToken(token);
  if (check.status !== "valid" || !check.userId) return { status: "invalid" };
  await db
    .updateTable("users")
    .set({ [emailColumnOf(check.kind)]: 0 })
    .where("id", "=", check.userId)
    .execute();
  return { status: "valid", kind: check.kind };
}

/** The browser's zone when its script sent one; else the zone of the profile's city; Madrid last. */
export async function saveTimeZone(
  user: { id: string; city: string },
  browserZone: string | undefined,
): Promise<string> {
  const zone = browserZone && isTimeZone(browserZone) ? browserZone : await timeZoneFor(undefined, user.city);
  await db.updateTable("users").set({ time_zone: zone, updated_at: nowIso() }).where("id", "=", user.id).execute();
  return zone;
}
