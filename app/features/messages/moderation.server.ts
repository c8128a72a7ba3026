// Moderation of messages: an operator hides one, and the notification that quoted it says it was removed.
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { replaceMessagePreview } from "~/features/notifications/index.server";
import { isLanguage } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";

/**
 * An operator hides a message; false when it was already hidden. The notification that announced it quoted
 * it: its preview now says it was removed, in the recipient's language.
 */
export async function hideMessage(trx: Kysely<Database>, id: number, operatorId: string, at: string): Promise<boolean> {
  const hidden = await trx
    .updateTable("messages")
    .set({ hidden_at: at, hidden_by: operatorId })
    .where("id", "=", id)
    .where("hidden_at", "is", null)
    .executeTakeFirst();
  const message = await trx
    .selectFrom("messages as m")
    .innerJoin("conversations as c", "c.id", "m.conversation_id")
    .select(["m.sender_id", "m.body", "c.user_a_id", "c.user_b_id"])
    .where("m.id", "=", id)
    .executeTakeFirst();
  if (message) {
    const recipientId = message.user_a_id === message.sender_id ? message.user_b_id : message.user_a_id;
    const recipient = await trx.selectFrom("users").select("language").where("id", "=", recipientId).executeTakeFirst();
    const t = await translatorFor(isLanguage(recipient?.language) ? recipient.language : "en", "safety");
    await replaceMessagePreview(trx, { recipientId, senderId: message.sender_id, body: message.body }, t("removed"));
  }
  return Number(hidden.numUpdatedRows) > 0;
}
