import { db } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { env } from "~/platform/env.server";
import { takeSlidingAttempt, type RateLimit } from "~/platform/rate-limit.server";
import { sameCell, storedPosition, type Coordinates } from "./geo.server";
import { coordinatesOfCity } from "./places.server";

/**
 * Moving to another cell is limited to a few times in any 24 hours (a sliding window: a fixed day
 * would allow twice as many across midnight), so that nobody can walk their own position around
 * someone else and narrow down where they live. Every change of stored cell goes through
 * `positionChange`, whatever route asks for it: a device's position, location turned off or
 * refused, a new city on the profile.
 */
export const positionChangeLimit: RateLimit = { max: env.POSITION_CHANGES_PER_DAY, windowSeconds: 24 * 60 * 60 };

export const TOO_OFTEN = "too-often";

export type StoredPosition = ReturnType<typeof storedPosition>;

export async function positionChange(
  userId: string,
  to: Coordinates | null,
): Promise<StoredPosition | typeof TOO_OFTEN> {
  const next = storedPosition(to);
  if (next.latitude === null || next.longitude === null) return next;
  const current = await db
    .selectFrom("users")
    .select(["latitude", "longitude"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const here =
    current.latitude === null || current.longitude === null
      ? null
      : { latitude: current.latitude, longitude: current.longitude };
  if (sameCell(here, { latitude: next.latitude, longitude: next.longitude })) return next;
  return (await takeSlidingAttempt(`position:${userId}`, positionChangeLimit)) ? next : TOO_OFTEN;
}

export async function positionForCity(
  userId: string,
  city: string,
  timeZone: string | null,
): Promise<Partial<StoredPosition & { location_updated_at: string }> | typeof TOO_OFTEN> {
  const user = await db
    .selectFrom("users")
    .select(["city", "time_zone", "location_enabled"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  if (user.location_enabled) return {};
  const position = await positionChange(userId, await coordinatesOfCity(city, timeZone ?? user.time_zone));
  if (position !== TOO_OFTEN) return { ...position, location_updated_at: nowIso() };
  // The same city saved again (a new bio) is no move asked for: it saves, wherever the position stands.
  const sameCity = user.city === city && (timeZone === null || timeZone === user.time_zone);
  return sameCity ? {} : TOO_OFTEN;
}
