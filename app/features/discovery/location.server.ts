import { createCookie } from "@remix-run/node";
import type { User } from "~db/schema";
import { db } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { env } from "~/platform/env.server";
import { takeAttempt, type RateLimit } from "~/platform/rate-limit.server";
import { cookiesAreSecure } from "~/platform/session.server";
import { coordinatesOfCity } from "./places.server";
import { sameCell, storedPosition, type Coordinates } from "./geo.server";

/**
 * A person's coordinates are those of their device when they enabled location in the browser
 * (location_enabled = 1), otherwise those of the city on their profile (the gazetteer). Either
 * way they are stored coarsened (geo.server's storedPosition), and moving to another cell is
 * limited to a few times a day, so that nobody can walk their own position around someone else
 * and narrow down where they live.
 */

export type BrowseMode = NonNullable<User["browse_mode"]>;

export const positionChangeLimit: RateLimit = { max: env.POSITION_CHANGES_PER_DAY, windowSeconds: 24 * 60 * 60 };

/** Today's budget of position changes is spent: the position stays where it was. */
export const TOO_OFTEN = "too-often";

type StoredPosition = ReturnType<typeof storedPosition>;

/**
 * The columns that put a person at `to`, or TOO_OFTEN. Staying in the same cell (a phone posting
 * the same place again) and having no position at all cost nothing; any other move takes one of
 * the day's changes.
 */
async function positionChange(userId: string, to: Coordinates | null): Promise<StoredPosition | typeof TOO_OFTEN> {
  const next = storedPosition(to);
  if (next.latitude === null || next.longitude === null) return next;
  const current = await db.selectFrom("users").select(["latitude", "longitude"]).where("id", "=", userId).executeTakeFirstOrThrow();
  const here = current.latitude === null || current.longitude === null ? null : { latitude: current.latitude, longitude: current.longitude };
  if (sameCell(here, { latitude: next.latitude, longitude: next.longitude })) return next;
  return (await takeAttempt(`position:${userId}`, positionChangeLimit)) ? next : TOO_OFTEN;
}

/** The browser's position: it replaces the city's, and the deck goes local. */
export async function saveDeviceLocation(userId: string, at: Coordinates): Promise<"saved" | typeof TOO_OFTEN> {
  const position = await positionChange(userId, at);
  if (position === TOO_OFTEN) return TOO_OFTEN;
  await db
    .updateTable("users")
    .set({ ...position, location_enabled: 1, location_updated_at: nowIso(), browse_mode: "local" })
    .where("id", "=", userId)
    .execute();
  return "saved";
}

/**
 * Permission denied (or location turned off): the device's position is forgotten and the city's
 * used again. Always allowed and not counted: forgetting must never be refused, and the city's
 * position is one the person already had.
 */
export async function forgetDeviceLocation(userId: string): Promise<Coordinates | null> {
  const { city, time_zone } = await db.selectFrom("users").select(["city", "time_zone"]).where("id", "=", userId).executeTakeFirstOrThrow();
  const place = await coordinatesOfCity(city, time_zone);
  await db
    .updateTable("users")
    .set({ ...storedPosition(place), location_enabled: 0, location_updated_at: nowIso() })
    .where("id", "=", userId)
    .execute();
  return place;
}

/**
 * For a profile about to be saved with `city` (and `timeZone`, when it changes): the position
 * columns to save with it, none while the device's position is in use, or TOO_OFTEN.
 */
export async function positionForCity(
  userId: string,
  city: string,
  timeZone: string | null,
): Promise<Partial<StoredPosition & { location_updated_at: string }> | typeof TOO_OFTEN> {
  const user = await db.selectFrom("users").select(["time_zone", "location_enabled"]).where("id", "=", userId).executeTakeFirstOrThrow();
  if (user.location_enabled) return {};
  const position = await positionChange(userId, await coordinatesOfCity(city, timeZone ?? user.time_zone));
  return position === TOO_OFTEN ? TOO_OFTEN : { ...position, location_updated_at: nowIso() };
}

export async function setBrowseMode(userId: string, mode: BrowseMode): Promise<void> {
  await db.updateTable("users").set({ browse_mode: mode }).where("id", "=", userId).execute();
}

/** 'Maybe Later' on the location prompt: not asked again until the browser closes. */
export const locationPromptLater = createCookie("location-later", { httpOnly: true, sameSite: "lax", path: "/", secure: cookiesAreSecure });

export async function promptPostponed(request: Request): Promise<boolean> {
  return (await locationPromptLater.parse(request.headers.get("Cookie"))) === "1";
}
