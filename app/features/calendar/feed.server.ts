import { randomBytes } from "node:crypto";
import ical, { ICalCalendarMethod, ICalEventStatus } from "ical-generator";
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { nowIso, now } from "~/platform/clock.server";
import { db } from "~/platform/db.server";
import { publicOrigin } from "~/platform/email.server";
import { bookedPetNames } from "~/features/bookings/index.server";
import { listOf } from "~/platform/format";
import { isLanguage, fallbackLanguage } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";

/**
 * A person's calendar feed: an iCalendar file of their bookings from the day they are confirmed, at a
 * secret address a phone's calendar polls without signing in. Events carry what the booking page shows
 * both people and no more: who, which pets (all of them), when, the town (the booking's place once confirmed), a link.
 * A booking keeps its UID for good and its SEQUENCE grows with each change of its history, so calendars
 * update an event rather than add one; a cancelled booking leaves the feed. Accepted meet & greets are in it too.
 */

/** 32 random bytes, base64url: the whole secret of the address. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Bookings that ended more than this long ago leave the feed. */
const PAST_DAYS_SHOWN = 90;
const SHOWN_STATUSES = ["confirmed", "in-progress", "completed"] as const;

export const calendarPath = (token: string) => `/calendar/${token}.ics`;

/** The person's feed address, or null while they have none. */
export async function calendarFeedOf(userId: string, database: Kysely<Database> = db): Promise<string | null> {
  const feed = await database
    .selectFrom("calendar_feeds")
    .select("token")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return feed ? `${publicOrigin()}${calendarPath(feed.token)}` : null;
}

/** Makes the person's address, or a new one in place of the old (which then answers nothing). */
export async function renewCalendarFeed(userId: string): Promise<void> {
  const token = randomBytes(32).toString("base64url");
  await db
    .insertInto("calendar_feeds")
    .values({ user_id: userId, token, created_at: nowIso() })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ token, created_at: nowIso() }))
    .execute();
}

export async function stopCalendarFeed(userId: string, database: Kysely<Database> = db): Promise<void> {
  await database.deleteFrom("calendar_feeds").where("user_id", "=", userId).execute();
}

/** For the data export: whether the person has an address, and since when (never the token). */
export async function exportCalendarFeed(userId: string, database: Kysely<Database>) {
  const feed = await database
    .selectFrom("calendar_feeds")
    .select("created_at")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return feed ? { calendarAddressSince: feed.created_at } : null;
}

/** The iCalendar text for an address's file name (`<token>.ics`), or null for an address that is not (or no longer) one. */
export async function calendarFile(fileName: string): Promise<string | null> {
  const token = fileName.endsWith(".ics") ? fileName.slice(0, -4) : "";
  if (!TOKEN.test(token)) return null;
  const person = await db
    .selectFrom("calendar_feeds as f")
    .innerJoin("users as u", "u.id", "f.user_id")
    .select(["u.id", "u.language", "u.time_zone"])
    .where("f.token", "=", token)
    .where("u.suspended_at", "is", null)
    .where("u.deleted_at", "is", null)
    .executeTakeFirst();
  if (!person) return null;

  const since = new Date(now().getTime() - PAST_DAYS_SHOWN * 24 * 3600_000).toISOString();
  const bookings = await db
    .selectFrom("bookings as b")
    .innerJoin("users as owner", "owner.id", "b.owner_id")
    .innerJoin("users as sitter", "sitter.id", "b.sitter_id")
    .select((eb) => [
      "b.id",
      "b.owner_id",
      "b.pet_name",
      "b.start_at",
      "b.end_at",
      "b.location",
      "b.updated_at",
      "owner.name as owner_name",
      "owner.city as owner_city",
      "sitter.name as sitter_name",
      eb
        .selectFrom("booking_history as h")
        .select((h) => h.fn.countAll<number>().as("n"))
        .whereRef("h.booking_id", "=", "b.id")
        .as("changes"),
    ])
    .where((eb) => eb.or([eb("b.owner_id", "=", person.id), eb("b.sitter_id", "=", person.id)]))
    .where("b.status", "in", SHOWN_STATUSES)
    .where("b.end_at", ">=", since)
    .orderBy("b.start_at")
    .execute();

  const petsOf = await bookedPetNames(bookings.map((booking) => booking.id));
  const language = isLanguage(person.language) ? person.language : fallbackLanguage;
  const t = await translatorFor(language, "settings");
  const origin = publicOrigin();
  const calendar = ical({
    name: t("calendar.feedName"),
    method: ICalCalendarMethod.PUBLISH,
    prodId: { company: "Trusted Sitters", product: "Bookings", language: language.toUpperCase() },
    ttl: 3600,
    // Times are written in UTC; the zone tells calendars how the person reads them.
    timezone: null,
    x: [{ key: "X-WR-TIMEZONE", value: person.time_zone }],
  });
  const host = new URL(origin).hostname;
  for (const booking of bookings) {
    const asOwner = booking.owner_id === person.id;
    const values = {
      pets: listOf(language, petsOf.get(booking.id) ?? [booking.pet_name]),
      name: asOwner ? booking.sitter_name : booking.owner_name,
      interpolation: { escapeValue: false },
    };
    calendar.createEvent({
      id: `booking-${booking.id}@${host}`,
      sequence: Number(booking.changes ?? 0),
      stamp: new Date(booking.updated_at),
      start: new Date(booking.start_at),
      end: new Date(booking.end_at),
      summary: t(asOwner ? "calendar.event.asOwner" : "calendar.event.asSitter", values),
      location: booking.location && booking.location !== "TBD" ? booking.location : booking.owner_city,
      description: t("calendar.event.details", { link: `${origin}/bookings`, interpolation: { escapeValue: false } }),
      url: `${origin}/bookings`,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  // Accepted meet & greets, half an hour each; a moved one keeps its UID and its SEQUENCE grows with each change.
  const meetings = await db
    .selectFrom("meet_greets as m")
    .innerJoin("users as other", (join) =>
      join.on((eb) =>
        eb.or([
          eb.and([eb("m.owner_id", "=", person.id), eb("other.id", "=", eb.ref("m.sitter_id"))]),
          eb.and([eb("m.sitter_id", "=", person.id), eb("other.id", "=", eb.ref("m.owner_id"))]),
        ]),
      ),
    )
    .select(["m.id", "m.start_at", "m.place", "m.place_note", "m.updated_at", "other.name as other_name"])
    .where("m.status", "=", "accepted")
    .where("m.start_at", ">=", since)
    .orderBy("m.start_at")
    .execute();
  const tm = await translatorFor(language, "meetGreets");
  for (const meeting of meetings) {
    const place = tm(`places.${meeting.place}`);
    calendar.createEvent({
      id: `meet-greet-${meeting.id}@${host}`,
      sequence: Math.floor(new Date(meeting.updated_at).getTime() / 1000),
      stamp: new Date(meeting.updated_at),
      start: new Date(meeting.start_at),
      end: new Date(new Date(meeting.start_at).getTime() + MEET_GREET_MINUTES * 60_000),
      summary: tm("list.with", { name: meeting.other_name, interpolation: { escapeValue: false } }),
      location: meeting.place_note ? `${place} (${meeting.place_note})` : place,
      url: `${origin}/meet/${meeting.id}`,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}

/** How long a meet & greet is shown in a calendar. */
const MEET_GREET_MINUTES = 30;
