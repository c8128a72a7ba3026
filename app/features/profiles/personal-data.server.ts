// The profile's part of a person's data export and erasure: their row in users (emptied last, by the
// account's erasure) and the services a sitter offers.
import type { PersonalDataSection } from "~/platform/personal-data.server";

export const profileSection: PersonalDataSection = {
  name: "profile",
  async exportOf(userId, database) {
    return database
      .selectFrom("users")
      .select([
        "id",
        "email",
        "email_verified_at",
        "name",
        "phone",
        "city",
        "postal_code",
        "role",
        "bio",
        "latitude",
        "longitude",
        "location_enabled",
        "time_zone",
        "language",
        "hourly_rate_cents",
        "max_pets",
        "extra_pet_cents",
        "years_experience",
        "experience",
        "cares_for",
        "acting_role",
        "browse_mode",
        "filter_pet_type",
        "filter_max_distance_km",
        "filter_min_rating",
        "filter_max_price_cents",
        "filter_sort",
        "filter_service",
        "filter_first_day",
        "filter_last_day",
        "filter_pets",
        "rating_average",
        "review_count",
        "sounds_enabled",
        "email_messages",
        "email_bookings",
        "email_reviews",
        "email_marketing",
        "terms_accepted_at",
        "created_at",
        "updated_at",
      ])
      .where("id", "=", userId)
      .executeTakeFirst();
  },
  // The row itself is emptied last, by the erasure, once every other section has used the name.
  async erase() {},
};

export const servicesSection: PersonalDataSection = {
  name: "services",
  async exportOf(userId, database) {
    return database
      .selectFrom("sitter_services")
      .select(["service", "price_cents", "duration_minutes"])
      .where("sitter_id", "=", userId)
      .orderBy("service")
      .execute();
  },
  async erase(person, trx) {
    await trx.deleteFrom("sitter_services").where("sitter_id", "=", person.id).execute();
  },
};
