import { profilePhotoKey } from "~/features/media/index.server";
import { db } from "~/platform/db.server";
import { shownTo } from "~/features/safety/index.server";

export interface Admirer {
  userId: string;
  name: string;
  city: string;
  photoKey: string | null;
  likedAt: string;
  petName: string | null;
}

export async function admirersOf(userId: string, limit = 50): Promise<Admirer[]> {
  const rows = await db
    .selectFrom("swipes as s")
    .innerJoin("users as u", "u.id", "s.swiper_id")
    .leftJoin("pets as p", "p.id", "s.target_pet_id")
    .select(["u.id", "u.name", "u.city", "s.created_at", "p.name as pet_name"])
    .select(profilePhotoKey("u.id").as("photo_key"))
    .where("s.target_user_id", "=", userId)
    .where("s.decision", "=", "like")
    .where("u.email_verified_at", "is not", null)
    .where(shownTo(userId, "u"))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("swipes as mine")
            .select("mine.id")
            .where("mine.swiper_id", "=", userId)
            .whereRef("mine.target_user_id", "=", "s.swiper_id"),
        ),
      ),
    )
    .orderBy("s.created_at", "desc")
    .orderBy("s.id", "desc")
    .limit(limit * 2)
    .execute();
  const seen = new Set<string>();
  const admirers: Admirer[] = [];
  for (const row of rows) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    admirers.push({
      userId: row.id,
      name: row.name,
      city: row.city,
      photoKey: row.photo_key,
      likedAt: row.created_at,
      petName: row.pet_name,
    });
  }
  return admirers.slice(0, limit);
}

export async function admirerCount(userId: string): Promise<number> {
  return (await admirersOf(userId, 100)).length;
}
