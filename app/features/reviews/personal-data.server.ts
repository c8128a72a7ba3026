// The reviews' part of a person's data export and erasure: the reviews they gave and received, kept
// without their details in the text.
import { mentions, scrubbed, type PersonalDataSection } from "~/platform/personal-data.server";

export const reviewsDataSection: PersonalDataSection = {
  name: "reviews",
  async exportOf(userId, database) {
    const columns = [
      "id",
      "booking_id",
      "reviewer_id",
      "reviewed_id",
      "rating",
      "comment",
      "created_at",
      "reply",
      "replied_at",
    ] as const;
    const [given, received] = await Promise.all([
      database.selectFrom("reviews").select(columns).where("reviewer_id", "=", userId).execute(),
      database.selectFrom("reviews").select(columns).where("reviewed_id", "=", userId).execute(),
    ]);
    return { given, received };
  },
  // Reviews and their replies stay (under "Deleted member"), without the person's details in their text.
  async erase(person, trx) {
    await trx
      .updateTable("reviews")
      .set({ comment: scrubbed("comment", person) })
      .where((eb) => eb.or([eb("reviewer_id", "=", person.id), eb("reviewed_id", "=", person.id)]))
      .where(mentions("comment", person))
      .execute();
    await trx
      .updateTable("reviews")
      .set({ reply: scrubbed("reply", person) })
      .where((eb) => eb.or([eb("reviewer_id", "=", person.id), eb("reviewed_id", "=", person.id)]))
      .where("reply", "is not", null)
      .where(mentions("reply", person))
      .execute();
  },
};
