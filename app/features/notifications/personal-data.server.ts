// The notifications' part of a person's data export and erasure: their news (and live events), and
// the other people's news that named them.
import { json } from "~/platform/db.server";
import { counterpartsOf, mentions, scrubbed, type PersonalDataSection } from "~/platform/personal-data.server";
import { eraseEventsOf } from "~/platform/events/events.server";

export const notificationsSection: PersonalDataSection = {
  name: "notifications",
  async exportOf(userId, database) {
    const rows = await database
      .selectFrom("notifications")
      .select(["type", "data", "link", "is_read", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute();
    return rows.map((row) => ({ ...row, data: json<unknown>().read(row.data) }));
  },
  async erase(person, trx) {
    await trx.deleteFrom("notifications").where("user_id", "=", person.id).execute();
    await eraseEventsOf(person.id, trx);
    const others = await counterpartsOf(person.id, trx);
    if (others.length === 0 || !person.name) return;
    // Other people's news named the person ("Ana accepted your booking") or quoted their messages.
    await trx
      .updateTable("notifications")
      .set({ data: scrubbed("data", person) })
      .where("user_id", "in", others)
      .where(mentions("data", person))
      .execute();
  },
};
