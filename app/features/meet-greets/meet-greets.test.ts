import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { personalDataSections } from "~/features/account/sections.server";
import { now } from "~/platform/clock.server";
import { wallClockIn } from "~/platform/time";
import { clockTo, DAY, HOUR, MINUTE, resetClockAfterEach } from "~/testing/clock";
import { emailsTo, noticesOf, person } from "~/testing/people";
import { decideMeetGreet, type Proposal } from "./machine";
import {
  actOnMeetGreet,
  meetGreetView,
  meetGreetsOf,
  proposeMeetGreet,
  runDueMeetGreetReminders,
  type ProposalInput,
} from "./meet-greets.server";

resetClockAfterEach();

const NOW = new Date("2030-03-10T08:00:00.000Z");
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const proposal = (over: Partial<Proposal> = {}): Proposal => ({
  startAt: at(DAY),
  place: "owners_home",
  placeNote: "",
  ...over,
});
const meeting = (over = {}) => ({
  owner_id: "owner-1",
  sitter_id: "sitter-1",
  status: "proposed" as const,
  start_at: at(DAY),
  proposed_by: "owner" as const,
  reminded_at: null,
  ...over,
});
const OWNER = { side: "owner" as const, userId: "owner-1" };
const SITTER = { side: "sitter" as const, userId: "sitter-1" };
const refusal = (decision: ReturnType<typeof decideMeetGreet>) => (decision.ok ? "allowed" : decision.refusal);

describe("the meet & greet rules", () => {
  it("only an owner proposes, at least an hour and at most 60 days ahead, somewhere said", () => {
    expect(refusal(decideMeetGreet(null, OWNER, { type: "propose", proposal: proposal() }, NOW))).toBe("allowed");
    expect(refusal(decideMeetGreet(null, SITTER, { type: "propose", proposal: proposal() }, NOW))).toBe("notYours");
    const tooSoon = proposal({ startAt: at(HOUR - MINUTE) });
    expect(refusal(decideMeetGreet(null, OWNER, { type: "propose", proposal: tooSoon }, NOW))).toBe("tooSoon");
    const tooFar = proposal({ startAt: at(61 * DAY) });
    expect(refusal(decideMeetGreet(null, OWNER, { type: "propose", proposal: tooFar }, NOW))).toBe("tooFar");
    const nowhere = proposal({ place: "elsewhere", placeNote: "  " });
    expect(refusal(decideMeetGreet(null, OWNER, { type: "propose", proposal: nowhere }, NOW))).toBe(
      "placeNoteRequired",
    );
    const long = proposal({ placeNote: "x".repeat(201) });
    expect(refusal(decideMeetGreet(null, OWNER, { type: "propose", proposal: long }, NOW))).toBe("tooLong");
  });

  it("the side that did not propose answers; a new time passes the answer back; either side cancels before it starts", () => {
    expect(refusal(decideMeetGreet(meeting(), OWNER, { type: "accept" }, NOW))).toBe("wrongState");
    expect(refusal(decideMeetGreet(meeting(), SITTER, { type: "accept" }, NOW))).toBe("allowed");
    const moved = decideMeetGreet(
      meeting(),
      SITTER,
      { type: "move", proposal: proposal({ startAt: at(2 * DAY) }) },
      NOW,
    );
    expect(moved).toMatchObject({
      ok: true,
      change: { set: { proposed_by: "sitter", status: "proposed" }, notify: [{ to: "owner", notice: "moved" }] },
    });
    const answered = meeting({ proposed_by: "sitter" });
    expect(refusal(decideMeetGreet(answered, SITTER, { type: "accept" }, NOW))).toBe("wrongState");
    expect(refusal(decideMeetGreet(answered, OWNER, { type: "accept" }, NOW))).toBe("allowed");
    expect(refusal(decideMeetGreet(meeting(), { side: "sitter", userId: "stranger" }, { type: "decline" }, NOW))).toBe(
      "notYours",
    );
    expect(refusal(decideMeetGreet(meeting({ status: "accepted" }), OWNER, { type: "cancel" }, NOW))).toBe("allowed");
    expect(
      refusal(decideMeetGreet(meeting({ status: "accepted" }), OWNER, { type: "cancel" }, new Date(at(DAY)))),
    ).toBe("wrongState");
    expect(refusal(decideMeetGreet(meeting({ status: "declined" }), OWNER, { type: "cancel" }, NOW))).toBe(
      "wrongState",
    );
  });

  it("reminds both once, within 2 hours of an accepted one", () => {
    const accepted = meeting({ status: "accepted" });
    const remind = { type: "remind" as const };
    expect(refusal(decideMeetGreet(accepted, { side: "system" }, remind, new Date(at(DAY - 3 * HOUR))))).toBe(
      "tooSoon",
    );
    expect(decideMeetGreet(accepted, { side: "system" }, remind, new Date(at(DAY - HOUR)))).toMatchObject({
      ok: true,
      change: { notify: [{ to: "owner" }, { to: "sitter" }] },
    });
    const reminded = meeting({ status: "accepted", reminded_at: at(DAY - HOUR) });
    expect(refusal(decideMeetGreet(reminded, { side: "system" }, remind, new Date(at(DAY - 30 * MINUTE))))).toBe(
      "wrongState",
    );
    expect(refusal(decideMeetGreet(accepted, OWNER, remind, new Date(at(DAY - HOUR))))).toBe("notYours");
  });
});

async function pair() {
  const owner = await person("owner");
  const sitter = await person("sitter");
  return { owner, sitter };
}

const input = (sitter: { id: string; time_zone: string }, daysAhead = 2, over: Partial<ProposalInput> = {}) => ({
  id: randomUUID(),
  sitterId: sitter.id,
  day: wallClockIn(sitter.time_zone, new Date(now().getTime() + daysAhead * DAY)).day,
  time: "17:30",
  place: "sitters_home" as const,
  placeNote: "",
  ...over,
});

describe("meet & greets between two people", () => {
  it("proposed, moved by the sitter, accepted by the owner, reminded once 2 hours before; both told and emailed", async () => {
    const { owner, sitter } = await pair();
    const proposed = await proposeMeetGreet(owner, input(sitter));
    if (!proposed.ok) throw new Error(proposed.refusal);
    const id = proposed.meetGreet.id;
    expect(await noticesOf(sitter.id)).toHaveLength(1);
    expect(await emailsTo(sitter.email)).toHaveLength(1);

    const later = input(sitter, 3, { time: "10:00", place: "video" });
    expect(await actOnMeetGreet(owner, id, { type: "accept" })).toEqual({ ok: false, refusal: "wrongState" });
    const moved = await actOnMeetGreet(sitter, id, {
      type: "move",
      proposal: { startAt: new Date(`${later.day}T10:00:00Z`).toISOString(), place: "video", placeNote: "" },
    });
    expect(moved).toMatchObject({ ok: true, meetGreet: { proposed_by: "sitter", place: "video" } });
    expect((await meetGreetView(owner.id, id))?.awaitsMe).toBe(true);
    expect(await actOnMeetGreet(owner, id, { type: "accept" })).toMatchObject({
      ok: true,
      meetGreet: { status: "accepted" },
    });
    expect(await emailsTo(sitter.email)).toHaveLength(2);

    const start = (await meetGreetView(owner.id, id))!.startAt;
    clockTo(start, -3 * HOUR);
    expect(await runDueMeetGreetReminders()).toBe(0);
    clockTo(start, -2 * HOUR + MINUTE);
    expect(await runDueMeetGreetReminders()).toBe(1);
    expect(await runDueMeetGreetReminders()).toBe(0);
    expect((await emailsTo(owner.email)).length).toBeGreaterThanOrEqual(2);
    clockTo(start, HOUR);
    expect((await meetGreetView(owner.id, id))?.bookNext).toBe(true);
    expect((await meetGreetView(sitter.id, id))?.bookNext).toBe(false);
  });

  it("nobody else sees or changes it; a sitter, a blocked sitter or oneself cannot be asked; a double submission proposes once", async () => {
    const { owner, sitter } = await pair();
    const form = input(sitter);
    const [first, second] = await Promise.all([proposeMeetGreet(owner, form), proposeMeetGreet(owner, form)]);
    expect(first.ok && second.ok).toBe(true);
    expect(await db.selectFrom("meet_greets").select("id").where("owner_id", "=", owner.id).execute()).toHaveLength(1);
    const stranger = await person("sitter");
    expect(await meetGreetView(stranger.id, form.id)).toBeNull();
    expect(await actOnMeetGreet(stranger, form.id, { type: "accept" })).toEqual({ ok: false, refusal: "notFound" });
    expect(await meetGreetsOf(stranger.id)).toEqual([]);
    expect((await meetGreetsOf(owner.id)).map((listed) => listed.id)).toEqual([form.id]);

    expect(await proposeMeetGreet(sitter, input(stranger))).toEqual({ ok: false, refusal: "notYours" });
    expect(await proposeMeetGreet(owner, input(await person("owner")))).toEqual({
      ok: false,
      refusal: "sitterNotFound",
    });
    const blocked = await person("sitter");
    await db
      .insertInto("blocks")
      .values({ blocker_id: blocked.id, blocked_id: owner.id, created_at: now().toISOString() })
      .execute();
    expect(await proposeMeetGreet(owner, input(blocked))).toEqual({ ok: false, refusal: "sitterNotFound" });
    expect(await proposeMeetGreet(owner, input(sitter, 0, { time: "00:00" }))).toEqual({
      ok: false,
      refusal: "tooSoon",
    });
    // Someone else's id sent again by another owner: refused, and the first stays as it was.
    const other = await person("owner");
    expect(await proposeMeetGreet(other, form)).toEqual({ ok: false, refusal: "duplicate" });
  });

  it("is in both people's data export, and erased with either of them", async () => {
    const { owner, sitter } = await pair();
    const proposed = await proposeMeetGreet(owner, input(sitter, 2, { place: "elsewhere", placeNote: "Park gate" }));
    if (!proposed.ok) throw new Error(proposed.refusal);
    const section = personalDataSections.find((candidate) => candidate.name === "meetGreets")!;
    for (const who of [owner.id, sitter.id])
      expect(await section.exportOf(who, db)).toEqual([
        expect.objectContaining({ id: proposed.meetGreet.id, place: "elsewhere", place_note: "Park gate" }),
      ]);
    await db
      .transaction()
      .execute((trx) => section.erase({ id: sitter.id, name: sitter.name, email: sitter.email, phone: "" }, trx));
    expect(await section.exportOf(owner.id, db)).toEqual([]);
  });
});
