// The payments' part of a person's data export and erasure: their saved cards (the brand, the last
// four digits and the expiry, never more). The "payments" section, in subscriptions, carries them.
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";

export function savedCardsForExport(userId: string, database: Kysely<Database>) {
  return database
    .selectFrom("payment_methods")
    .select(["provider", "brand", "last4", "exp_month", "exp_year", "is_default", "created_at"])
    .where("user_id", "=", userId)
    .execute();
}

/** Saved cards are not accounting records: they go with the person. */
export async function eraseSavedCards(userId: string, trx: Kysely<Database>): Promise<void> {
  await trx.deleteFrom("payment_methods").where("user_id", "=", userId).execute();
}
