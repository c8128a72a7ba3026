// The care plans' part of a person's data export and erasure: the plans of their pets.
import type { PersonalDataSection } from "~/platform/personal-data.server";

export const carePlansSection: PersonalDataSection = {
  name: "carePlans",
  async exportOf(userId, database) {
    return database
      .selectFrom("care_plans as c")
      .innerJoin("pets as p", "p.id", "c.pet_id")
      .select([
        "c.pet_id",
        "p.name as pet_name",
        "c.feeding",
        "c.medication",
        "c.walks",
        "c.house_notes",
        "c.vet_name",
        "c.vet_phone",
        "c.vet_address",
        "c.emergency_name",
        "c.emergency_phone",
        "c.updated_at",
      ])
      .where("p.owner_id", "=", userId)
      .execute();
  },
  // Erased with the pets: nothing of a plan is needed once the person is gone.
  async erase(person, trx) {
    await trx
      .deleteFrom("care_plans")
      .where("pet_id", "in", trx.selectFrom("pets").select("id").where("owner_id", "=", person.id))
      .execute();
  },
};
