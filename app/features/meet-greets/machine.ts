import type { MeetGreet, MeetGreetPlace } from "~db/schema";

/**
 * Pure rules of a meet & greet (no I/O); `actOnMeetGreet` writes their answer.
 *
 *   proposed ⇄ (the other side proposes another time) → accepted, or declined; proposed or accepted → cancelled
 *
 * The owner proposes; whoever did not propose the time on the table accepts it, moves it or declines it; either
 * side cancels before it starts. A reminder goes to both 2 hours before an accepted one.
 */

export const PLACE_NOTE_MAX = 200;
/** A meet & greet is proposed at least an hour ahead and at most 60 days ahead. */
export const MIN_NOTICE_MS = 3600_000;
export const MAX_AHEAD_MS = 60 * 24 * 3600_000;
export const REMIND_BEFORE_MS = 2 * 3600_000;
export const MEET_GREET_PLACES: readonly MeetGreetPlace[] = ["owners_home", "sitters_home", "elsewhere", "video"];

export type Side = "owner" | "sitter";

export interface Proposal {
  startAt: string;
  place: MeetGreetPlace;
  placeNote: string;
}

export type MeetGreetEvent =
  | { type: "propose"; proposal: Proposal }
  | { type: "accept" }
  | { type: "move"; proposal: Proposal }
  | { type: "decline" }
  | { type: "cancel" }
  | { type: "remind" };

export type MeetGreetRefusal = "notYours" | "wrongState" | "tooSoon" | "tooFar" | "placeNoteRequired" | "tooLong";

export type MeetGreetNotice = "proposed" | "accepted" | "moved" | "declined" | "cancelled" | "reminder";

export interface MeetGreetChange {
  set: Partial<Pick<MeetGreet, "status" | "start_at" | "place" | "place_note" | "proposed_by" | "reminded_at">>;
  notify: { to: Side; notice: MeetGreetNotice }[];
}

export type MeetGreetDecision = { ok: true; change: MeetGreetChange } | { ok: false; refusal: MeetGreetRefusal };

type Facts = Pick<MeetGreet, "owner_id" | "sitter_id" | "status" | "start_at" | "proposed_by" | "reminded_at">;
export type MeetGreetActor = { side: Side; userId: string } | { side: "system" };

const refuse = (refusal: MeetGreetRefusal): MeetGreetDecision => ({ ok: false, refusal });
const other = (side: Side): Side => (side === "owner" ? "sitter" : "owner");

/** Why a proposed time or place cannot be taken, if it cannot. */
export function proposalProblem(proposal: Proposal, at: Date): MeetGreetRefusal | null {
  const start = new Date(proposal.startAt).getTime();
  if (Number.isNaN(start) || start < at.getTime() + MIN_NOTICE_MS) return "tooSoon";
  if (start > at.getTime() + MAX_AHEAD_MS) return "tooFar";
  if (proposal.placeNote.length > PLACE_NOTE_MAX) return "tooLong";
  if (proposal.place === "elsewhere" && !proposal.placeNote.trim()) return "placeNoteRequired";
  return null;
}

const proposalSet = (proposal: Proposal) => ({
  start_at: new Date(proposal.startAt).toISOString(),
  place: proposal.place,
  place_note: proposal.placeNote.trim(),
});

export function decideMeetGreet(
  meeting: Facts | null,
  actor: MeetGreetActor,
  event: MeetGreetEvent,
  at: Date,
): MeetGreetDecision {
  if (event.type === "propose") {
    // The record is made by the caller from the owner's and the sitter's ids; here only the proposal is judged.
    if (meeting || actor.side !== "owner") return refuse(meeting ? "wrongState" : "notYours");
    const problem = proposalProblem(event.proposal, at);
    if (problem) return refuse(problem);
    return {
      ok: true,
      change: {
        set: { ...proposalSet(event.proposal), status: "proposed", proposed_by: "owner" },
        notify: [{ to: "sitter", notice: "proposed" }],
      },
    };
  }
  if (!meeting) return refuse("wrongState");
  if (event.type === "remind") {
    if (actor.side !== "system") return refuse("notYours");
    const start = new Date(meeting.start_at).getTime();
    if (meeting.status !== "accepted" || meeting.reminded_at || at.getTime() >= start) return refuse("wrongState");
    if (at.getTime() < start - REMIND_BEFORE_MS) return refuse("tooSoon");
    return {
      ok: true,
      change: {
        set: { reminded_at: at.toISOString() },
        notify: [
          { to: "owner", notice: "reminder" },
          { to: "sitter", notice: "reminder" },
        ],
      },
    };
  }
  if (actor.side === "system") return refuse("notYours");
  const party = actor.side === "owner" ? meeting.owner_id : meeting.sitter_id;
  if (actor.userId !== party) return refuse("notYours");
  const started = at.getTime() >= new Date(meeting.start_at).getTime();
  const answering = meeting.status === "proposed" && meeting.proposed_by !== actor.side && !started;
  switch (event.type) {
    case "accept":
      if (!answering) return refuse("wrongState");
      return {
        ok: true,
        change: { set: { status: "accepted" }, notify: [{ to: other(actor.side), notice: "accepted" }] },
      };
    case "decline":
      if (!answering) return refuse("wrongState");
      return {
        ok: true,
        change: { set: { status: "declined" }, notify: [{ to: other(actor.side), notice: "declined" }] },
      };
    case "move": {
      // The side answering a proposal may offer another time; so may either side once it is accepted.
      if (!(answering || (meeting.status === "accepted" && !started))) return refuse("wrongState");
      const problem = proposalProblem(event.proposal, at);
      if (problem) return refuse(problem);
      return {
        ok: true,
        change: {
          set: { ...proposalSet(event.proposal), status: "proposed", proposed_by: actor.side, reminded_at: null },
          notify: [{ to: other(actor.side), notice: "moved" }],
        },
      };
    }
    case "cancel":
      if ((meeting.status !== "proposed" && meeting.status !== "accepted") || started) return refuse("wrongState");
      return {
        ok: true,
        change: { set: { status: "cancelled" }, notify: [{ to: other(actor.side), notice: "cancelled" }] },
      };
  }
}
