// The messages' part of a person's data export and erasure: the messages of their conversations,
// their attachments and what they had read.
import { mentions, scrubbed, type PersonalDataSection } from "~/platform/personal-data.server";

export const messagesSection: PersonalDataSection = {
  name: "messages",
  async exportOf(userId, database) {
    return database
      .selectFrom("messages as m")
      .innerJoin("conversations as c", "c.id", "m.conversation_id")
      .select(["m.id", "m.conversation_id", "m.sender_id", "m.body", "m.media_type", "m.created_at"])
      .where((eb) => eb.or([eb("c.user_a_id", "=", userId), eb("c.user_b_id", "=", userId)]))
      .orderBy("m.id")
      .execute();
  },
  // The text stays in the other person's conversation, under "Deleted member"; attachments go.
  async erase(person, trx) {
    const sent = await trx
      .selectFrom("messages")
      .select(["media_key", "media_preview_key"])
      .where("sender_id", "=", person.id)
      .where("media_key", "is not", null)
      .execute();
    await trx
      .updateTable("messages")
      .set({ media_key: null, media_type: null, media_preview_key: null })
      .where("sender_id", "=", person.id)
      .execute();
    await trx.deleteFrom("conversation_reads").where("user_id", "=", person.id).execute();
    // Their name, address or phone typed into a conversation goes too, whoever typed it.
    const theirs = trx
      .selectFrom("conversations")
      .select("id")
      .where((eb) => eb.or([eb("user_a_id", "=", person.id), eb("user_b_id", "=", person.id)]));
    await trx
      .updateTable("messages")
      .set({ body: scrubbed("body", person) })
      .where("conversation_id", "in", theirs)
      .where(mentions("body", person))
      .execute();
    return sent.flatMap((row) => [row.media_key, row.media_preview_key]).filter((key): key is string => key !== null);
  },
};
