import { describe, expect, it } from "vitest";
import {
  CHECK_IN_EARLY_MS,
  VISIT_MEDIA_MAX,
  decideVisit,
  erasureOf,
  type VisitEvent,
  type VisitFacts,
} from "./machine";

const start = new Date("2026-12-10T10:00:00.000Z");
const end = new Date("2026-12-10T12:00:00.000Z");
const during = new Date("2026-12-10T10:30:00.000Z");
const sitter = "sitter-1";
const owner = "owner-1";

const facts = (overrides: Partial<VisitFacts> = {}, booking: Partial<VisitFacts["booking"]> = {}): VisitFacts => ({
  booking: {
    owner_id: owner,
    sitter_id: sitter,
    status: "in-progress",
    start_at: start.toISOString(),
    end_at: end.toISOString(),
    ...booking,
  },
  visit: null,
  items: [],
  mediaCount: 0,
  ...overrides,
});
const checkedIn = (overrides: Partial<VisitFacts> = {}, booking: Partial<VisitFacts["booking"]> = {}) =>
  facts(
    { visit: { status: "checked-in", walk_distance_m: null }, items: [{ position: 0, done_at: null }], ...overrides },
    booking,
  );
const checkedOut = () =>
  facts({ visit: { status: "checked-out", walk_distance_m: null }, items: [{ position: 0, done_at: null }] });

const checkIn: VisitEvent = { type: "check-in", checklist: [{ kind: "medication", label: "09:00 – Apoquel" }] };
const walk: VisitEvent = { type: "walk", walk: { route: null, distanceM: 1200, durationS: 1500 } };
const events: VisitEvent[] = [
  { type: "tick", position: 0 },
  { type: "details", quickNotes: ["ate"], note: "Good boy" },
  { type: "add-media" },
  walk,
  { type: "check-out" },
];

const refusal = (decision: ReturnType<typeof decideVisit>) => (decision.ok ? "allowed" : decision.refusal);

describe("the visit machine", () => {
  it("checks in the booking's sitter from 30 minutes before the start until the end, copying the checklist", () => {
    const decision = decideVisit(
      facts({}, { status: "confirmed" }),
      sitter,
      checkIn,
      new Date(start.getTime() - CHECK_IN_EARLY_MS),
    );
    expect(decision).toEqual({
      ok: true,
      change: {
        create: true,
        visit: { status: "checked-in", checked_in_at: new Date(start.getTime() - CHECK_IN_EARLY_MS).toISOString() },
        items: [{ position: 0, kind: "medication", label: "09:00 – Apoquel" }],
        tellOwner: "checkedIn",
      },
    });
    expect(refusal(decideVisit(facts(), sitter, checkIn, end))).toBe("allowed");
  });

  it("refuses the owner and anyone else than the sitter, for every event", () => {
    for (const event of [checkIn, ...events]) {
      expect(refusal(decideVisit(event.type === "check-in" ? facts() : checkedIn(), owner, event, during))).toBe(
        "notSitter",
      );
      expect(refusal(decideVisit(event.type === "check-in" ? facts() : checkedIn(), "stranger", event, during))).toBe(
        "notSitter",
      );
    }
  });

  it("refuses a check-in earlier than 30 minutes before the start", () => {
    expect(
      refusal(
        decideVisit(
          facts({}, { status: "confirmed" }),
          sitter,
          checkIn,
          new Date(start.getTime() - CHECK_IN_EARLY_MS - 1),
        ),
      ),
    ).toBe("tooEarly");
  });

  it("refuses a check-in after the end, or on a completed booking", () => {
    expect(refusal(decideVisit(facts(), sitter, checkIn, new Date(end.getTime() + 1)))).toBe("visitOver");
    expect(refusal(decideVisit(facts({}, { status: "completed" }), sitter, checkIn, during))).toBe("visitOver");
  });

  it("refuses a booking that is requested or cancelled", () => {
    expect(refusal(decideVisit(facts({}, { status: "requested" }), sitter, checkIn, during))).toBe("bookingNotActive");
    expect(refusal(decideVisit(facts({}, { status: "cancelled" }), sitter, checkIn, during))).toBe("bookingNotActive");
    expect(refusal(decideVisit(checkedIn({}, { status: "cancelled" }), sitter, { type: "check-out" }, during))).toBe(
      "bookingNotActive",
    );
  });

  it("refuses a second check-in", () => {
    expect(refusal(decideVisit(checkedIn(), sitter, checkIn, during))).toBe("alreadyCheckedIn");
  });

  it("refuses ticks, notes, media, walks and check-out before check-in", () => {
    for (const event of events)
      expect(refusal(decideVisit(facts(), sitter, event, during)), event.type).toBe("notCheckedIn");
  });

  it("refuses everything after check-out: a report is never back-filled", () => {
    for (const event of [checkIn, ...events])
      expect(refusal(decideVisit(checkedOut(), sitter, event, during)), event.type).toBe("checkedOut");
  });

  it("refuses ticks, notes, media and walks once the booking has ended, but still lets the visit be checked out", () => {
    const after = new Date(end.getTime() + 60_000);
    for (const event of events.filter((event) => event.type !== "check-out"))
      expect(refusal(decideVisit(checkedIn(), sitter, event, after)), event.type).toBe("visitOver");
    expect(decideVisit(checkedIn({}, { status: "completed" }), sitter, { type: "check-out" }, after)).toEqual({
      ok: true,
      change: { visit: { status: "checked-out", checked_out_at: after.toISOString() }, tellOwner: "checkedOut" },
    });
  });

  it("refuses a tick of an item that is not on the checklist, and keeps the first time of a double tick", () => {
    expect(refusal(decideVisit(checkedIn(), sitter, { type: "tick", position: 7 }, during))).toBe("unknownItem");
    expect(decideVisit(checkedIn(), sitter, { type: "tick", position: 0 }, during)).toEqual({
      ok: true,
      change: { tick: { position: 0, at: during.toISOString() } },
    });
    expect(
      decideVisit(
        checkedIn({ items: [{ position: 0, done_at: start.toISOString() }] }),
        sitter,
        { type: "tick", position: 0 },
        during,
      ),
    ).toEqual({ ok: true, change: null });
  });

  it("refuses an eleventh photo or video", () => {
    expect(
      refusal(decideVisit(checkedIn({ mediaCount: VISIT_MEDIA_MAX - 1 }), sitter, { type: "add-media" }, during)),
    ).toBe("allowed");
    expect(
      refusal(decideVisit(checkedIn({ mediaCount: VISIT_MEDIA_MAX }), sitter, { type: "add-media" }, during)),
    ).toBe("tooManyMedia");
  });

  it("refuses a second walk", () => {
    expect(
      refusal(decideVisit(checkedIn({ visit: { status: "checked-in", walk_distance_m: 800 } }), sitter, walk, during)),
    ).toBe("walkRecorded");
  });

  it("keeps each quick note once", () => {
    expect(
      decideVisit(checkedIn(), sitter, { type: "details", quickNotes: ["ate", "ate", "peed"], note: "" }, during),
    ).toEqual({
      ok: true,
      change: { visit: { quick_notes: '["ate","peed"]', note: "" } },
    });
  });

  it("an erasure keeps the visit's times and checklist, drops its files and route, and takes the person out of its words", () => {
    const scrub = (text: string) => text.split("Ana").join("Deleted member");
    expect(
      erasureOf(
        { note: "Ana's dog ate well", walk_route: "[[40.1,-3.7,0]]" },
        [
          { position: 0, label: "Feed (Ana's note: half a cup)" },
          { position: 1, label: "Water" },
        ],
        scrub,
      ),
    ).toEqual({
      visit: { walk_route: null, note: "Deleted member's dog ate well" },
      relabel: [{ position: 0, label: "Feed (Deleted member's note: half a cup)" }],
      removeMedia: true,
    });
    expect(erasureOf({ note: "All good", walk_route: null }, [{ position: 0, label: "Water" }], scrub)).toEqual({
      visit: {},
      relabel: [],
      removeMedia: true,
    });
  });
});
