// Weekly care's part of a person's data export and erasure: the series on either side, with their
// schedules, pets and skipped dates.
import type { PersonalDataSection } from "~/platform/personal-data.server";

export const weeklyCareSection: PersonalDataSection = {
  // Weekly care on either side, with its schedules, pets and skipped dates; erased with the person (its
  // occurrences are bookings, kept like any other).
  name: "weeklyCare",
  async exportOf(userId, database) {
    const series = await database
      .selectFrom("care_series")
      .selectAll()
      .where((eb) => eb.or([eb("owner_id", "=", userId), eb("sitter_id", "=", userId)]))
      .orderBy("created_at")
      .execute();
    const ids = series.map((row) => row.id);
    if (ids.length === 0) return [];
    const [schedules, pets, skips] = await Promise.all([
      database.selectFrom("care_series_schedules").selectAll().where("series_id", "in", ids).execute(),
      database.selectFrom("care_series_pets").selectAll().where("series_id", "in", ids).execute(),
      database.selectFrom("care_series_skips").selectAll().where("series_id", "in", ids).execute(),
    ]);
    return series.map((row) => ({
      ...row,
      schedules: schedules.filter((schedule) => schedule.series_id === row.id),
      pets: pets.filter((pet) => pet.series_id === row.id).map(({ pet_id, pet_name }) => ({ pet_id, pet_name })),
      skipped: skips.filter((skip) => skip.series_id === row.id).map(({ day, skipped_by }) => ({ day, skipped_by })),
    }));
  },
  async erase(person, trx) {
    const ids = (
      await trx
        .selectFrom("care_series")
        .select("id")
        .where((eb) => eb.or([eb("owner_id", "=", person.id), eb("sitter_id", "=", person.id)]))
        .execute()
    ).map((row) => row.id);
    if (ids.length === 0) return;
    await trx.deleteFrom("care_series_skips").where("series_id", "in", ids).execute();
    await trx.deleteFrom("care_series_pets").where("series_id", "in", ids).execute();
    await trx.deleteFrom("care_series_schedules").where("series_id", "in", ids).execute();
    await trx.deleteFrom("care_series").where("id", "in", ids).execute();
  },
};
