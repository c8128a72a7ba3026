import { createHmac, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import type { User } from "~db/schema";
import { db } from "~/platform/db.server";
import { cookiesAreSecure, env } from "~/platform/env.server";

/**
 * The browsers a person has signed in from (OWASP's device cookies): after the right password, a
 * confirmation or a reset link, the browser keeps a signed note of the account. Such a browser
 * skips the delay that wrong passwords from everywhere else put on the account, so guessers cannot
 * lock the owner out; its own wrong passwords slow it alone. A note names the account's id and a
 * fingerprint of its password: a new password, or an account deleted and made again with the same
 * address, leaves every older note naming nothing.
 */

const DEVICES_MAX = 5;

const deviceCookie = createCookie("device", {
  httpOnly: true,
  sameSite: "lax",
  secure: cookiesAreSecure,
  path: "/",
  secrets: [env.sessionSecret],
  maxAge: 365 * 24 * 60 * 60,
});

/** An account this browser signed in to: its id, this browser's id for it, and the password's fingerprint. */
type DeviceNote = { u: string; d: string; k: string };

export interface KnownDevice {
  userId: string;
  deviceId: string;
  fingerprint: string;
}

export function passwordFingerprint(passwordHash: string | null): string {
  return createHmac("sha256", env.sessionSecret)
    .update(`known device:${passwordHash ?? ""}`)
    .digest("base64url")
    .slice(0, 22);
}

function notesOf(value: unknown): DeviceNote[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (note): note is DeviceNote =>
        typeof note?.u === "string" && typeof note.d === "string" && typeof note.k === "string",
    )
    .slice(0, DEVICES_MAX);
}

/** What the browser's (signed) cookie says; a cookie not signed here says nothing. */
export async function knownDevicesOf(request: Request): Promise<KnownDevice[]> {
  const notes = notesOf(await deviceCookie.parse(request.headers.get("Cookie")));
  return notes.map((note) => ({ userId: note.u, deviceId: note.d, fingerprint: note.k }));
}

/** This browser's id for the account, if it signed in to it with its current password. */
export function deviceOf(devices: KnownDevice[], user: Pick<User, "id" | "password_hash">): string | null {
  const fingerprint = passwordFingerprint(user.password_hash);
  return devices.find((device) => device.userId === user.id && device.fingerprint === fingerprint)?.deviceId ?? null;
}

/** The Set-Cookie header that adds (or renews) the account, with its password as it is now, in this browser's notes, newest first. */
export async function rememberDevice(request: Request, userId: string): Promise<string> {
  const user = await db
    .selectFrom("users")
    .select(["id", "password_hash"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const earlier = await knownDevicesOf(request);
  const deviceId =
    earlier.find((device) => device.userId === user.id)?.deviceId ?? randomBytes(16).toString("base64url");
  const note: DeviceNote = { u: user.id, d: deviceId, k: passwordFingerprint(user.password_hash) };
  const others = earlier
    .filter((device) => device.userId !== user.id)
    .map((device) => ({ u: device.userId, d: device.deviceId, k: device.fingerprint }));
  return deviceCookie.serialize([note, ...others].slice(0, DEVICES_MAX));
}

/** The accounts this browser signed in to that still exist, are not deleted and keep the password it knew. */
export async function knownAccountsOf(request: Request): Promise<Pick<User, "id" | "email" | "created_at">[]> {
  const devices = await knownDevicesOf(request);
  if (devices.length === 0) return [];
  const users = await db
    .selectFrom("users")
    .select(["id", "email", "created_at", "password_hash"])
    .where(
      "id",
      "in",
      devices.map((device) => device.userId),
    )
    .where("deleted_at", "is", null)
    .execute();
  return users
    .filter((user) => deviceOf(devices, user))
    .map(({ id, email, created_at }) => ({ id, email, created_at }));
}
