// The disputes' part of a person's data export and erasure: the problems on their bookings, with
// their own posts and photos.
import { mentions, scrubbed, type PersonalDataSection } from "~/platform/personal-data.server";

export const disputesSection: PersonalDataSection = {
  name: "disputes",
  // The problems on their bookings, and only their own words and photos in them.
  async exportOf(userId, database) {
    const disputes = await database
      .selectFrom("disputes as d")
      .innerJoin("bookings as b", "b.id", "d.booking_id")
      .select([
        "d.id",
        "d.booking_id",
        "d.reason",
        "d.status",
        "d.outcome",
        "d.refund_cents",
        "d.resolved_at",
        "d.created_at",
      ])
      .where((eb) => eb.or([eb("b.owner_id", "=", userId), eb("b.sitter_id", "=", userId)]))
      .orderBy("d.created_at")
      .execute();
    const posts = await database
      .selectFrom("dispute_posts")
      .select(["id", "dispute_id", "body", "created_at"])
      .where("author_id", "=", userId)
      .orderBy("created_at")
      .execute();
    const photos = await database
      .selectFrom("dispute_photos as ph")
      .innerJoin("dispute_posts as p", "p.id", "ph.post_id")
      .select(["ph.id", "ph.post_id", "ph.width", "ph.height", "ph.position"])
      .where("p.author_id", "=", userId)
      .orderBy("ph.position")
      .execute();
    return disputes.map((dispute) => ({
      ...dispute,
      posts: posts
        .filter((post) => post.dispute_id === dispute.id)
        .map((post) => ({
          id: post.id,
          body: post.body,
          created_at: post.created_at,
          photos: photos.filter((photo) => photo.post_id === post.id).map(({ post_id: _post, ...photo }) => photo),
        })),
    }));
  },
  async filesOf(userId, database) {
    const rows = await database
      .selectFrom("dispute_photos as ph")
      .innerJoin("dispute_posts as p", "p.id", "ph.post_id")
      .select(["ph.id", "ph.full_key", "p.dispute_id"])
      .where("p.author_id", "=", userId)
      .orderBy("ph.position")
      .execute();
    return rows.map((row) => ({ key: row.full_key, name: `disputes/${row.dispute_id}/${row.id}.webp` }));
  },
  // The dispute and its settlement stay for accounting; the person's photos go, and their name,
  // email and phone leave every post and note of their disputes, whoever wrote them.
  async erase(person, trx) {
    const photos = await trx
      .selectFrom("dispute_photos")
      .select(["card_key", "full_key"])
      .where("post_id", "in", trx.selectFrom("dispute_posts").select("id").where("author_id", "=", person.id))
      .execute();
    await trx
      .deleteFrom("dispute_photos")
      .where("post_id", "in", trx.selectFrom("dispute_posts").select("id").where("author_id", "=", person.id))
      .execute();
    const theirs = trx
      .selectFrom("disputes as d")
      .innerJoin("bookings as b", "b.id", "d.booking_id")
      .select("d.id")
      .where((eb) => eb.or([eb("b.owner_id", "=", person.id), eb("b.sitter_id", "=", person.id)]));
    await trx
      .updateTable("dispute_posts")
      .set({ body: scrubbed("body", person) })
      .where("dispute_id", "in", theirs)
      .where(mentions("body", person))
      .execute();
    await trx
      .updateTable("disputes")
      .set({ resolution_note: scrubbed("resolution_note", person) })
      .where("id", "in", theirs)
      .where("resolution_note", "is not", null)
      .where(mentions("resolution_note", person))
      .execute();
    return photos.flatMap((row) => [row.card_key, row.full_key]);
  },
};
