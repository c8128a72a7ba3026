import { createHash, randomBytes } from "node:crypto";
import { createCookie, redirect } from "@remix-run/node";
import type { Database, User } from "~db/schema";
import { db, preparedQuery } from "./db.server";
import { cookiesAreSecure, env } from "./env.server";
import { now } from "./clock.server";
import { safeRedirectTarget } from "./redirect.server";
import { oncePerRequest } from "./request-context.server";
import { notePerson } from "./log.server";
import type { Kysely } from "kysely";

const DAY_MS = 24 * 60 * 60 * 1000;
// Ends 30 days after sign-in, or after 14 days without a visit, whichever comes first.
export const SESSION_ABSOLUTE_MS = 30 * DAY_MS;
export const SESSION_IDLE_MS = 14 * DAY_MS;
// So that reading a page rarely writes.
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export { cookiesAreSecure };

const sessionCookie = createCookie("__session", {
  httpOnly: true,
  sameSite: "lax",
  secure: cookiesAreSecure,
  path: "/",
  secrets: [env.sessionSecret],
  maxAge: SESSION_ABSOLUTE_MS / 1000,
});

function hashId(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

export async function sessionIdHash(request: Request): Promise<string | null> {
  const id: unknown = await sessionCookie.parse(request.headers.get("Cookie"));
  return typeof id === "string" && id.length > 0 ? hashId(id) : null;
}

export async function startSession(userId: string): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  const at = now();
  await db
    .insertInto("sessions")
    .values({
      id_hash: hashId(id),
      user_id: userId,
      created_at: at.toISOString(),
      last_seen_at: at.toISOString(),
      expires_at: new Date(at.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
    })
    .execute();
  return sessionCookie.serialize(id);
}

export async function endSession(request: Request): Promise<string> {
  const idHash = await sessionIdHash(request);
  if (idHash) await db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
  return sessionCookie.serialize("", { maxAge: 0 });
}

export async function isSignedIn(request: Request): Promise<boolean> {
  const idHash = await sessionIdHash(request);
  if (!idHash) return false;
  const session = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select("sessions.expires_at")
    .where("sessions.id_hash", "=", idHash)
    .where("users.suspended_at", "is", null)
    .executeTakeFirst();
  return Boolean(session && session.expires_at > now().toISOString());
}

/** Signs the person out everywhere (in the caller's transaction when given one). */
export async function endAllSessions(userId: string, database: Kysely<Database> = db): Promise<void> {
  await database.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

/** The signed-in person, looked up once per page however many of its loaders ask. */
export function getUser(request: Request): Promise<User | null> {
  return oncePerRequest(request, `user:${request.headers.get("Cookie") ?? ""}`, () => lookUpUser(request));
}

const sessionUser = preparedQuery((session: { idHash: string }) =>
  db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .select(["sessions.last_seen_at as session_last_seen_at", "sessions.expires_at as session_expires_at"])
    .where("sessions.id_hash", "=", session.idHash),
);

async function lookUpUser(request: Request): Promise<User | null> {
  const idHash = await sessionIdHash(request);
  if (!idHash) return null;
  const row = await sessionUser.first({ idHash });
  if (!row) return null;
  // A suspended person's sessions are deleted when they are suspended; this holds even for one that slipped through.
  if (row.suspended_at) return null;
  const { session_last_seen_at, session_expires_at, ...user } = row;
  const at = now().getTime();
  const lastSeen = Date.parse(session_last_seen_at);
  if (at >= Date.parse(session_expires_at) || at - lastSeen >= SESSION_IDLE_MS) {
    await db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
    return null;
  }
  if (at - lastSeen >= TOUCH_INTERVAL_MS) {
    await db
      .updateTable("sessions")
      .set({ last_seen_at: new Date(at).toISOString() })
      .where("id_hash", "=", idHash)
      .execute();
  }
  notePerson(user.id);
  return user;
}

export async function requireUser(request: Request): Promise<User> {
  const user = await getUser(request);
  if (user) return user;
  const url = new URL(request.url);
  // A request for "//evil.example/…" has that as its path: it must not come back as a redirect.
  const redirectTo = safeRedirectTarget(`${url.pathname}${url.search}`, "/");
  const params = new URLSearchParams({ mode: "login" });
  if (redirectTo !== "/") params.set("redirectTo", redirectTo);
  throw redirect(`/auth?${params}`);
}
