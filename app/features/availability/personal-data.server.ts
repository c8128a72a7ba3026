// The availability's part of a person's data export and erasure: a sitter's slots and the days they
// are not free.
import type { PersonalDataSection } from "~/platform/personal-data.server";

export const availabilitySection: PersonalDataSection = {
  name: "availability",
  async exportOf(userId, database) {
    return database
      .selectFrom("availability_slots")
      .select(["id", "start_at", "end_at", "status", "booking_id", "created_at"])
      .where("sitter_id", "=", userId)
      .orderBy("start_at")
      .execute();
  },
  async erase(person, trx) {
    await trx.deleteFrom("availability_slots").where("sitter_id", "=", person.id).execute();
  },
};

export const daysNotFreeSection: PersonalDataSection = {
  name: "daysNotFree",
  async exportOf(userId, database) {
    return database
      .selectFrom("sitter_days_off")
      .select("day")
      .where("sitter_id", "=", userId)
      .orderBy("day")
      .execute()
      .then((rows) => rows.map((row) => row.day));
  },
  async erase(person, trx) {
    await trx.deleteFrom("sitter_days_off").where("sitter_id", "=", person.id).execute();
  },
};
