import { createCookie } from "@remix-run/node";
import type { User } from "~db/schema";
import { db } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { cookiesAreSecure } from "~/platform/session.server";
import { coordinatesOfCity } from "./places.server";
import type { Coordinates } from "./geo.server";

/**
 * A person's coordinates are those of their device when they enabled location in the browser
 * (location_enabled = 1), otherwise those of the city on their profile (the gazetteer).
 */

export type BrowseMode = NonNullable<User["browse_mode"]>;

/** The browser's position: it replaces the city's, and the deck goes local. */
export async function saveDeviceLocation(userId: string, at: Coordinates): Promise<void> {
  await db
    .updateTable("users")
    .set({ latitude: at.latitude, longitude: at.longitude, location_enabled: 1, location_updated_at: nowIso(), browse_mode: "local" })
    .where("id", "=", userId)
    .execute();
}

/** Permission denied (or location turned off): the device's position is forgotten and the city's used again. */
export async function forgetDeviceLocation(userId: string): Promise<Coordinates | null> {
  const { city, time_zone } = await db.selectFrom("users").select(["city", "time_zone"]).where("id", "=", userId).executeTakeFirstOrThrow();
  const place = await coordinatesOfCity(city, time_zone);
  await db
    .updateTable("users")
    .set({ latitude: place?.latitude ?? null, longitude: place?.longitude ?? null, location_enabled: 0, location_updated_at: nowIso() })
    .where("id", "=", userId)
    .execute();
  return place;
}

/** After the city on a profile changes: its coordinates, unless the device's are in use. */
export async function placeByCity(userId: string): Promise<void> {
  const user = await db.selectFrom("users").select(["city", "time_zone", "location_enabled"]).where("id", "=", userId).executeTakeFirstOrThrow();
  if (user.location_enabled) return;
  const place = await coordinatesOfCity(user.city, user.time_zone);
  await db
    .updateTable("users")
    .set({ latitude: place?.latitude ?? null, longitude: place?.longitude ?? null, location_updated_at: nowIso() })
    .where("id", "=", userId)
    .execute();
}

export async function setBrowseMode(userId: string, mode: BrowseMode): Promise<void> {
  await db.updateTable("users").set({ browse_mode: mode }).where("id", "=", userId).execute();
}

/** 'Maybe Later' on the location prompt: not asked again until the browser closes. */
export const locationPromptLater = createCookie("location-later", { httpOnly: true, sameSite: "lax", path: "/", secure: cookiesAreSecure });

export async function promptPostponed(request: Request): Promise<boolean> {
  return (await locationPromptLater.parse(request.headers.get("Cookie"))) === "1";
}
