import { createCookie } from "@remix-run/node";
import type { User } from "~db/schema";
import { db } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { cookiesAreSecure } from "~/platform/session.server";
import { storedPosition, type Coordinates, coordinatesOfCity, positionChange, TOO_OFTEN } from "~/features/geo/index.server";

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
 * Permission denied or location turned off: back to the city's position. Never refused nor
 * counted: forgetting must always work, and the city's position is one the person already had.
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

export async function setBrowseMode(userId: string, mode: BrowseMode): Promise<void> {
  await db.updateTable("users").set({ browse_mode: mode }).where("id", "=", userId).execute();
}

export const locationPromptLater = createCookie("location-later", { httpOnly: true, sameSite: "lax", path: "/", secure: cookiesAreSecure });

export async function promptPostponed(request: Request): Promise<boolean> {
  return (await locationPromptLater.parse(request.headers.get("Cookie"))) === "1";
}
