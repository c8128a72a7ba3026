// The sign-in's part of a person's erasure: the email tokens (confirmation, password reset) issued to
// them. The account's "emails" section calls it.
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";

export async function eraseEmailTokens(userId: string, trx: Kysely<Database>): Promise<void> {
  await trx.deleteFrom("email_tokens").where("user_id", "=", userId).execute();
}
