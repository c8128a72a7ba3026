import { db } from "~/platform/db.server";
import { isSitter } from "./profiles.server";

/**
 * A sitter who may be found (verified, not suspended or deleted) but offers no pet sitting by the hour:
 * their id and name, for a page that says so and links back to their profile. Null for anyone else.
 */
export async function sitterWithoutHourlyRate(id: string): Promise<{ id: string; name: string } | null> {
  if (!id) return null;
  const sitter = await db
    .selectFrom("users")
    .select(["id", "name", "role", "hourly_rate_cents"])
    .where("id", "=", id)
    .where("email_verified_at", "is not", null)
    .where("suspended_at", "is", null)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!sitter || !isSitter(sitter.role) || sitter.hourly_rate_cents !== null) return null;
  return { id: sitter.id, name: sitter.name };
}
