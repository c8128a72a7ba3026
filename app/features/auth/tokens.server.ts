import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, EmailTokenPurpose } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";

const HOUR_MS = 60 * 60 * 1000;
export const TOKEN_LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  confirm: 48 * HOUR_MS,
  reset: HOUR_MS,
};

export type TokenCheck = { status: "valid"; userId: string } | { status: "expired" } | { status: "invalid" };

function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Issues a single-use token; only its hash is stored. Earlier unused tokens of the same purpose stop working. */
export async function issueEmailToken(
  userId: string,
  purpose: EmailTokenPurpose,
  database: Kysely<Database> = db,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const at = now();
  await database
    .updateTable("email_tokens")
    .set({ used_at: at.toISOString() })
    .where("user_id", "=", userId)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
  await database
    .insertInto("email_tokens")
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      created_at: at.toISOString(),
      expires_at: new Date(at.getTime() + TOKEN_LIFETIME_MS[purpose]).toISOString(),
    })
    .execute();
  return token;
}

export async function checkEmailToken(
  token: string,
  purpose: EmailTokenPurpose,
  database: Kysely<Database> = db,
): Promise<TokenCheck> {
  if (!token || token.length > 200) return { status: "invalid" };
  const row = await database
    .selectFrom("email_tokens")
    .select(["user_id", "expires_at", "used_at"])
    .where("token_hash", "=", hashToken(token))
    .where("purpose", "=", purpose)
    .executeTakeFirst();
  if (!row || row.used_at) return { status: "invalid" };
  if (Date.parse(row.expires_at) <= now().getTime()) return { status: "expired" };
  return { status: "valid", userId: row.user_id };
}

/** Uses a token once. Call inside a transaction; of two concurrent uses exactly one succeeds. */
export async function consumeEmailToken(
  token: string,
  purpose: EmailTokenPurpose,
  trx: Kysely<Database>,
): Promise<TokenCheck> {
  const check = await checkEmailToken(token, purpose, trx);
  if (check.status !== "valid") return check;
  const used = await trx
    .updateTable("email_tokens")
    .set({ used_at: now().toISOString() })
    .where("token_hash", "=", hashToken(token))
    .where("used_at", "is", null)
    .executeTakeFirst();
  return used.numUpdatedRows === 1n ? check : { status: "invalid" };
}

/** Email links expired a week ago or more go (hourly, from the scheduler): a week keeps "this link expired" answers. */
export async function removeExpiredEmailTokens(): Promise<void> {
  const weekAgo = new Date(now().getTime() - 7 * 24 * 60 * 60 * 1000).toISOString();
  await db.deleteFrom("email_tokens").where("expires_at", "<=", weekAgo).execute();
}
