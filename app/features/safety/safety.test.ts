import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { resetClockAfterEach, clockTo, DAY, HOUR } from "~/testing/clock";
import { context } from "~/testing/browser";
import { ownerWithPet, requested, sitterWithSlot } from "~/testing/bookings";
import { PASSWORD, matchOf, person } from "~/testing/people";
import { deleteAccount } from "~/features/account/index.server";
import { searchPeople } from "~/features/admin/index.server";
import { loader as reportLoader } from "~/routes/report";
import { admirersOf, deckFor, findMatch, recentMatches } from "~/features/discovery/index.server";
import { requestBooking } from "~/features/bookings/index.server";
import { conversationWith, listConversations, readConversation, sendMessage } from "~/features/messages/index.server";
import { loader as profileLoader } from "~/routes/user-profile";
import { action as privacyAction } from "~/routes/profile-privacy";
import { blockedBy, blockPerson, unblockPerson } from "./blocks.server";
import { fileReport } from "./reports.server";
import { mayReach } from "./rules.server";

resetClockAfterEach();

const EMPTY = { image: "📷", video: "🎥" };

async function matchedPair() {
  const owner = await ownerWithPet();
  const sitter = await sitterWithSlot({ daysAhead: 2 });
  const matchId = await matchOf(owner.id, sitter.id);
  const conversationId = (await conversationWith(owner.id, sitter.id))!;
  await sendMessage(sitter.id, conversationId, "Hi! I can walk Rex on Tuesday.", null, EMPTY);
  return { owner, sitter, matchId, conversationId };
}

async function deckIds(viewerId: string, tab: "sitters" | "pets") {
  await db.updateTable("users").set({ browse_mode: "global" }).where("id", "=", viewerId).execute();
  const viewer = await db.selectFrom("users").selectAll().where("id", "=", viewerId).executeTakeFirstOrThrow();
  const result = await deckFor(viewer, tab, 200);
  if (result.status !== "cards") throw new Error(result.status);
  return result.cards.map((card) => card.userId);
}

const statusOf = async (run: () => Promise<unknown>) => {
  try {
    const result = await run();
    return result instanceof Response ? result.status : 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
};

describe("blocking", () => {
  it("hides both people from each other everywhere, closes their chat (history for the blocker only) and stops bookings, until unblocked", async () => {
    const { owner, sitter, matchId, conversationId } = await matchedPair();
    expect(await deckIds(owner.id, "sitters")).toContain(sitter.id);
    expect(await deckIds(sitter.id, "pets")).toContain(owner.id);
    // The sitter liked the owner's pet: the owner would see them in "See who liked you".
    await db
      .insertInto("swipes")
      .values({
        swiper_id: sitter.id,
        target_user_id: owner.id,
        target_pet_id: owner.petId,
        decision: "like",
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await admirersOf(owner.id)).map((a) => a.userId)).toContain(sitter.id);

    expect(await blockPerson(owner.id, sitter.id)).toBe("blocked");
    expect(await blockPerson(owner.id, sitter.id)).toBe("already");
    expect(await mayReach(sitter.id, owner.id)).toBe(false);

    expect(await deckIds(owner.id, "sitters")).not.toContain(sitter.id);
    await db.deleteFrom("swipes").where("swiper_id", "=", sitter.id).execute();
    expect(await deckIds(sitter.id, "pets")).not.toContain(owner.id);
    await db
      .insertInto("swipes")
      .values({
        swiper_id: sitter.id,
        target_user_id: owner.id,
        target_pet_id: owner.petId,
        decision: "like",
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await admirersOf(owner.id)).map((a) => a.userId)).not.toContain(sitter.id);
    expect((await recentMatches(owner.id)).map((m) => m.userId)).not.toContain(sitter.id);
    expect(await findMatch(sitter.id, matchId)).toBeNull();

    // The blocker keeps the history, closed; the blocked person no longer has the chat at all.
    const mine = await readConversation(owner.id, conversationId);
    expect(mine).toMatchObject({ closed: true, messages: [{ body: "Hi! I can walk Rex on Tuesday." }] });
    expect(await readConversation(sitter.id, conversationId)).toBeNull();
    expect((await listConversations(owner.id)).map((c) => c.id)).toContain(conversationId);
    expect((await listConversations(sitter.id)).map((c) => c.id)).not.toContain(conversationId);
    expect(await sendMessage(owner.id, conversationId, "one more thing", null, EMPTY)).toEqual({ status: "closed" });
    expect(await sendMessage(sitter.id, conversationId, "why?", null, EMPTY)).toEqual({ status: "not-found" });
    expect(await conversationWith(sitter.id, owner.id)).toBeNull();
    expect(
      await db.selectFrom("messages").select("id").where("conversation_id", "=", conversationId).execute(),
    ).toHaveLength(1);

    const booking = await requestBooking(owner, {
      id: randomUUID(),
      sitterId: sitter.id,
      petIds: [owner.petId],
      day: sitter.day,
      startTime: "10:00",
      hours: 1,
      notes: "",
    });
    expect(booking).toEqual({ status: "refused", reason: "sitterNotFound" });

    expect(await blockedBy(owner.id)).toEqual([expect.objectContaining({ userId: sitter.id, name: sitter.name })]);
    expect(await unblockPerson(sitter.id, owner.id)).toBe(false);
    expect(await unblockPerson(owner.id, sitter.id)).toBe(true);
    expect(await deckIds(owner.id, "sitters")).toContain(sitter.id);
    expect(await sendMessage(sitter.id, conversationId, "Hello again", null, EMPTY)).toMatchObject({ status: "sent" });
  });

  it("refuses blocking oneself or an unknown id, and the blocked person cannot open the blocker's profile", async () => {
    const me = await person("owner", { signedIn: true });
    const other = await person("sitter", { signedIn: true });
    expect(await blockPerson(me.id, me.id)).toBe("self");
    expect(await blockPerson(me.id, randomUUID())).toBe("not-found");
    const post = (cookie: string, userId: string) =>
      privacyAction({
        request: new Request("http://localhost/profile/privacy", {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ intent: "block", userId }),
        }),
        params: {},
        context: context(),
      });
    expect(await statusOf(() => post(me.cookie, randomUUID()))).toBe(404);
    expect(await statusOf(() => post(me.cookie, other.id))).toBe(302);
    const view = (cookie: string, userId: string) =>
      profileLoader({
        request: new Request(`http://localhost/users/${userId}`, { headers: { Cookie: cookie } }),
        params: { userId },
        context: context(),
      });
    expect(await statusOf(() => view(other.cookie, me.id))).toBe(404);
    expect(await view(me.cookie, other.id)).toMatchObject({ blocked: true, bookable: false, connection: null });
    expect(await db.selectFrom("blocks").selectAll().where("blocker_id", "=", me.id).execute()).toHaveLength(1);
  });
});

describe("reports", () => {
  it("are filed once per thing, never about one's own content, never about what the reporter cannot see", async () => {
    const { owner, sitter, conversationId } = await matchedPair();
    const message = await db
      .selectFrom("messages")
      .select("id")
      .where("conversation_id", "=", conversationId)
      .executeTakeFirstOrThrow();
    const stranger = await person("owner");
    const report = (who: string, subjectType: "profile" | "message" | "review", subjectId: string) =>
      fileReport(who, { subjectType, subjectId, reason: "harassment", details: "" });

    expect(await report(owner.id, "message", String(message.id))).toBe("reported");
    expect(await report(owner.id, "message", String(message.id))).toBe("duplicate");
    expect(await report(sitter.id, "message", String(message.id))).toBe("own");
    expect(await report(stranger.id, "message", String(message.id))).toBe("not-found");
    for (const forged of ["0", "-1", "1e3", "1; drop table reports", "<script>", "9".repeat(40), ""])
      expect(await report(owner.id, "message", forged)).toBe("not-found");
    expect(await report(owner.id, "profile", owner.id)).toBe("own");
    expect(await report(owner.id, "profile", randomUUID())).toBe("not-found");
    expect(await report(owner.id, "review", randomUUID())).toBe("not-found");
    expect(await report(stranger.id, "profile", sitter.id)).toBe("reported");

    const rows = await db.selectFrom("reports").selectAll().where("reported_user_id", "=", sitter.id).execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.status === "open")).toBe(true);
  });

  it("are refused, with the profile's own 404, for what a block hides from the reporter: the blocker's profile, reviews and messages", async () => {
    const { owner, sitter, conversationId } = await matchedPair();
    const blocked = await person("owner", { signedIn: true });
    const booking = await requested(owner, sitter);
    // A review the blocker (the sitter) wrote, and one written about them.
    const byBlocker = randomUUID();
    const aboutBlocker = randomUUID();
    const at = new Date().toISOString();
    await db
      .insertInto("reviews")
      .values([
        {
          id: byBlocker,
          booking_id: booking.id,
          reviewer_id: sitter.id,
          reviewed_id: owner.id,
          rating: 2,
          comment: "Late",
          created_at: at,
        },
        {
          id: aboutBlocker,
          booking_id: booking.id,
          reviewer_id: owner.id,
          reviewed_id: sitter.id,
          rating: 5,
          comment: "Great",
          created_at: at,
        },
      ])
      .execute();
    const message = await db
      .selectFrom("messages")
      .select("id")
      .where("conversation_id", "=", conversationId)
      .where("sender_id", "=", sitter.id)
      .executeTakeFirstOrThrow();
    expect(await blockPerson(sitter.id, blocked.id)).toBe("blocked");
    expect(await blockPerson(sitter.id, owner.id)).toBe("blocked");

    const report = (who: string, subjectType: "profile" | "message" | "review", subjectId: string) =>
      fileReport(who, { subjectType, subjectId, reason: "harassment", details: "" });
    expect(await report(blocked.id, "profile", sitter.id)).toBe("not-found");
    expect(await report(blocked.id, "review", byBlocker)).toBe("not-found");
    expect(await report(blocked.id, "review", aboutBlocker)).toBe("not-found");
    expect(await report(owner.id, "message", String(message.id))).toBe("not-found");
    // The same answer as opening the profile, on the report page and its form.
    const asked = (subjectType: string, subjectId: string) => ({
      request: new Request(`http://localhost/report/${subjectType}/${subjectId}`, {
        headers: { Cookie: blocked.cookie },
      }),
      params: { subjectType, subjectId },
      context: context(),
    });
    const view = () =>
      profileLoader({
        request: new Request(`http://localhost/users/${sitter.id}`, { headers: { Cookie: blocked.cookie } }),
        params: { userId: sitter.id },
        context: context(),
      });
    expect(await statusOf(view)).toBe(404);
    expect(await statusOf(() => reportLoader(asked("profile", sitter.id)))).toBe(404);
    expect(await statusOf(() => reportLoader(asked("review", byBlocker)))).toBe(404);
    expect(
      await db.selectFrom("reports").select("id").where("reporter_id", "in", [blocked.id, owner.id]).execute(),
    ).toEqual([]);

    // The blocker still sees, and may report, the person they blocked.
    expect(await report(sitter.id, "profile", blocked.id)).toBe("reported");
  });

  it(`are limited to REPORTS_PER_DAY (${env.REPORTS_PER_DAY}) a day per person`, async () => {
    const reporter = await person("owner");
    const targets = await Promise.all(Array.from({ length: env.REPORTS_PER_DAY + 1 }, () => person("sitter")));
    for (const target of targets.slice(0, env.REPORTS_PER_DAY)) {
      expect(
        await fileReport(reporter.id, { subjectType: "profile", subjectId: target.id, reason: "other", details: "" }),
      ).toBe("reported");
    }
    const last = targets.at(-1)!;
    expect(
      await fileReport(reporter.id, { subjectType: "profile", subjectId: last.id, reason: "other", details: "" }),
    ).toBe("limit");
    clockTo(new Date(Date.now() + DAY + HOUR));
    expect(
      await fileReport(reporter.id, { subjectType: "profile", subjectId: last.id, reason: "other", details: "" }),
    ).toBe("reported");
  });
});

describe("deleted and suspended members", () => {
  it("are shown to no one: not in the deck, likes or matches, and their profile answers 404", async () => {
    const { owner, sitter, matchId } = await matchedPair();
    await db
      .insertInto("swipes")
      .values({
        swiper_id: sitter.id,
        target_user_id: owner.id,
        target_pet_id: owner.petId,
        decision: "like",
        created_at: new Date().toISOString(),
      })
      .execute();
    expect(await deckIds(owner.id, "sitters")).toContain(sitter.id);
    expect((await admirersOf(owner.id)).map((a) => a.userId)).toContain(sitter.id);
    // The rule itself, on a row whose profile is otherwise intact.
    await db.updateTable("users").set({ deleted_at: new Date().toISOString() }).where("id", "=", sitter.id).execute();
    expect(await deckIds(owner.id, "sitters")).not.toContain(sitter.id);
    expect((await admirersOf(owner.id)).map((a) => a.userId)).not.toContain(sitter.id);
    expect((await recentMatches(owner.id)).map((m) => m.userId)).not.toContain(sitter.id);
    expect(await findMatch(owner.id, matchId)).toBeNull();
    expect(await mayReach(owner.id, sitter.id)).toBe(false);
    const viewer = await person("owner", { signedIn: true });
    const view = profileLoader({
      request: new Request(`http://localhost/users/${sitter.id}`, { headers: { Cookie: viewer.cookie } }),
      params: { userId: sitter.id },
      context: context(),
    });
    expect(await statusOf(() => view)).toBe(404);
  });

  it("after a real deletion: a 404 profile, refused reports and blocks, and a marked row in the operator's search", async () => {
    const { owner, sitter } = await matchedPair();
    const gone = await person("sitter", { password: PASSWORD, signedIn: true });
    await matchOf(owner.id, gone.id);
    const conversation = (await conversationWith(owner.id, gone.id))!;
    await sendMessage(gone.id, conversation, "Hello from someone who will leave", null, EMPTY);
    const message = await db
      .selectFrom("messages")
      .select("id")
      .where("conversation_id", "=", conversation)
      .executeTakeFirstOrThrow();
    expect(await deleteAccount(gone.id, PASSWORD)).toEqual({ status: "deleted" });

    const me = await person("owner", { signedIn: true });
    const view = profileLoader({
      request: new Request(`http://localhost/users/${gone.id}`, { headers: { Cookie: me.cookie } }),
      params: { userId: gone.id },
      context: context(),
    });
    expect(await statusOf(() => view)).toBe(404);
    expect(await deckIds(me.id, "sitters")).not.toContain(gone.id);

    const report = (who: string, subjectType: "profile" | "message", subjectId: string) =>
      fileReport(who, { subjectType, subjectId, reason: "harassment", details: "" });
    expect(await report(me.id, "profile", gone.id)).toBe("not-found");
    expect(await report(owner.id, "message", String(message.id))).toBe("inactive");
    expect(await blockPerson(owner.id, gone.id)).toBe("inactive");
    expect(await db.selectFrom("reports").select("id").where("reported_user_id", "=", gone.id).execute()).toEqual([]);
    expect(await db.selectFrom("blocks").select("blocker_id").where("blocked_id", "=", gone.id).execute()).toEqual([]);

    // A suspended member's message: the report page says so instead of offering a form.
    const reporter = await person("owner", { signedIn: true });
    await matchOf(reporter.id, sitter.id);
    const shared = (await conversationWith(reporter.id, sitter.id))!;
    await sendMessage(sitter.id, shared, "I will be suspended", null, EMPTY);
    const suspendedMessage = await db
      .selectFrom("messages")
      .select("id")
      .where("conversation_id", "=", shared)
      .executeTakeFirstOrThrow();
    await db.updateTable("users").set({ suspended_at: new Date().toISOString() }).where("id", "=", sitter.id).execute();
    const page = await reportLoader({
      request: new Request(`http://localhost/report/message/${suspendedMessage.id}`, {
        headers: { Cookie: reporter.cookie },
      }),
      params: { subjectType: "message", subjectId: String(suspendedMessage.id) },
      context: context(),
    });
    expect(page).toMatchObject({ inactive: true, own: false });
    expect(await report(reporter.id, "message", String(suspendedMessage.id))).toBe("inactive");
    expect(await blockPerson(reporter.id, sitter.id)).toBe("inactive");

    // The operator sees a deleted member as such, with no address.
    const rows = await searchPeople("Deleted member", 100);
    expect(rows.find((row) => row.id === gone.id)).toMatchObject({ deleted: true, email: "" });
  });
});
