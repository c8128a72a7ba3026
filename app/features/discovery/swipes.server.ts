import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, User } from "~db/schema";
import { profilePhotoKey } from "~/features/media/index.server";
import { db, lockPeople, preparedQuery, transactionRetryingDeadlocks } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { wallClockIn } from "~/platform/time";
import { notify } from "~/features/notifications/index.server";
import { ensureConversation } from "~/features/messages/index.server";
import { isOwner, isSitter } from "~/features/profiles/index.server";
import { mayReach, shownTo } from "~/features/safety/index.server";

export const FREE_DAILY_LIKES = 25;

export interface SwipeTarget {
  userId: string;
  petId: string | null;
}

export type SwipeResult =
  | { status: "recorded"; newMatch: { id: string; otherUserId: string } | null }
  | { status: "not-found" }
  | { status: "limit-reached" };

type Swiper = Pick<User, "id" | "role" | "time_zone">;

export async function swipe(
  swiper: Swiper,
  target: SwipeTarget,
  decision: "like" | "pass",
  { unlimitedLikes = false } = {},
): Promise<SwipeResult> {
  if (target.userId === swiper.id) return { status: "not-found" };
  return transactionRetryingDeadlocks(async (trx): Promise<SwipeResult> => {
    // Both people: two likes of each other at once must see each other and make the match; the likes left count too.
    await lockPeople(trx, swiper.id, target.userId);
    const other = await trx
      .selectFrom("users")
      .select(["id", "role", "name"])
      .where("id", "=", target.userId)
      .where("email_verified_at", "is not", null)
      .executeTakeFirst();
    if (!other || !(await mayReach(swiper.id, other.id, trx))) return { status: "not-found" };
    if (target.petId) {
      const pet = await trx
        .selectFrom("pets")
        .select("id")
        .where("id", "=", target.petId)
        .where("owner_id", "=", other.id)
        .executeTakeFirst();
      if (!pet || !isSitter(swiper.role) || !isOwner(other.role)) return { status: "not-found" };
    } else if (!isOwner(swiper.role) || !isSitter(other.role)) {
      return { status: "not-found" };
    }

    const at = now();
    if (decision === "like") {
      const given = await likesToday(swiper, trx);
      if (!unlimitedLikes && given >= FREE_DAILY_LIKES) return { status: "limit-reached" };
      await trx
        .updateTable("users")
        .set({ likes_day: wallClockIn(swiper.time_zone, at).day, likes_on_day: given + 1 })
        .where("id", "=", swiper.id)
        .execute();
    }

    let card = trx.deleteFrom("swipes").where("swiper_id", "=", swiper.id).where("target_user_id", "=", other.id);
    card = target.petId ? card.where("target_pet_id", "=", target.petId) : card.where("target_pet_id", "is", null);
    await card.execute();
    await trx
      .insertInto("swipes")
      .values({
        swiper_id: swiper.id,
        target_user_id: other.id,
        target_pet_id: target.petId,
        decision,
        created_at: at.toISOString(),
      })
      .execute();
    if (decision === "pass") return { status: "recorded", newMatch: null };

    const likedBack = await trx
      .selectFrom("swipes")
      .select("id")
      .where("swiper_id", "=", other.id)
      .where("target_user_id", "=", swiper.id)
      .where("decision", "=", "like")
      .executeTakeFirst();
    if (!likedBack) return { status: "recorded", newMatch: null };

    const [userA, userB] = [swiper.id, other.id].sort() as [string, string];
    const created = await trx
      .insertInto("matches")
      .values({ id: randomUUID(), user_a_id: userA, user_b_id: userB, created_at: at.toISOString() })
      .onConflict((oc) => oc.columns(["user_a_id", "user_b_id"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!created) return { status: "recorded", newMatch: null };
    await ensureConversation(swiper.id, other.id, trx);
    const swiperName = (
      await trx.selectFrom("users").select("name").where("id", "=", swiper.id).executeTakeFirstOrThrow()
    ).name;
    await notify(
      { userId: swiper.id, type: "match", data: { name: other.name }, link: `/messages?userId=${other.id}` },
      trx,
    );
    await notify(
      { userId: other.id, type: "match", data: { name: swiperName }, link: `/messages?userId=${swiper.id}` },
      trx,
    );
    return { status: "recorded", newMatch: { id: created.id, otherUserId: other.id } };
  });
}

// Kept on the person's record, so forgetting swipes gives no likes back.
async function likesToday(swiper: Pick<User, "id" | "time_zone">, database: Kysely<Database> = db): Promise<number> {
  const row = await database
    .selectFrom("users")
    .select(["likes_day", "likes_on_day"])
    .where("id", "=", swiper.id)
    .executeTakeFirstOrThrow();
  return likesOn({ ...row, time_zone: swiper.time_zone }, now());
}

/** The likes given on the swiper's own calendar day of `at`. */
const likesOn = (swiper: Pick<User, "time_zone" | "likes_day" | "likes_on_day">, at: Date): number =>
  swiper.likes_day === wallClockIn(swiper.time_zone, at).day ? swiper.likes_on_day : 0;

/** From the swiper's row already at hand (the signed-in person's); a like itself counts again in its transaction. */
export function likesLeftToday(swiper: Pick<User, "time_zone" | "likes_day" | "likes_on_day">): number {
  return Math.max(0, FREE_DAILY_LIKES - likesOn(swiper, now()));
}

const anySwipe = preparedQuery(({ swiperId }: { swiperId: string }) =>
  db.selectFrom("swipes").select("id").where("swiper_id", "=", swiperId).limit(1),
);

export async function hasSwiped(swiperId: string): Promise<boolean> {
  return Boolean(await anySwipe.first({ swiperId }));
}

export async function startOver(swiperId: string): Promise<void> {
  await db.deleteFrom("swipes").where("swiper_id", "=", swiperId).execute();
}

export async function matchesOf(userId: string) {
  return db
    .selectFrom("matches")
    .selectAll()
    .where((eb) => eb.or([eb("user_a_id", "=", userId), eb("user_b_id", "=", userId)]))
    .orderBy("created_at", "desc")
    .execute();
}

export async function findMatch(userId: string, matchId: string) {
  const match = await db
    .selectFrom("matches")
    .select(["id", "user_a_id", "user_b_id"])
    .where("id", "=", matchId)
    .where((eb) => eb.or([eb("user_a_id", "=", userId), eb("user_b_id", "=", userId)]))
    .executeTakeFirst();
  if (!match) return null;
  const otherId = match.user_a_id === userId ? match.user_b_id : match.user_a_id;
  if (!(await mayReach(userId, otherId))) return null;
  const other = await db.selectFrom("users").select(["id", "name"]).where("id", "=", otherId).executeTakeFirstOrThrow();
  const photo = await db
    .selectFrom("photos")
    .select("card_key")
    .where("user_id", "=", otherId)
    .where("pet_id", "is", null)
    .orderBy("position")
    .executeTakeFirst();
  return { id: match.id, other: { id: other.id, name: other.name, photoKey: photo?.card_key ?? null } };
}

// The newest matches first, then their people and photos: only for the few shown, not for every match.
// Each side of the pair is read newest first from its own index, a few rows each.
const newestMatches = preparedQuery(({ userId, limit }: { userId: string; limit: number }) => {
  const side = (mine: "user_a_id" | "user_b_id", theirs: "user_a_id" | "user_b_id") =>
    db
      .selectFrom("matches")
      .select(["id", "created_at", `${theirs} as other_id`])
      .where(mine, "=", userId)
      .orderBy("created_at", "desc")
      .limit(limit);
  return db
    .with("recent", (qb) =>
      qb
        .selectFrom((eb) =>
          eb
            .selectFrom(side("user_a_id", "user_b_id").as("a"))
            .selectAll()
            .unionAll(eb.selectFrom(side("user_b_id", "user_a_id").as("b")).selectAll())
            .as("both"),
        )
        .selectAll()
        .orderBy("created_at", "desc")
        .limit(limit),
    )
    .selectFrom("recent as m")
    .innerJoin("users as other", "other.id", "m.other_id")
    .where(shownTo(userId, "other"))
    .select([
      "m.id",
      "m.created_at",
      "other.id as other_id",
      "other.name as other_name",
      profilePhotoKey("other.id").as("photo_key"),
    ])
    .orderBy("m.created_at", "desc");
});

export async function recentMatches(userId: string, limit = 12) {
  const rows = await newestMatches.all({ userId, limit });
  return rows.map((row) => ({ id: row.id, userId: row.other_id, name: row.other_name, photoKey: row.photo_key }));
}
