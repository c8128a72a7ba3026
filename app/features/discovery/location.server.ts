import { createCookie } from "@remix-run/node";
import type { User } from "~db/schema";
import { db } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { cookiesAreSecure } from "~/platform/session.server";
import {
  storedPosition,
  type Coordinates,
  coordinatesOfCity,
  positionChange,
  TOO_OFTEN,
} from "~/features/geo/index.server";

export type BrowseMode = NonNullable<User["browse_mode"]>;

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
 * Permission denied or location turned off: back to the city's position. The move counts like any
 * other (the city may have changed while the device's position stood in for it, which cost
 * nothing). Forgetting always works: past the limit the device's cell is dropped and no position
 * is kept until the next move the limit allows. Answers the position now stored.
 */
export async function forgetDeviceLocation(userId: string): Promise<Coordinates | null> {
  const { city, time_zone } = await db
    .selectFrom("users")
    .select(["city", "time_zone"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const change = await positionChange(userId, await coordinatesOfCity(city, time_zone));
  const position = change === TOO_OFTEN ? storedPosition(null) : change;
  await db
    .updateTable("users")
    .set({ ...position, location_enabled: 0, location_updated_at: nowIso() })
    .where("id", "=", userId)
    .execute();
  return position.latitude === null || position.longitude === null
    ? null
    : { latitude: position.latitude, longitude: position.longitude };
}

export async function setBrowseMode(userId: string, mode: BrowseMode): Promise<void> {
  await db.updateTable("users").set({ browse_mode: mode }).where("id", "=", userId).execute();
}

export const locationPromptLater = createCookie("location-later", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: cookiesAreSecure,
});

export async function promptPostponed(request: Request): Promise<boolean> {
  return (await locationPromptLater.parse(request.headers.get("Cookie"))) === "1";
}
