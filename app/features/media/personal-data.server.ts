// The media's part of a person's data export and erasure: their photos (and their pets'), with the
// files for the archive, and the uploads they had not used yet.
import type { PersonalDataSection } from "~/platform/personal-data.server";

const photoFiles = (rows: { id: string; full_key: string; pet_id: string | null }[]) =>
  rows.map((row) => ({ key: row.full_key, name: `photos/${row.pet_id ? `pet-${row.pet_id}-` : ""}${row.id}.webp` }));

export const photosSection: PersonalDataSection = {
  name: "photos",
  async exportOf(userId, database) {
    return database
      .selectFrom("photos")
      .select(["id", "pet_id", "position", "width", "height", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("position")
      .execute();
  },
  async filesOf(userId, database) {
    return photoFiles(
      await database
        .selectFrom("photos")
        .select(["id", "full_key", "pet_id"])
        .where("user_id", "=", userId)
        .orderBy("position")
        .execute(),
    );
  },
  async erase(person, trx) {
    const photos = await trx
      .selectFrom("photos")
      .select(["card_key", "full_key"])
      .where("user_id", "=", person.id)
      .execute();
    const pending = await trx
      .selectFrom("pending_uploads")
      .select(["card_key", "full_key"])
      .where("user_id", "=", person.id)
      .execute();
    await trx.deleteFrom("photos").where("user_id", "=", person.id).execute();
    await trx.deleteFrom("pending_uploads").where("user_id", "=", person.id).execute();
    return [...photos, ...pending].flatMap((row) => [row.card_key, row.full_key]);
  },
};
