// The discovery's part of a person's data export and erasure: their swipes (and the swipes on them)
// and their matches.
import type { PersonalDataSection } from "~/platform/personal-data.server";

export const swipesSection: PersonalDataSection = {
  name: "swipes",
  async exportOf(userId, database) {
    return database
      .selectFrom("swipes")
      .select(["target_user_id", "target_pet_id", "decision", "created_at"])
      .where("swiper_id", "=", userId)
      .orderBy("id")
      .execute();
  },
  async erase(person, trx) {
    await trx
      .deleteFrom("swipes")
      .where((eb) => eb.or([eb("swiper_id", "=", person.id), eb("target_user_id", "=", person.id)]))
      .execute();
  },
};

export const matchesSection: PersonalDataSection = {
  name: "matches",
  async exportOf(userId, database) {
    return database
      .selectFrom("matches")
      .select(["id", "user_a_id", "user_b_id", "created_at"])
      .where((eb) => eb.or([eb("user_a_id", "=", userId), eb("user_b_id", "=", userId)]))
      .execute();
  },
  async erase(person, trx) {
    await trx
      .deleteFrom("matches")
      .where((eb) => eb.or([eb("user_a_id", "=", person.id), eb("user_b_id", "=", person.id)]))
      .execute();
  },
};
