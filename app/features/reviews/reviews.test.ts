import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { person } from "~/testing/people";
import { ownerWithPet, requested, sitterWithSlot } from "~/testing/bookings";
import { noticesOf } from "~/testing/people";
import { replyToReview, reviewsOf } from "./reviews.server";
import { REVIEWS_PAGE_SIZE } from "./rules";

const reader = { language: "en", timeZone: "Europe/Madrid" };

async function reviewed(count: number) {
  const sitter = await sitterWithSlot();
  const owner = await ownerWithPet();
  const booking = await requested(owner, sitter);
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const reviewer = await person("owner");
    const id = randomUUID();
    ids.push(id);
    await db
      .insertInto("reviews")
      .values({
        id,
        booking_id: booking.id,
        reviewer_id: reviewer.id,
        reviewed_id: sitter.id,
        rating: 1 + (index % 5),
        comment: `Review ${index}`,
        created_at: new Date(Date.UTC(2030, 0, 1 + index)).toISOString(),
      })
      .execute();
  }
  return { sitter, ids };
}

describe("reviews on a public profile", () => {
  it("newest first, a page at a time", async () => {
    const { sitter } = await reviewed(REVIEWS_PAGE_SIZE + 2);
    const first = await reviewsOf(sitter.id, 1, { id: "", mayReply: false }, reader);
    expect(first.reviews.map((review) => review.comment)).toEqual(
      [...Array(REVIEWS_PAGE_SIZE).keys()].map((index) => `Review ${REVIEWS_PAGE_SIZE + 1 - index}`),
    );
    expect(first.hasMore).toBe(true);
    const second = await reviewsOf(sitter.id, 2, { id: "", mayReply: false }, reader);
    expect(second.reviews.map((review) => review.comment)).toEqual(["Review 1", "Review 0"]);
    expect(second.hasMore).toBe(false);
  });

  it("a review removed by the operator keeps nothing of its words, name or answer", async () => {
    const { sitter, ids } = await reviewed(1);
    await db
      .updateTable("reviews")
      .set({ hidden_at: new Date().toISOString(), reply: "An answer" })
      .where("id", "=", ids[0]!)
      .execute();
    const [review] = (await reviewsOf(sitter.id, 1, { id: sitter.id, mayReply: true }, reader)).reviews;
    expect(review).toMatchObject({
      hidden: true,
      comment: null,
      reply: null,
      rating: null,
      reviewerName: "",
      canReply: false,
    });
    expect(await replyToReview(sitter.id, ids[0]!, "Let me explain")).toBe("removed");
  });

  it("the person reviewed answers once; nobody else can; the reviewer is told", async () => {
    const { sitter, ids } = await reviewed(1);
    const stranger = await person("sitter");
    expect(await replyToReview(stranger.id, ids[0]!, "Not mine")).toBe("notFound");
    expect(await replyToReview(sitter.id, randomUUID(), "Missing")).toBe("notFound");
    expect((await reviewsOf(sitter.id, 1, { id: sitter.id, mayReply: true }, reader)).reviews[0]!.canReply).toBe(true);
    expect((await reviewsOf(sitter.id, 1, { id: stranger.id, mayReply: true }, reader)).reviews[0]!.canReply).toBe(
      false,
    );
    expect(await replyToReview(sitter.id, ids[0]!, "Thank you!")).toBe("saved");
    expect(await replyToReview(sitter.id, ids[0]!, "Changed my mind")).toBe("alreadyReplied");
    const [review] = (await reviewsOf(sitter.id, 1, { id: sitter.id, mayReply: true }, reader)).reviews;
    expect(review).toMatchObject({ reply: "Thank you!", canReply: false });
    const reviewer = await db
      .selectFrom("reviews")
      .select("reviewer_id")
      .where("id", "=", ids[0]!)
      .executeTakeFirstOrThrow();
    expect(await noticesOf(reviewer.reviewer_id)).toContain("reply");
  });
});
