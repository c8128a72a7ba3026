import type { VisitItemKind, VisitStatus } from "~db/schema";
// The codecs alone (not ~/platform/db.server): this machine is also loaded by the visit page in the browser.
import { json, jsonList } from "~/platform/db/codecs";

/**
 * Pure rules of a visit (no I/O). `applyVisitEvent` in visits.server.ts writes their answer, and
 * `eraseVisitsOf` the answer of `erasureOf` (account deletion), through one `write`; nothing writes the visit
 * tables any other way.
 *
 *   (none) → checked-in → checked-out        only the booking's sitter acts; after check-out nothing changes
 */

/** Check-in opens this long before the booking's start. */
export const CHECK_IN_EARLY_MS = 30 * 60_000;
export const VISIT_MEDIA_MAX = 10;
export const VISIT_NOTE_MAX = 1000;
export const QUICK_NOTES = ["ate", "drank", "peed", "pooped", "played"] as const;
export type QuickNote = (typeof QUICK_NOTES)[number];

export interface Walk {
  /** Rounded positions with seconds since the walk began; null when typed in. */
  route: [number, number, number][] | null;
  distanceM: number;
  durationS: number;
}

export type VisitEvent =
  | { type: "check-in"; checklist: { kind: VisitItemKind; label: string }[] }
  | { type: "tick"; position: number }
  | { type: "details"; quickNotes: QuickNote[]; note: string }
  | { type: "add-media" }
  | { type: "walk"; walk: Walk }
  | { type: "check-out" };

export type VisitRefusal =
  | "notSitter"
  | "bookingNotActive"
  | "tooEarly"
  | "visitOver"
  | "alreadyCheckedIn"
  | "notCheckedIn"
  | "checkedOut"
  | "unknownItem"
  | "tooManyMedia"
  | "walkRecorded";

export interface VisitFacts {
  booking: { owner_id: string; sitter_id: string; status: string; start_at: string; end_at: string };
  visit: { status: VisitStatus; walk_distance_m: number | null } | null;
  items: { position: number; done_at: string | null }[];
  mediaCount: number;
}

export interface VisitChange {
  /** Inserts the visit (check-in) or updates it. */
  visit?: {
    status?: VisitStatus;
    checked_in_at?: string;
    checked_out_at?: string;
    quick_notes?: string;
    note?: string;
    walk_route?: string | null;
    walk_distance_m?: number;
    walk_duration_s?: number;
  };
  create?: boolean;
  items?: { position: number; kind: VisitItemKind; label: string }[];
  tick?: { position: number; at: string };
  addMedia?: boolean;
  /** Checklist labels rewritten (an erased person's name taken out). */
  relabel?: { position: number; label: string }[];
  /** Every photo and video of the visit removed (an erased person's). */
  removeMedia?: boolean;
  /** Who hears about it: the owner is notified (and, at check-out, emailed the report). */
  tellOwner?: "checkedIn" | "checkedOut";
}

export type VisitDecision = { ok: true; change: VisitChange | null } | { ok: false; refusal: VisitRefusal };

type Rule = { from: (VisitStatus | null)[]; needsTimeWindow: boolean };

/** The allowed transitions: from which states each event may come, and whether the booking must be on now. */
export const TRANSITIONS: Record<VisitEvent["type"], Rule> = {
  "check-in": { from: [null], needsTimeWindow: true },
  tick: { from: ["checked-in"], needsTimeWindow: true },
  details: { from: ["checked-in"], needsTimeWindow: true },
  "add-media": { from: ["checked-in"], needsTimeWindow: true },
  walk: { from: ["checked-in"], needsTimeWindow: true },
  // A visit can always be closed, even after the booking's end, so its report is never left open.
  "check-out": { from: ["checked-in"], needsTimeWindow: false },
};

const refuse = (refusal: VisitRefusal): VisitDecision => ({ ok: false, refusal });

function timeProblem(booking: VisitFacts["booking"], at: Date): VisitRefusal | null {
  if (booking.status !== "confirmed" && booking.status !== "in-progress")
    return booking.status === "completed" ? "visitOver" : "bookingNotActive";
  if (at.getTime() < new Date(booking.start_at).getTime() - CHECK_IN_EARLY_MS) return "tooEarly";
  if (at.getTime() > new Date(booking.end_at).getTime()) return "visitOver";
  return null;
}

export function decideVisit(facts: VisitFacts, actorId: string, event: VisitEvent, at: Date): VisitDecision {
  if (actorId !== facts.booking.sitter_id) return refuse("notSitter");
  const state = facts.visit?.status ?? null;
  if (state === "checked-out") return refuse("checkedOut");
  const rule = TRANSITIONS[event.type];
  if (!rule.from.includes(state)) return refuse(state === null ? "notCheckedIn" : "alreadyCheckedIn");
  if (event.type === "check-out" && facts.booking.status === "cancelled") return refuse("bookingNotActive");
  if (rule.needsTimeWindow) {
    const problem = timeProblem(facts.booking, at);
    if (problem) return refuse(problem);
  }
  const stamp = at.toISOString();
  switch (event.type) {
    case "check-in":
      return {
        ok: true,
        change: {
          create: true,
          visit: { status: "checked-in", checked_in_at: stamp },
          items: event.checklist.map((item, position) => ({ position, kind: item.kind, label: item.label })),
          tellOwner: "checkedIn",
        },
      };
    case "tick": {
      const item = facts.items.find((candidate) => candidate.position === event.position);
      if (!item) return refuse("unknownItem");
      // A second tick (a double submission) keeps the first time.
      if (item.done_at) return { ok: true, change: null };
      return { ok: true, change: { tick: { position: event.position, at: stamp } } };
    }
    case "details":
      return {
        ok: true,
        change: { visit: { quick_notes: jsonList.write([...new Set(event.quickNotes)]), note: event.note } },
      };
    case "add-media":
      if (facts.mediaCount >= VISIT_MEDIA_MAX) return refuse("tooManyMedia");
      return { ok: true, change: { addMedia: true } };
    case "walk":
      if (facts.visit?.walk_distance_m !== null && facts.visit?.walk_distance_m !== undefined)
        return refuse("walkRecorded");
      return {
        ok: true,
        change: {
          visit: {
            walk_route: event.walk.route ? json<unknown>().write(event.walk.route) : null,
            walk_distance_m: event.walk.distanceM,
            walk_duration_s: event.walk.durationS,
          },
        },
      };
    case "check-out":
      return { ok: true, change: { visit: { status: "checked-out", checked_out_at: stamp }, tellOwner: "checkedOut" } };
  }
}

/**
 * A person erased (account deletion), the booking's owner or sitter: the visit keeps its times and checklist for
 * the booking's record; its photos, videos and walk route go (where the sitter went, from the owner's home), and
 * the note and the checklist's labels lose the person's name, address and phone (`scrub`). In any state: an
 * erasure is never refused.
 */
export function erasureOf(
  visit: { note: string; walk_route: string | null },
  items: { position: number; label: string }[],
  scrub: (text: string) => string,
): VisitChange {
  const note = scrub(visit.note);
  return {
    visit: { ...(visit.walk_route !== null ? { walk_route: null } : {}), ...(note !== visit.note ? { note } : {}) },
    relabel: items.flatMap((item) => {
      const label = scrub(item.label);
      return label === item.label ? [] : [{ position: item.position, label }];
    }),
    removeMedia: true,
  };
}
