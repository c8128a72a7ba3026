// The pets' part of a person's data export and erasure: the pets they own.
import type { PersonalDataSection } from "~/platform/personal-data.server";

export const petsSection: PersonalDataSection = {
  name: "pets",
  async exportOf(userId, database) {
    return database
      .selectFrom("pets")
      .select([
        "id",
        "name",
        "pet_type",
        "age",
        "breed",
        "notes",
        "temperament",
        "special_needs",
        "energy_level",
        "created_at",
        "updated_at",
      ])
      .where("owner_id", "=", userId)
      .execute();
  },
  async erase(person, trx) {
    await trx.deleteFrom("pets").where("owner_id", "=", person.id).execute();
  },
};
