// The meet & greets' part of a person's data export and erasure.
import type { PersonalDataSection } from "~/platform/personal-data.server";

export const meetGreetsSection: PersonalDataSection = {
  // Meet & greets on either side; erased with the person (the other side's record of it goes too).
  name: "meetGreets",
  async exportOf(userId, database) {
    return database
      .selectFrom("meet_greets")
      .select([
        "id",
        "owner_id",
        "sitter_id",
        "start_at",
        "place",
        "place_note",
        "status",
        "proposed_by",
        "created_at",
        "updated_at",
      ])
      .where((eb) => eb.or([eb("owner_id", "=", userId), eb("sitter_id", "=", userId)]))
      .orderBy("start_at")
      .execute();
  },
  async erase(person, trx) {
    await trx
      .deleteFrom("meet_greets")
      .where((eb) => eb.or([eb("owner_id", "=", person.id), eb("sitter_id", "=", person.id)]))
      .execute();
  },
};
