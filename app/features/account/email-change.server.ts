import { createHash, randomBytes } from "node:crypto";
import { db, lockPeople } from "~/platform/db.server";
import { now, nowIso } from "~/platform/clock.server";
import { deliverSoon, enqueueEmail, publicOrigin } from "~/platform/email.server";
import { takeAttempt } from "~/platform/rate-limit.server";
import { checkOwnPassword } from "~/features/auth/index.server";
import { emailChangedEmail, emailChangeLinkEmail, emailChangeNoticeEmail } from "./emails.server";

export const EMAIL_CHANGE_LIFETIME_MS = 60 * 60 * 1000;
/** So the form cannot be used to flood someone's mailbox with links. */
const EMAIL_CHANGE_REQUESTS = { max: 5, windowSeconds: 3600 };

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function emailChangeLink(token: string): string {
  return `${publicOrigin()}/settings/email/confirm?token=${encodeURIComponent(token)}`;
}

export type EmailChangeRequest =
  { status: "sent" } | { status: "wrong-password" } | { status: "wait" } | { status: "same-address" };

/**
 * Sends a link to the new address and a notice to the old one. A taken address gets the same
 * answer and the same notice, but no link (following it could never work): nothing tells whether
 * someone else has it.
 */
export async function requestEmailChange(
  userId: string,
  newEmail: string,
  password: string,
): Promise<EmailChangeRequest> {
  const check = await checkOwnPassword(userId, password);
  if (check === "wait") return { status: "wait" };
  if (check === "wrong") return { status: "wrong-password" };
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "name", "language"])
    .where("id", "=", userId)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  if (user.email === newEmail) return { status: "same-address" };
  if (!(await takeAttempt(`email-change:${userId}`, EMAIL_CHANGE_REQUESTS))) return { status: "wait" };
  const taken = await db.selectFrom("users").select("id").where("email", "=", newEmail).executeTakeFirst();
  const token = randomBytes(32).toString("base64url");
  const at = now();
  await db.transaction().execute(async (trx) => {
    await lockPeople(trx, userId);
    // Only the latest link works.
    await trx
      .updateTable("email_changes")
      .set({ used_at: at.toISOString() })
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .execute();
    if (!taken) {
      await trx
        .insertInto("email_changes")
        .values({
          token_hash: hashToken(token),
          user_id: userId,
          new_email: newEmail,
          created_at: at.toISOString(),
          expires_at: new Date(at.getTime() + EMAIL_CHANGE_LIFETIME_MS).toISOString(),
        })
        .execute();
      await enqueueEmail(
        await emailChangeLinkEmail({ newEmail, name: user.name, language: user.language }, emailChangeLink(token)),
        trx,
      );
    }
    await enqueueEmail(await emailChangeNoticeEmail(user, newEmail), trx);
  });
  deliverSoon();
  return { status: "sent" };
}

export type EmailChangeCheck = { status: "valid"; newEmail: string } | { status: "expired" } | { status: "invalid" };

export async function checkEmailChangeToken(token: string): Promise<EmailChangeCheck> {
  if (!token || token.length > 200) return { status: "invalid" };
  const row = await db
    .selectFrom("email_changes")
    .innerJoin("users", "users.id", "email_changes.user_id")
    .select(["email_changes.new_email", "email_changes.expires_at", "email_changes.used_at", "users.deleted_at"])
    .where("token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row || row.used_at || row.deleted_at) return { status: "invalid" };
  if (Date.parse(row.expires_at) <= now().getTime()) return { status: "expired" };
  return { status: "valid", newEmail: row.new_email };
}

export type EmailChangeResult =
  | { status: "changed"; userId: string; newEmail: string }
  | { status: "expired" }
  | { status: "invalid" }
  | { status: "taken" };

/** Following the link (once, within the hour) is what changes the address. */
export async function confirmEmailChange(token: string): Promise<EmailChangeResult> {
  if (!token || token.length > 200) return { status: "invalid" };
  const result = await db.transaction().execute(async (trx): Promise<EmailChangeResult> => {
    const row = await trx
      .selectFrom("email_changes")
      .selectAll()
      .where("token_hash", "=", hashToken(token))
      .executeTakeFirst();
    if (!row || row.used_at) return { status: "invalid" };
    if (Date.parse(row.expires_at) <= now().getTime()) return { status: "expired" };
    const used = await trx
      .updateTable("email_changes")
      .set({ used_at: nowIso() })
      .where("token_hash", "=", row.token_hash)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (used.numUpdatedRows !== 1n) return { status: "invalid" };
    const user = await trx
      .selectFrom("users")
      .select(["id", "email", "name", "language", "deleted_at"])
      .where("id", "=", row.user_id)
      .executeTakeFirst();
    if (!user || user.deleted_at) return { status: "invalid" };
    // Someone may have signed up with the address since the link was sent.
    if (await trx.selectFrom("users").select("id").where("email", "=", row.new_email).executeTakeFirst())
      return { status: "taken" };
    await trx
      .updateTable("users")
      .set({ email: row.new_email, email_verified_at: nowIso(), updated_at: nowIso() })
      .where("id", "=", user.id)
      .execute();
    await enqueueEmail(await emailChangedEmail(user, row.new_email), trx);
    return { status: "changed", userId: user.id, newEmail: row.new_email };
  });
  if (result.status === "changed") deliverSoon();
  return result;
}
