// The safety's part of a person's data export and erasure: the reports they made (and those about
// them, kept without their details) and their blocks.
import { mentions, scrubbed, type PersonalDataSection } from "~/platform/personal-data.server";

export const reportsSection: PersonalDataSection = {
  name: "reports",
  // Only the reports the person made: who reported them is never shown to them.
  async exportOf(userId, database) {
    return database
      .selectFrom("reports")
      .select([
        "id",
        "reported_user_id",
        "subject_type",
        "subject_id",
        "reason",
        "details",
        "status",
        "resolution",
        "resolved_at",
        "created_at",
      ])
      .where("reporter_id", "=", userId)
      .orderBy("created_at")
      .execute();
  },
  // Their own reports go; reports about them stay for the operators' record, without their details in the text.
  async erase(person, trx) {
    await trx.deleteFrom("reports").where("reporter_id", "=", person.id).execute();
    await trx
      .updateTable("reports")
      .set({ details: scrubbed("details", person) })
      .where("reported_user_id", "=", person.id)
      .where(mentions("details", person))
      .execute();
  },
};

export const blocksSection: PersonalDataSection = {
  name: "blocks",
  async exportOf(userId, database) {
    return database
      .selectFrom("blocks")
      .select(["blocked_id", "created_at"])
      .where("blocker_id", "=", userId)
      .orderBy("created_at")
      .execute();
  },
  async erase(person, trx) {
    await trx
      .deleteFrom("blocks")
      .where((eb) => eb.or([eb("blocker_id", "=", person.id), eb("blocked_id", "=", person.id)]))
      .execute();
  },
};
