import type { IncomingHttpHeaders } from "node:http";
import { db } from "./db.server";
import { now } from "./clock.server";
import { sessionIdHash } from "./session.server";

/**
 * Who sends an upload, from the session cookie alone, before a byte of the body is read: the id of
 * a signed-in member who is neither suspended nor deleted, else null.
 */
export async function uploaderOf(headers: IncomingHttpHeaders): Promise<string | null> {
  const cookie = typeof headers.cookie === "string" ? headers.cookie : null;
  if (!cookie) return null;
  const idHash = await sessionIdHash(new Request("http://localhost/", { headers: { Cookie: cookie } }));
  if (!idHash) return null;
  const session = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select(["users.id", "sessions.expires_at"])
    .where("sessions.id_hash", "=", idHash)
    .where("users.suspended_at", "is", null)
    .where("users.deleted_at", "is", null)
    .executeTakeFirst();
  return session && session.expires_at > now().toISOString() ? session.id : null;
}
