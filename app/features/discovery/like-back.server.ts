import { redirect } from "@remix-run/node";
import { z } from "~/platform/validation";
import type { User } from "~db/schema";
import { db } from "~/platform/db.server";
import { redirectWithToast } from "~/platform/toast.server";
import { isPremiumUser } from "~/features/subscriptions/index.server";
import { mayReach } from "~/features/safety/index.server";
import { swipe } from "./swipes.server";

export type Connection = "matched" | "liked-you" | null;

export type LikeBackResult =
  { status: "matched"; matchId: string } | { status: "not-found" } | { status: "locked" } | { status: "already" };

async function matchBetween(userId: string, otherId: string) {
  const [userA, userB] = [userId, otherId].sort() as [string, string];
  return db
    .selectFrom("matches")
    .select("id")
    .where("user_a_id", "=", userA)
    .where("user_b_id", "=", userB)
    .executeTakeFirst();
}

async function theirLike(otherId: string, userId: string) {
  return db
    .selectFrom("swipes")
    .select("target_pet_id")
    .where("swiper_id", "=", otherId)
    .where("target_user_id", "=", userId)
    .where("decision", "=", "like")
    .orderBy("created_at", "desc")
    .executeTakeFirst();
}

async function answered(userId: string, otherId: string): Promise<boolean> {
  return Boolean(
    await db
      .selectFrom("swipes")
      .select("id")
      .where("swiper_id", "=", userId)
      .where("target_user_id", "=", otherId)
      .executeTakeFirst(),
  );
}

// "Liked you" is a premium perk: a free account learns it from nothing here, not even a refusal.
export async function connectionWith(user: Pick<User, "id">, otherId: string): Promise<Connection> {
  if (otherId === user.id || !(await mayReach(user.id, otherId))) return null;
  if (await matchBetween(user.id, otherId)) return "matched";
  if (!(await isPremiumUser(user.id)) || (await answered(user.id, otherId))) return null;
  return (await theirLike(otherId, user.id)) ? "liked-you" : null;
}

// A like on one of my pets came from a sitter, so I like them back as a person; a like on me came from
// an owner, whom a sitter likes through a pet of theirs.
export async function likeBack(
  user: Pick<User, "id" | "role" | "time_zone">,
  otherId: string,
): Promise<LikeBackResult> {
  if (otherId === user.id || !(await mayReach(user.id, otherId))) return { status: "not-found" };
  const match = await matchBetween(user.id, otherId);
  if (match) return { status: "matched", matchId: match.id };
  if (!(await isPremiumUser(user.id))) return { status: "locked" };
  const like = await theirLike(otherId, user.id);
  if (!like) return { status: "not-found" };
  if (await answered(user.id, otherId)) return { status: "already" };
  let petId: string | null = null;
  if (like.target_pet_id === null) {
    const pet = await db
      .selectFrom("pets")
      .select("id")
      .where("owner_id", "=", otherId)
      .orderBy("created_at")
      .orderBy("id")
      .executeTakeFirst();
    if (!pet) return { status: "not-found" };
    petId = pet.id;
  }
  const result = await swipe(user, { userId: otherId, petId }, "like", {
    unlimitedLikes: true,
  });
  if (result.status !== "recorded") return { status: "not-found" };
  const made = result.newMatch ?? (await matchBetween(user.id, otherId));
  return made ? { status: "matched", matchId: made.id } : { status: "not-found" };
}

const likeBackSchema = z.object({
  intent: z.literal("like-back"),
  userId: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
});

export async function handleLikeBack(user: User, form: FormData, back: string): Promise<Response> {
  const parsed = likeBackSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success)
    return redirectWithToast(back, {
      type: "error",
      title: "discovery:likeBack.gone",
    });
  const result = await likeBack(user, parsed.data.userId);
  switch (result.status) {
    case "matched":
      return redirect(`/dashboard/match/${result.matchId}`);
    case "locked":
      return redirectWithToast(back, {
        type: "error",
        title: "discovery:likeBack.locked",
      });
    case "already":
      return redirectWithToast(back, {
        type: "info",
        title: "discovery:likeBack.already",
      });
    case "not-found":
      return redirectWithToast(back, {
        type: "error",
        title: "discovery:likeBack.gone",
      });
  }
}
