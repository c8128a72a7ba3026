import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BookingStatus } from "~db/schema";
import {
  AUTO_RELEASE_AFTER_MS,
  CANCEL_REASON_MAX,
  DELAYED_HOLD_BEFORE_MS,
  HOLD_NOW_WITHIN_MS,
  MAX_HOURS,
  MIN_HOURS,
  PROBLEM_WINDOW_MS,
  UNPAID_REQUEST_TTL_MS,
  decide,
  isAuthorised,
  priceOf,
  type Actor,
  type BookingEvent,
  type Decision,
  type NewBooking,
} from "./machine";
import { PLATFORM_FEE_RATE } from "./money";

type Facts = NonNullable<Parameters<typeof decide>[0]>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "Now" in these tests; the booking starts a day later and lasts two hours. */
const NOW = new Date("2030-03-10T08:00:00.000Z");
const START = new Date(NOW.getTime() + DAY);
const END = new Date(START.getTime() + 2 * HOUR);
const after = (base: Date, ms: number) => new Date(base.getTime() + ms);
const iso = (date: Date) => date.toISOString();

function booking(over: Partial<Facts> = {}): Facts {
  return {
    owner_id: "owner-1",
    sitter_id: "sitter-1",
    status: "requested",
    payment_status: "unpaid",
    payment_task: null,
    card_ref: null,
    hold_ref: null,
    hold_due_at: null,
    start_at: iso(START),
    end_at: iso(END),
    completed_at: null,
    created_at: iso(NOW),
    payment_task_attempts: 0,
    ...over,
  };
}

/** What the owner's request form asks for, before the booking exists. */
function newBooking(over: Partial<NewBooking> = {}): NewBooking {
  return {
    id: "booking-1",
    owner_id: "owner-1",
    sitter_id: "sitter-1",
    pet_id: "pet-1",
    pet_name: "Rex",
    notes: "",
    start_at: iso(START),
    end_at: iso(END),
    hours: 2,
    hourly_rate_cents: 1500,
    payment_provider: "test",
    ...over,
  };
}

/** Bookings in each step of their life, each ready for the next event. */
const held = (over: Partial<Facts> = {}) =>
  booking({ payment_status: "held", card_ref: "card_1", hold_ref: "hold_1", ...over });
const cardKept = (over: Partial<Facts> = {}) =>
  booking({ card_ref: "card_1", hold_due_at: iso(after(START, -DELAYED_HOLD_BEFORE_MS)), ...over });
const confirmed = (over: Partial<Facts> = {}) => held({ status: "confirmed", ...over });
const inProgress = (over: Partial<Facts> = {}) => held({ status: "in-progress", ...over });
const completed = (over: Partial<Facts> = {}) =>
  held({
    status: "completed",
    completed_at: iso(END),
    total_cents: 3600,
    refunded_cents: 0,
    refund_due_cents: null,
    ...over,
  });
/** A completed booking whose owner reported a problem an hour after the end. */
const disputed = (over: Partial<Facts> = {}) => completed({ problem_reported_at: iso(after(END, HOUR)), ...over });
const released = (over: Partial<Facts> = {}) => completed({ payment_status: "released", ...over });

const OWNER: Actor = { kind: "owner", userId: "owner-1" };
const SITTER: Actor = { kind: "sitter", userId: "sitter-1" };
const SYSTEM: Actor = { kind: "system" };
const ACTORS = {
  owner: OWNER,
  sitter: SITTER,
  system: SYSTEM,
  otherOwner: { kind: "owner", userId: "owner-2" },
  otherSitter: { kind: "sitter", userId: "sitter-2" },
  /** The owner's id claiming to act as the sitter, and the reverse. */
  ownerAsSitter: { kind: "sitter", userId: "owner-1" },
  sitterAsOwner: { kind: "owner", userId: "sitter-1" },
  operator: { kind: "operator", userId: "admin-1" },
} satisfies Record<string, Actor>;
type ActorName = keyof typeof ACTORS;

const EVENTS = {
  requested: { type: "requested", booking: newBooking() },
  occurrence: {
    type: "occurrence",
    booking: newBooking({ service_type: "walk", hours: 1, series_id: "series-1", series_day: "2030-01-07" }),
    pets: [{ id: "pet-1", name: "Rex" }],
    card: { cardRef: "card_1", cardLabel: "Visa •••• 4242" },
    sitterFree: true,
  },
  "series-changed": { type: "series-changed" },
  "card-saved": { type: "card-saved", cardRef: "card_2", cardLabel: "Visa •••• 4242" },
  "hold-placed": { type: "hold-placed", holdRef: "hold_2" },
  "hold-failed": { type: "hold-failed", error: "insufficient_funds" },
  "hold-due": { type: "hold-due" },
  "card-failed": { type: "card-failed", error: "card_declined" },
  "task-failed": { type: "task-failed", task: "hold", error: "processing_error" },
  accept: { type: "accept" },
  decline: { type: "decline" },
  cancel: { type: "cancel", reason: "Plans changed" },
  start: { type: "start" },
  finish: { type: "finish" },
  release: { type: "release" },
  captured: { type: "captured" },
  voided: { type: "voided" },
  expire: { type: "expire" },
  "slot-taken": { type: "slot-taken" },
  "hold-cancelled": { type: "hold-cancelled", holdRef: "hold_1" },
  refunded: { type: "refunded" },
  disputed: { type: "disputed" },
  "account-closed": { type: "account-closed", party: "sitter", closure: "suspended" },
  "report-problem": { type: "report-problem" },
  "resolve-dispute": { type: "resolve-dispute", settlement: { kind: "partial", refundCents: 1440 } },
  "operator-refund": { type: "operator-refund", amountCents: 1000 },
  "refund-done": { type: "refund-done" },
  "sitter-cancel": { type: "sitter-cancel", reason: "I am ill" },
} satisfies { [K in BookingEvent["type"]]: Extract<BookingEvent, { type: K }> };
type EventName = keyof typeof EVENTS;

/** For each event: who may send it, and a booking (none for the one that makes it) and a moment at which it is allowed. */
const READY: Record<EventName, { actors: ActorName[]; booking: Facts | null; at: Date }> = {
  requested: { actors: ["owner"], booking: null, at: NOW },
  occurrence: { actors: ["system"], booking: null, at: NOW },
  "series-changed": { actors: ["system"], booking: cardKept({ status: "confirmed" }), at: NOW },
  "card-failed": { actors: ["owner"], booking: booking(), at: NOW },
  "task-failed": { actors: ["system"], booking: booking({ card_ref: "card_1", payment_task: "hold" }), at: NOW },
  "card-saved": { actors: ["owner"], booking: booking(), at: NOW },
  "hold-placed": { actors: ["system"], booking: booking({ card_ref: "card_1", payment_task: "hold" }), at: NOW },
  "hold-failed": { actors: ["system"], booking: booking({ card_ref: "card_1", payment_task: "hold" }), at: NOW },
  "hold-due": { actors: ["system"], booking: cardKept(), at: after(START, -DELAYED_HOLD_BEFORE_MS) },
  accept: { actors: ["sitter"], booking: held(), at: NOW },
  decline: { actors: ["sitter"], booking: held(), at: NOW },
  cancel: { actors: ["owner"], booking: held(), at: NOW },
  start: { actors: ["system"], booking: confirmed(), at: START },
  finish: { actors: ["sitter", "system"], booking: inProgress(), at: END },
  release: { actors: ["owner", "system"], booking: completed(), at: after(END, AUTO_RELEASE_AFTER_MS) },
  captured: { actors: ["system"], booking: completed({ payment_task: "capture" }), at: after(END, HOUR) },
  voided: {
    actors: ["system"],
    booking: booking({ status: "cancelled", payment_status: "held", hold_ref: "hold_1", payment_task: "void" }),
    at: NOW,
  },
  expire: { actors: ["system"], booking: booking(), at: after(NOW, UNPAID_REQUEST_TTL_MS) },
  "slot-taken": { actors: ["system"], booking: held(), at: NOW },
  "hold-cancelled": { actors: ["system"], booking: confirmed(), at: NOW },
  refunded: { actors: ["system"], booking: completed({ payment_status: "released" }), at: after(END, HOUR) },
  disputed: { actors: ["system"], booking: completed({ payment_status: "released" }), at: after(END, HOUR) },
  "account-closed": { actors: ["system", "operator"], booking: confirmed(), at: NOW },
  "report-problem": { actors: ["owner"], booking: completed(), at: after(END, HOUR) },
  "resolve-dispute": { actors: ["operator"], booking: disputed(), at: after(END, 2 * HOUR) },
  "operator-refund": { actors: ["operator"], booking: released(), at: after(END, 4 * DAY) },
  "refund-done": { actors: ["system"], booking: released({ refund_due_cents: 1000 }), at: after(END, 4 * DAY) },
  "sitter-cancel": { actors: ["sitter"], booking: confirmed(), at: NOW },
};

const EVENT_NAMES = Object.keys(EVENTS) as EventName[];
const ACTOR_NAMES = Object.keys(ACTORS) as ActorName[];
const STATUSES: BookingStatus[] = ["requested", "confirmed", "in-progress", "completed", "cancelled"];

function allowed(decision: Decision) {
  if (!decision.ok) throw new Error(`expected the transition to be allowed, got ${decision.refusal}`);
  return decision.change;
}
const refusalOf = (decision: Decision) => (decision.ok ? "allowed" : decision.refusal);

describe("who may do what", () => {
  for (const event of EVENT_NAMES) {
    const ready = READY[event];
    it(`${event}: allowed to ${ready.actors.join(" and ")} only`, () => {
      for (const actor of ACTOR_NAMES) {
        const decision = decide(ready.booking, ACTORS[actor], EVENTS[event], ready.at);
        if (ready.actors.includes(actor)) expect(decision.ok, `${event} by ${actor}`).toBe(true);
        else expect(refusalOf(decision), `${event} by ${actor}`).toBe("notYours");
      }
    });
  }

  it("the owner cannot accept or decline their own request, the sitter cannot cancel or pay for it", () => {
    expect(refusalOf(decide(held(), OWNER, EVENTS.accept, NOW))).toBe("notYours");
    expect(refusalOf(decide(held(), OWNER, EVENTS.decline, NOW))).toBe("notYours");
    expect(refusalOf(decide(held(), SITTER, EVENTS.cancel, NOW))).toBe("notYours");
    expect(refusalOf(decide(booking(), SITTER, EVENTS["card-saved"], NOW))).toBe("notYours");
    expect(refusalOf(decide(completed(), SITTER, EVENTS.release, after(END, AUTO_RELEASE_AFTER_MS)))).toBe("notYours");
  });

  it("nobody but the system starts a booking, expires a request or records the provider's answers", () => {
    for (const event of [
      "start",
      "expire",
      "hold-placed",
      "hold-failed",
      "hold-due",
      "task-failed",
      "captured",
      "voided",
      "slot-taken",
    ] as const) {
      for (const actor of [OWNER, SITTER])
        expect(refusalOf(decide(READY[event].booking, actor, EVENTS[event], READY[event].at)), event).toBe("notYours");
    }
  });
});

describe("which states each event applies to", () => {
  /** Events gated by the booking's status, and the statuses in which they are allowed. */
  const STATUS_GATED: { event: EventName; allowedIn: BookingStatus[] }[] = [
    { event: "card-saved", allowedIn: ["requested"] },
    { event: "card-failed", allowedIn: ["requested"] },
    { event: "hold-due", allowedIn: ["requested", "confirmed"] },
    { event: "accept", allowedIn: ["requested"] },
    { event: "decline", allowedIn: ["requested"] },
    { event: "cancel", allowedIn: ["requested", "confirmed"] },
    { event: "expire", allowedIn: ["requested"] },
    { event: "slot-taken", allowedIn: ["requested"] },
    { event: "start", allowedIn: ["confirmed"] },
    { event: "finish", allowedIn: ["confirmed", "in-progress"] },
    { event: "release", allowedIn: ["completed"] },
    { event: "account-closed", allowedIn: ["requested", "confirmed", "in-progress"] },
    { event: "report-problem", allowedIn: ["completed"] },
    { event: "resolve-dispute", allowedIn: ["completed"] },
    { event: "operator-refund", allowedIn: ["completed"] },
    { event: "sitter-cancel", allowedIn: ["confirmed"] },
    { event: "series-changed", allowedIn: ["requested", "confirmed"] },
  ];
  for (const { event, allowedIn } of STATUS_GATED) {
    it(`${event}: only when ${allowedIn.join(" or ")}`, () => {
      const ready = READY[event];
      for (const status of STATUSES) {
        const decision = decide({ ...ready.booking!, status }, ACTORS[ready.actors[0]!], EVENTS[event], ready.at);
        if (allowedIn.includes(status)) expect(decision.ok, `${event} when ${status}`).toBe(true);
        else expect(refusalOf(decision), `${event} when ${status}`).toBe("wrongState");
      }
    });
  }

  it("the provider's answers apply only to the task that asked for them", () => {
    const tasks = [null, "hold", "capture", "void"] as const;
    const answers: { event: EventName; task: (typeof tasks)[number] }[] = [
      { event: "hold-placed", task: "hold" },
      { event: "hold-failed", task: "hold" },
      { event: "captured", task: "capture" },
      { event: "voided", task: "void" },
    ];
    for (const { event, task } of answers) {
      for (const other of tasks) {
        const decision = decide(
          { ...READY[event].booking!, payment_task: other },
          SYSTEM,
          EVENTS[event],
          READY[event].at,
        );
        if (other === task) expect(decision.ok, `${event} with task ${other}`).toBe(true);
        else expect(refusalOf(decision), `${event} with task ${other}`).toBe("wrongState");
      }
    }
  });
});

describe("the owner's request makes the booking", () => {
  it("priced from the sitter's rate, and nobody is told until the card is authorised", () => {
    const change = allowed(decide(null, OWNER, EVENTS.requested, NOW));
    expect(change).toEqual({
      create: {
        ...newBooking(),
        service_type: "hourly",
        payment_mode: "hold",
        extra_pet_cents: 0,
        subtotal_cents: 3000,
        fee_cents: 600,
        total_cents: 3600,
      },
      pets: [{ id: "pet-1", name: "Rex" }],
      set: {},
      notify: [],
    });
  });

  it("refuses an id that is already a booking", () => {
    expect(refusalOf(decide(booking(), OWNER, EVENTS.requested, NOW))).toBe("wrongState");
  });

  it("refuses a request in someone else's name, or from the sitter to themself", () => {
    expect(
      refusalOf(decide(null, OWNER, { type: "requested", booking: newBooking({ owner_id: "owner-2" }) }, NOW)),
    ).toBe("notYours");
    expect(
      refusalOf(decide(null, OWNER, { type: "requested", booking: newBooking({ sitter_id: "owner-1" }) }, NOW)),
    ).toBe("notYours");
  });

  it("refuses a start that is not in the future", () => {
    expect(refusalOf(decide(null, OWNER, EVENTS.requested, START))).toBe("alreadyStarted");
    expect(refusalOf(decide(null, OWNER, EVENTS.requested, after(START, HOUR)))).toBe("alreadyStarted");
  });

  it("refuses a duration outside whole hours from the minimum to the maximum", () => {
    for (const hours of [MIN_HOURS - 1, MAX_HOURS + 1, 1.5]) {
      expect(
        refusalOf(decide(null, OWNER, { type: "requested", booking: newBooking({ hours }) }, NOW)),
        String(hours),
      ).toBe("wrongState");
    }
    expect(decide(null, OWNER, { type: "requested", booking: newBooking({ hours: MAX_HOURS }) }, NOW).ok).toBe(true);
  });

  it("no other event applies before the booking exists", () => {
    // The owner's request and the scheduler's occurrence are the two events that make one.
    for (const event of EVENT_NAMES.filter((name) => name !== "requested" && name !== "occurrence")) {
      for (const actor of READY[event].actors)
        expect(refusalOf(decide(null, ACTORS[actor], EVENTS[event], READY[event].at)), event).toBe("wrongState");
    }
  });
});

describe("paying: a card the provider refuses", () => {
  it("is recorded for the payment page, and nobody is told", () => {
    expect(allowed(decide(booking(), OWNER, EVENTS["card-failed"], NOW))).toEqual({
      set: { payment_status: "failed", payment_error: "card_declined" },
      notify: [],
    });
    expect(
      allowed(decide(booking({ payment_status: "failed" }), OWNER, EVENTS["card-failed"], NOW)).set.payment_error,
    ).toBe("card_declined");
  });

  it("leaves a card already kept or held as it is", () => {
    expect(refusalOf(decide(cardKept(), OWNER, EVENTS["card-failed"], NOW))).toBe("wrongState");
    expect(refusalOf(decide(held(), OWNER, EVENTS["card-failed"], NOW))).toBe("wrongState");
  });
});

describe("payment work the provider could not answer", () => {
  it("counts the attempt and keeps the task for the next round; nobody is told", () => {
    const change = allowed(
      decide(
        booking({ card_ref: "card_1", payment_task: "hold", payment_task_attempts: 2 }),
        SYSTEM,
        EVENTS["task-failed"],
        NOW,
      ),
    );
    expect(change).toEqual({ set: { payment_task_attempts: 3, payment_error: "processing_error" }, notify: [] });
  });

  it("applies only to the task that is waiting", () => {
    const tasks = [null, "hold", "capture", "void"] as const;
    for (const waiting of tasks) {
      for (const failed of ["hold", "capture", "void"] as const) {
        const decision = decide(
          booking({ card_ref: "card_1", hold_ref: "hold_1", payment_task: waiting }),
          SYSTEM,
          { type: "task-failed", task: failed, error: "processing_error" },
          NOW,
        );
        if (waiting === failed) expect(decision.ok, `${failed} while ${waiting} waits`).toBe(true);
        else expect(refusalOf(decision), `${failed} while ${waiting} waits`).toBe("wrongState");
      }
    }
  });
});

describe("paying: saving the card", () => {
  it("within six days of the start: the hold is placed now and nobody is told yet", () => {
    const change = allowed(decide(booking(), OWNER, EVENTS["card-saved"], NOW));
    expect(change).toEqual({
      set: {
        card_ref: "card_2",
        card_label: "Visa •••• 4242",
        payment_status: "unpaid",
        payment_error: null,
        payment_task: "hold",
        hold_due_at: null,
      },
      notify: [],
    });
  });

  it("exactly six days ahead still holds now; a moment more keeps the card for later", () => {
    expect(
      allowed(decide(booking(), OWNER, EVENTS["card-saved"], after(START, -HOLD_NOW_WITHIN_MS))).set.payment_task,
    ).toBe("hold");
    const later = allowed(decide(booking(), OWNER, EVENTS["card-saved"], after(START, -HOLD_NOW_WITHIN_MS - 1)));
    expect(later.set.payment_task).toBeUndefined();
    expect(later.set.hold_due_at).toBe(iso(after(START, -DELAYED_HOLD_BEFORE_MS)));
  });

  it("more than six days ahead: the card is kept, the hold is due two days before the start and the sitter is told now", () => {
    const start = after(NOW, 10 * DAY);
    const far = booking({ start_at: iso(start), end_at: iso(after(start, 2 * HOUR)) });
    const change = allowed(decide(far, OWNER, EVENTS["card-saved"], NOW));
    expect(change).toEqual({
      set: {
        card_ref: "card_2",
        card_label: "Visa •••• 4242",
        payment_status: "unpaid",
        payment_error: null,
        hold_due_at: iso(after(start, -2 * DAY)),
      },
      notify: [{ to: "sitter", message: "requested" }],
    });
    expect(isAuthorised({ payment_status: "unpaid", card_ref: "card_2", hold_due_at: change.set.hold_due_at! })).toBe(
      true,
    );
  });

  it("another card may be tried after a failure, and the old error is cleared", () => {
    const change = allowed(decide(booking({ payment_status: "failed" }), OWNER, EVENTS["card-saved"], NOW));
    expect(change.set).toMatchObject({ payment_status: "unpaid", payment_error: null, payment_task: "hold" });
  });

  it("refuses while a hold is being placed, once held, and from the start of the booking", () => {
    expect(
      refusalOf(decide(booking({ card_ref: "card_1", payment_task: "hold" }), OWNER, EVENTS["card-saved"], NOW)),
    ).toBe("paymentPending");
    expect(refusalOf(decide(held(), OWNER, EVENTS["card-saved"], NOW))).toBe("wrongState");
    expect(refusalOf(decide(booking({ payment_status: "refunded" }), OWNER, EVENTS["card-saved"], NOW))).toBe(
      "wrongState",
    );
    expect(refusalOf(decide(booking(), OWNER, EVENTS["card-saved"], START))).toBe("alreadyStarted");
    expect(refusalOf(decide(booking(), OWNER, EVENTS["card-saved"], after(END, HOUR)))).toBe("alreadyStarted");
  });
});

describe("paying: the hold", () => {
  it("the first hold of a request tells the sitter about it", () => {
    const change = allowed(
      decide(booking({ card_ref: "card_1", payment_task: "hold" }), SYSTEM, EVENTS["hold-placed"], NOW),
    );
    expect(change).toEqual({
      set: { payment_task: null, hold_ref: "hold_2", payment_status: "held", hold_due_at: null },
      notify: [{ to: "sitter", message: "requested" }],
    });
  });

  it("a delayed hold tells nobody again (the sitter already knows), whether requested or confirmed", () => {
    for (const status of ["requested", "confirmed"] as const) {
      const change = allowed(decide(cardKept({ status, payment_task: "hold" }), SYSTEM, EVENTS["hold-placed"], NOW));
      expect(change).toEqual({
        set: { payment_task: null, hold_ref: "hold_2", payment_status: "held", hold_due_at: null },
        notify: [],
      });
    }
  });

  it("a hold placed for a booking cancelled meanwhile is given straight back", () => {
    const change = allowed(
      decide(
        booking({ status: "cancelled", card_ref: "card_1", payment_task: "hold" }),
        SYSTEM,
        EVENTS["hold-placed"],
        NOW,
      ),
    );
    expect(change).toEqual({ set: { payment_task: "void", hold_ref: "hold_2", payment_status: "held" }, notify: [] });
  });

  it("a first hold that fails clears the card so the owner can try another; nobody else is told", () => {
    const change = allowed(
      decide(booking({ card_ref: "card_1", payment_task: "hold" }), SYSTEM, EVENTS["hold-failed"], NOW),
    );
    expect(change).toEqual({
      set: {
        payment_task: null,
        payment_status: "failed",
        card_ref: null,
        card_label: null,
        payment_error: "insufficient_funds",
      },
      notify: [],
    });
    expect(change.freeSlot).toBeUndefined();
  });

  it("a delayed hold that fails cancels the booking, tells both sides, and frees the slot if it was booked", () => {
    const requestedChange = allowed(decide(cardKept({ payment_task: "hold" }), SYSTEM, EVENTS["hold-failed"], NOW));
    expect(requestedChange.set).toEqual({
      payment_task: null,
      payment_status: "failed",
      payment_error: "insufficient_funds",
      status: "cancelled",
      cancelled_by: "system",
      cancel_reason: "payment",
    });
    expect(requestedChange.notify).toEqual([
      { to: "owner", message: "holdFailed" },
      { to: "sitter", message: "cancelledPayment" },
    ]);
    expect(requestedChange.freeSlot).toBe(false);
    const confirmedChange = allowed(
      decide(cardKept({ status: "confirmed", payment_task: "hold" }), SYSTEM, EVENTS["hold-failed"], NOW),
    );
    expect(confirmedChange.freeSlot).toBe(true);
    expect(confirmedChange.set.status).toBe("cancelled");
  });

  it("the delayed hold falls due two days before the start, not earlier, and only once", () => {
    const due = after(START, -DELAYED_HOLD_BEFORE_MS);
    expect(refusalOf(decide(cardKept(), SYSTEM, EVENTS["hold-due"], after(due, -1)))).toBe("tooEarly");
    expect(allowed(decide(cardKept(), SYSTEM, EVENTS["hold-due"], due))).toEqual({
      set: { payment_task: "hold" },
      notify: [],
    });
    expect(allowed(decide(cardKept({ status: "confirmed" }), SYSTEM, EVENTS["hold-due"], due)).set).toEqual({
      payment_task: "hold",
    });
    expect(refusalOf(decide(cardKept({ payment_task: "hold" }), SYSTEM, EVENTS["hold-due"], due))).toBe("wrongState");
    expect(refusalOf(decide(held(), SYSTEM, EVENTS["hold-due"], due))).toBe("wrongState");
    expect(refusalOf(decide(booking(), SYSTEM, EVENTS["hold-due"], due))).toBe("wrongState");
  });
});

describe("the sitter answers", () => {
  it("accepting a held request confirms it, books the slot and tells the owner", () => {
    const at = after(NOW, 5 * MINUTE);
    expect(allowed(decide(held(), SITTER, EVENTS.accept, at))).toEqual({
      set: { status: "confirmed", confirmed_at: iso(at) },
      notify: [{ to: "owner", message: "accepted" }],
      bookSlot: true,
    });
  });

  it("a request whose card is kept for a later hold can be accepted too", () => {
    expect(allowed(decide(cardKept(), SITTER, EVENTS.accept, NOW)).set.status).toBe("confirmed");
  });

  it("refuses to accept before the owner has paid, while the hold is pending, or after a failure", () => {
    expect(refusalOf(decide(booking(), SITTER, EVENTS.accept, NOW))).toBe("notPaid");
    expect(refusalOf(decide(booking({ card_ref: "card_1", payment_task: "hold" }), SITTER, EVENTS.accept, NOW))).toBe(
      "notPaid",
    );
    expect(refusalOf(decide(booking({ payment_status: "failed" }), SITTER, EVENTS.accept, NOW))).toBe("notPaid");
    expect(refusalOf(decide(cardKept({ payment_task: "hold" }), SITTER, EVENTS.accept, NOW))).toBe("notPaid");
  });

  it("refuses to accept once the start time has come", () => {
    expect(refusalOf(decide(held(), SITTER, EVENTS.accept, START))).toBe("alreadyStarted");
    expect(refusalOf(decide(held(), SITTER, EVENTS.accept, after(START, -1)))).toBe("allowed");
  });

  it("declining gives a held amount back and tells the owner", () => {
    expect(allowed(decide(held(), SITTER, EVENTS.decline, NOW))).toEqual({
      set: { status: "cancelled", cancelled_by: "sitter", payment_task: "void" },
      notify: [{ to: "owner", message: "declined" }],
    });
  });

  it("declining an unpaid request has nothing to give back", () => {
    expect(allowed(decide(booking(), SITTER, EVENTS.decline, NOW)).set).toEqual({
      status: "cancelled",
      cancelled_by: "sitter",
    });
    expect(allowed(decide(cardKept(), SITTER, EVENTS.decline, NOW)).set).toEqual({
      status: "cancelled",
      cancelled_by: "sitter",
    });
  });

  it("another accepted request for the same time cancels this one and gives its hold back", () => {
    expect(allowed(decide(held(), SYSTEM, EVENTS["slot-taken"], NOW))).toEqual({
      set: { status: "cancelled", cancelled_by: "system", cancel_reason: "slotTaken", payment_task: "void" },
      notify: [{ to: "owner", message: "slotTaken" }],
    });
    expect(allowed(decide(booking(), SYSTEM, EVENTS["slot-taken"], NOW)).set).toEqual({
      status: "cancelled",
      cancelled_by: "system",
      cancel_reason: "slotTaken",
    });
  });
});

describe("the owner cancels", () => {
  const cancel = (reason: string): BookingEvent => ({ type: "cancel", reason });

  it("a requested booking: cancelled with the trimmed reason, the hold given back, the sitter told, no slot to free", () => {
    const change = allowed(decide(held(), OWNER, cancel("  Plans changed \n"), NOW));
    expect(change).toEqual({
      set: { status: "cancelled", cancelled_by: "owner", cancel_reason: "Plans changed", payment_task: "void" },
      notify: [{ to: "sitter", message: "cancelledByOwner" }],
      freeSlot: false,
    });
  });

  it("a confirmed booking: the booked time goes back to available", () => {
    expect(allowed(decide(confirmed(), OWNER, cancel("Sick"), NOW)).freeSlot).toBe(true);
  });

  it("an unpaid request: nothing to give back", () => {
    expect(allowed(decide(booking(), OWNER, cancel("Sick"), NOW)).set.payment_task).toBeUndefined();
  });

  it("needs a reason that is not blank", () => {
    for (const reason of ["", " ", "   ", "\n\t "])
      expect(refusalOf(decide(held(), OWNER, cancel(reason), NOW)), JSON.stringify(reason)).toBe("reasonRequired");
  });

  it("takes at most 500 characters of reason (after trimming)", () => {
    expect(CANCEL_REASON_MAX).toBe(500);
    expect(refusalOf(decide(held(), OWNER, cancel("x".repeat(501)), NOW))).toBe("reasonTooLong");
    expect(allowed(decide(held(), OWNER, cancel("x".repeat(500)), NOW)).set.cancel_reason).toBe("x".repeat(500));
    expect(allowed(decide(held(), OWNER, cancel(`  ${"x".repeat(500)}  `), NOW)).set.cancel_reason).toBe(
      "x".repeat(500),
    );
  });

  it("not from the start time on", () => {
    expect(refusalOf(decide(confirmed(), OWNER, cancel("Late"), START))).toBe("alreadyStarted");
    expect(refusalOf(decide(held(), OWNER, cancel("Late"), after(START, HOUR)))).toBe("alreadyStarted");
    expect(allowed(decide(confirmed(), OWNER, cancel("Just in time"), after(START, -1))).set.status).toBe("cancelled");
  });

  it("not once it is in progress, completed or cancelled", () => {
    expect(refusalOf(decide(inProgress(), OWNER, cancel("x"), NOW))).toBe("wrongState");
    expect(refusalOf(decide(completed(), OWNER, cancel("x"), NOW))).toBe("wrongState");
    expect(refusalOf(decide(held({ status: "cancelled" }), OWNER, cancel("x"), NOW))).toBe("wrongState");
  });
});

describe("unpaid requests lapse", () => {
  it("15 minutes after the request, not before", () => {
    expect(UNPAID_REQUEST_TTL_MS).toBe(15 * MINUTE);
    expect(refusalOf(decide(booking(), SYSTEM, EVENTS.expire, after(NOW, 15 * MINUTE - 1)))).toBe("tooEarly");
    expect(allowed(decide(booking(), SYSTEM, EVENTS.expire, after(NOW, 15 * MINUTE)))).toEqual({
      set: { status: "cancelled", cancelled_by: "system", cancel_reason: "expired" },
      notify: [{ to: "owner", message: "expired" }],
    });
    expect(
      allowed(decide(booking({ payment_status: "failed" }), SYSTEM, EVENTS.expire, after(NOW, HOUR))).set.status,
    ).toBe("cancelled");
  });

  it("not after 15 minutes once the owner has authorised the card (only at the start), nor while authorisation is under way", () => {
    const late = after(NOW, HOUR);
    expect(refusalOf(decide(held(), SYSTEM, EVENTS.expire, late))).toBe("tooEarly");
    expect(refusalOf(decide(cardKept(), SYSTEM, EVENTS.expire, late))).toBe("tooEarly");
    expect(allowed(decide(held(), SYSTEM, EVENTS.expire, START))).toMatchObject({
      set: { status: "cancelled", cancel_reason: "unanswered", payment_task: "void" },
    });
    expect(refusalOf(decide(booking({ card_ref: "card_1", payment_task: "hold" }), SYSTEM, EVENTS.expire, late))).toBe(
      "wrongState",
    );
  });
});

describe("start and end", () => {
  it("a confirmed booking starts at its start time and the owner is told", () => {
    expect(refusalOf(decide(confirmed(), SYSTEM, EVENTS.start, after(START, -1)))).toBe("tooEarly");
    expect(allowed(decide(confirmed(), SYSTEM, EVENTS.start, START))).toEqual({
      set: { status: "in-progress" },
      notify: [{ to: "owner", message: "started" }],
    });
  });

  it("the system completes it at its end time, not before", () => {
    expect(refusalOf(decide(inProgress(), SYSTEM, EVENTS.finish, after(END, -1)))).toBe("tooEarly");
    expect(allowed(decide(inProgress(), SYSTEM, EVENTS.finish, END))).toEqual({
      set: { status: "completed", completed_at: iso(END) },
      notify: [{ to: "owner", message: "completed" }],
    });
    expect(allowed(decide(confirmed(), SYSTEM, EVENTS.finish, after(END, HOUR))).set.status).toBe("completed");
  });

  it("the sitter may mark it done once it has begun, not before", () => {
    expect(refusalOf(decide(confirmed(), SITTER, EVENTS.finish, after(START, -1)))).toBe("tooEarly");
    const at = after(START, 30 * MINUTE);
    expect(allowed(decide(inProgress(), SITTER, EVENTS.finish, at)).set).toEqual({
      status: "completed",
      completed_at: iso(at),
    });
  });
});

describe("releasing the payment", () => {
  it("the owner releases a completed, held booking at any time: the hold is captured", () => {
    expect(allowed(decide(completed(), OWNER, EVENTS.release, after(END, MINUTE)))).toEqual({
      set: { payment_task: "capture" },
      notify: [],
    });
  });

  it("the system releases it only 72 hours after completion", () => {
    expect(AUTO_RELEASE_AFTER_MS).toBe(72 * HOUR);
    expect(refusalOf(decide(completed(), SYSTEM, EVENTS.release, after(END, 72 * HOUR - 1)))).toBe("tooEarly");
    expect(allowed(decide(completed(), SYSTEM, EVENTS.release, after(END, 72 * HOUR))).set).toEqual({
      payment_task: "capture",
    });
    expect(refusalOf(decide(completed({ completed_at: null }), SYSTEM, EVENTS.release, after(END, 100 * DAY)))).toBe(
      "tooEarly",
    );
  });

  it("only when completed and held, and only once", () => {
    const at = after(END, MINUTE);
    for (const status of ["requested", "confirmed", "in-progress", "cancelled"] as const)
      expect(refusalOf(decide(held({ status }), OWNER, EVENTS.release, at)), status).toBe("wrongState");
    expect(refusalOf(decide(completed({ payment_status: "unpaid", hold_ref: null }), OWNER, EVENTS.release, at))).toBe(
      "wrongState",
    );
    expect(refusalOf(decide(completed({ payment_status: "released" }), OWNER, EVENTS.release, at))).toBe("wrongState");
    expect(refusalOf(decide(completed({ payment_status: "refunded" }), OWNER, EVENTS.release, at))).toBe("wrongState");
    expect(refusalOf(decide(completed({ payment_task: "capture" }), OWNER, EVENTS.release, at))).toBe("paymentPending");
  });

  it("a capture confirmed by the provider releases the money and tells the sitter", () => {
    const at = after(END, HOUR);
    expect(allowed(decide(completed({ payment_task: "capture" }), SYSTEM, EVENTS.captured, at))).toEqual({
      set: { payment_task: null, payment_status: "released", released_at: iso(at) },
      notify: [{ to: "sitter", message: "released" }],
    });
  });

  it("a void confirmed by the provider marks the money refunded, silently", () => {
    expect(allowed(decide(READY.voided.booking, SYSTEM, EVENTS.voided, NOW))).toEqual({
      set: { payment_task: null, payment_status: "refunded" },
      notify: [],
    });
  });
});

describe("what the processor reports on its own (webhooks)", () => {
  it("a hold it cancelled after a void we asked for is the void confirmed", () => {
    const voiding = booking({ status: "cancelled", payment_status: "held", hold_ref: "hold_1", payment_task: "void" });
    expect(allowed(decide(voiding, SYSTEM, EVENTS["hold-cancelled"], NOW))).toEqual({
      set: { payment_task: null, payment_status: "refunded" },
      notify: [],
    });
  });

  it("a hold that lapsed before the start cancels the booking and tells both; after the start it only marks the payment", () => {
    expect(allowed(decide(confirmed(), SYSTEM, EVENTS["hold-cancelled"], NOW))).toEqual({
      set: {
        payment_status: "failed",
        payment_error: "hold_cancelled",
        status: "cancelled",
        cancelled_by: "system",
        cancel_reason: "payment",
      },
      notify: [
        { to: "owner", message: "holdFailed" },
        { to: "sitter", message: "cancelledPayment" },
      ],
      freeSlot: true,
    });
    expect(allowed(decide(held(), SYSTEM, EVENTS["hold-cancelled"], NOW)).freeSlot).toBe(false);
    expect(allowed(decide(inProgress(), SYSTEM, EVENTS["hold-cancelled"], START))).toEqual({
      set: { payment_status: "failed", payment_error: "hold_cancelled" },
      notify: [],
    });
  });

  it("a cancelled hold that is not this booking's, or was already settled, changes nothing", () => {
    expect(refusalOf(decide(confirmed(), SYSTEM, { type: "hold-cancelled", holdRef: "hold_other" }, NOW))).toBe(
      "wrongState",
    );
    expect(refusalOf(decide(completed({ payment_status: "released" }), SYSTEM, EVENTS["hold-cancelled"], NOW))).toBe(
      "wrongState",
    );
    expect(refusalOf(decide(completed({ payment_task: "capture" }), SYSTEM, EVENTS["hold-cancelled"], NOW))).toBe(
      "wrongState",
    );
  });

  it("a full refund marks a released payment refunded, once", () => {
    expect(allowed(decide(completed({ payment_status: "released" }), SYSTEM, EVENTS.refunded, NOW))).toEqual({
      set: { payment_status: "refunded" },
      notify: [],
    });
    expect(refusalOf(decide(completed({ payment_status: "refunded" }), SYSTEM, EVENTS.refunded, NOW))).toBe(
      "wrongState",
    );
    expect(refusalOf(decide(completed(), SYSTEM, EVENTS.refunded, NOW))).toBe("wrongState");
  });

  it("a dispute is marked once, on a payment that was taken", () => {
    expect(allowed(decide(completed({ payment_status: "released" }), SYSTEM, EVENTS.disputed, NOW))).toEqual({
      set: { disputed_at: iso(NOW) },
      notify: [],
    });
    expect(
      refusalOf(decide(completed({ payment_status: "released", disputed_at: iso(NOW) }), SYSTEM, EVENTS.disputed, NOW)),
    ).toBe("wrongState");
    expect(refusalOf(decide(booking(), SYSTEM, EVENTS.disputed, NOW))).toBe("wrongState");
  });
});

describe("a refused event changes nothing, an allowed one only what it says", () => {
  it("decide never mutates the booking it is given", () => {
    for (const event of EVENT_NAMES) {
      const ready = READY[event];
      const before = structuredClone(ready.booking);
      for (const actor of ACTOR_NAMES) decide(ready.booking, ACTORS[actor], EVENTS[event], ready.at);
      expect(ready.booking, event).toEqual(before);
    }
  });

  it("every allowed change only tells the parties, never the actor themself", () => {
    for (const event of EVENT_NAMES) {
      const ready = READY[event];
      for (const actor of ready.actors) {
        const change = allowed(decide(ready.booking, ACTORS[actor], EVENTS[event], ready.at));
        if (actor === "owner")
          expect(
            change.notify.map((n) => n.to),
            event,
          ).not.toContain("owner");
        if (actor === "sitter")
          expect(
            change.notify.map((n) => n.to),
            event,
          ).not.toContain("sitter");
      }
    }
  });
});

describe("isAuthorised", () => {
  it("held, or a kept card with a hold due later; nothing else", () => {
    expect(isAuthorised({ payment_status: "held", card_ref: "c", hold_due_at: null })).toBe(true);
    expect(isAuthorised({ payment_status: "unpaid", card_ref: "c", hold_due_at: iso(START) })).toBe(true);
    expect(isAuthorised({ payment_status: "unpaid", card_ref: "c", hold_due_at: null })).toBe(false);
    expect(isAuthorised({ payment_status: "unpaid", card_ref: null, hold_due_at: iso(START) })).toBe(false);
    for (const status of ["failed", "refunded", "released"] as const)
      expect(isAuthorised({ payment_status: status, card_ref: "c", hold_due_at: iso(START) }), status).toBe(false);
  });
});

describe("priceOf", () => {
  it("rate × hours, a 20 % fee, and the total", () => {
    expect(PLATFORM_FEE_RATE).toBe(0.2);
    expect(priceOf(1500, 3)).toEqual({ subtotal: 4500, fee: 900, total: 5400 });
    expect(priceOf(2000, 1)).toEqual({ subtotal: 2000, fee: 400, total: 2400 });
  });

  it("rounds the fee to the nearest cent", () => {
    expect(priceOf(1237, 1)).toEqual({ subtotal: 1237, fee: 247, total: 1484 });
    expect(priceOf(1238, 1)).toEqual({ subtotal: 1238, fee: 248, total: 1486 });
    expect(priceOf(999, 3)).toEqual({ subtotal: 2997, fee: 599, total: 3596 });
    expect(priceOf(1, 1)).toEqual({ subtotal: 1, fee: 0, total: 1 });
    expect(priceOf(3, 1)).toEqual({ subtotal: 3, fee: 1, total: 4 });
  });

  it("is always whole cents that add up, for every rate and allowed number of hours", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: MIN_HOURS, max: MAX_HOURS }),
        (rate, hours) => {
          const { subtotal, fee, total } = priceOf(rate, hours);
          expect(subtotal).toBe(rate * hours);
          expect(Number.isInteger(fee)).toBe(true);
          expect(Math.abs(fee - subtotal / 5)).toBeLessThanOrEqual(0.5);
          expect(total).toBe(subtotal + fee);
        },
      ),
    );
  });
});

describe("a closed account ends what has not finished", () => {
  const closedBy = (party: "owner" | "sitter") => ({ type: "account-closed", party, closure: "deleted" }) as const;

  it("a held booking is cancelled, the hold given back, the slot freed and the other side told", () => {
    const change = allowed(decide(confirmed(), SYSTEM, closedBy("sitter"), NOW));
    expect(change.set).toMatchObject({
      status: "cancelled",
      cancelled_by: "system",
      cancel_reason: "accountClosed",
      payment_task: "void",
    });
    expect(change.notify).toEqual([{ to: "owner", message: "accountClosed" }]);
    expect(change.freeSlot).toBe(true);
    expect(allowed(decide(held(), SYSTEM, closedBy("owner"), NOW)).notify).toEqual([
      { to: "sitter", message: "accountClosed" },
    ]);
  });

  it("a visit under way ends with the hold given back in full", () => {
    const change = allowed(decide(inProgress(), SYSTEM, closedBy("sitter"), after(START, HOUR)));
    expect(change.set).toMatchObject({ status: "cancelled", payment_task: "void" });
  });

  it("a card kept for a later hold is simply not used; a hold being placed is voided when it lands", () => {
    expect(allowed(decide(cardKept(), SYSTEM, closedBy("owner"), NOW)).set.payment_task).toBeUndefined();
    const placing = booking({ card_ref: "card_1", payment_task: "hold" });
    const change = allowed(decide(placing, SYSTEM, closedBy("owner"), NOW));
    expect(change.set.status).toBe("cancelled");
    const landed = allowed(decide({ ...placing, status: "cancelled" }, SYSTEM, EVENTS["hold-placed"], NOW));
    expect(landed.set).toMatchObject({ payment_task: "void", payment_status: "held" });
  });

  it("waits for a capture or void already under way, and leaves completed bookings to release or dispute", () => {
    expect(
      refusalOf(decide(completed({ payment_task: "capture" }), SYSTEM, closedBy("sitter"), after(END, HOUR))),
    ).toBe("wrongState");
    expect(refusalOf(decide(confirmed({ payment_task: "void" }), SYSTEM, closedBy("sitter"), NOW))).toBe(
      "paymentPending",
    );
    expect(refusalOf(decide(completed(), SYSTEM, closedBy("sitter"), after(END, HOUR)))).toBe("wrongState");
  });
});

describe("the owner reports a problem", () => {
  const report = EVENTS["report-problem"];

  it("on a completed, held booking: the release waits and the sitter is told", () => {
    const change = allowed(decide(completed(), OWNER, report, after(END, HOUR)));
    expect(change).toEqual({
      set: { problem_reported_at: iso(after(END, HOUR)) },
      notify: [{ to: "sitter", message: "problemReported" }],
    });
  });

  it("until the 72 hours of the automatic release are over, not from then on", () => {
    expect(decide(completed(), OWNER, report, after(END, PROBLEM_WINDOW_MS - MINUTE)).ok).toBe(true);
    expect(refusalOf(decide(completed(), OWNER, report, after(END, PROBLEM_WINDOW_MS)))).toBe("tooLate");
  });

  it("once only", () => {
    expect(refusalOf(decide(disputed(), OWNER, report, after(END, 2 * HOUR)))).toBe("alreadyReported");
    expect(
      refusalOf(
        decide(disputed({ problem_resolved_at: iso(after(END, 3 * HOUR)) }), OWNER, report, after(END, 4 * HOUR)),
      ),
    ).toBe("alreadyReported");
  });

  it("not once the payment is released, refunded or being captured", () => {
    expect(refusalOf(decide(released(), OWNER, report, after(END, HOUR)))).toBe("alreadyReleased");
    expect(refusalOf(decide(completed({ payment_status: "refunded" }), OWNER, report, after(END, HOUR)))).toBe(
      "alreadyReleased",
    );
    expect(refusalOf(decide(completed({ payment_task: "capture" }), OWNER, report, after(END, HOUR)))).toBe(
      "alreadyReleased",
    );
  });

  it("an open problem stops both the owner's and the automatic release", () => {
    expect(refusalOf(decide(disputed(), OWNER, EVENTS.release, after(END, 2 * HOUR)))).toBe("inDispute");
    expect(refusalOf(decide(disputed(), SYSTEM, EVENTS.release, after(END, AUTO_RELEASE_AFTER_MS + HOUR)))).toBe(
      "inDispute",
    );
  });
});

describe("the operator settles a problem", () => {
  const AT = after(END, 2 * HOUR);
  const settle = (settlement: Extract<BookingEvent, { type: "resolve-dispute" }>["settlement"]) =>
    ({ type: "resolve-dispute", settlement }) as const;
  const OPERATOR = ACTORS.operator;
  const both = (message: string) => [
    { to: "owner", message },
    { to: "sitter", message },
  ];

  it("release in full: the whole hold is captured and both sides are told", () => {
    const change = allowed(decide(disputed(), OPERATOR, settle({ kind: "release" }), AT));
    expect(change).toEqual({
      set: { problem_resolved_at: iso(AT), payment_task: "capture", payment_task_attempts: 0 },
      notify: both("disputeReleased"),
    });
  });

  it("a partial refund captures what is kept; the rest of the hold goes back", () => {
    const change = allowed(decide(disputed(), OPERATOR, settle({ kind: "partial", refundCents: 1440 }), AT));
    expect(change).toEqual({
      set: { problem_resolved_at: iso(AT), payment_task: "capture", capture_cents: 2160, payment_task_attempts: 0 },
      notify: both("disputePartlyRefunded"),
    });
  });

  it("a full refund, or a partial one of the whole amount, gives the hold back", () => {
    for (const settlement of [{ kind: "refund" }, { kind: "partial", refundCents: 3600 }] as const) {
      const change = allowed(decide(disputed(), OPERATOR, settle(settlement), AT));
      expect(change).toEqual({
        set: { problem_resolved_at: iso(AT), payment_task: "void", payment_task_attempts: 0 },
        notify: both("disputeRefunded"),
      });
    }
  });

  it("refuses an amount above what was paid, and amounts that are not whole positive cents", () => {
    expect(refusalOf(decide(disputed(), OPERATOR, settle({ kind: "partial", refundCents: 3601 }), AT))).toBe(
      "amountTooHigh",
    );
    for (const refundCents of [0, -5, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(
        refusalOf(decide(disputed(), OPERATOR, settle({ kind: "partial", refundCents }), AT)),
        String(refundCents),
      ).toBe("amountInvalid");
    }
  });

  it("only an open problem, once", () => {
    expect(refusalOf(decide(completed(), OPERATOR, settle({ kind: "release" }), AT))).toBe("noOpenDispute");
    expect(
      refusalOf(decide(disputed({ problem_resolved_at: iso(AT) }), OPERATOR, settle({ kind: "release" }), AT)),
    ).toBe("noOpenDispute");
  });

  it("nobody else settles it, not even the owner or the sitter", () => {
    for (const actor of [OWNER, SITTER, SYSTEM])
      expect(refusalOf(decide(disputed(), actor, settle({ kind: "refund" }), AT))).toBe("notYours");
  });

  it("the settled booking releases as usual again", () => {
    expect(decide(disputed({ problem_resolved_at: iso(AT) }), OWNER, EVENTS.release, AT).ok).toBe(true);
  });

  it("a partial capture confirmed by the provider records what went back to the owner", () => {
    const change = allowed(
      decide(
        disputed({ problem_resolved_at: iso(AT), payment_task: "capture", capture_cents: 2160 }),
        SYSTEM,
        EVENTS.captured,
        AT,
      ),
    );
    expect(change.set).toEqual({
      payment_task: null,
      payment_status: "released",
      released_at: iso(AT),
      refunded_cents: 1440,
    });
  });
});

describe("the operator refunds", () => {
  const AT = after(END, 4 * DAY);
  const OPERATOR = ACTORS.operator;
  const refund = (amountCents: number) => ({ type: "operator-refund", amountCents }) as const;

  it("a released payment in part: the refund waits for the provider and both sides are told", () => {
    const change = allowed(decide(released(), OPERATOR, refund(1000), AT));
    expect(change).toEqual({
      set: { refund_due_cents: 1000, payment_task_attempts: 0, payment_error: null },
      notify: [
        { to: "owner", message: "operatorRefunded" },
        { to: "sitter", message: "operatorRefunded" },
      ],
    });
  });

  it("never above what was paid and not yet given back", () => {
    expect(decide(released({ refunded_cents: 1000 }), OPERATOR, refund(2600), AT).ok).toBe(true);
    expect(refusalOf(decide(released({ refunded_cents: 1000 }), OPERATOR, refund(2601), AT))).toBe("amountTooHigh");
    expect(refusalOf(decide(released(), OPERATOR, refund(3601), AT))).toBe("amountTooHigh");
    for (const amount of [0, -1, 0.5, Number.NaN])
      expect(refusalOf(decide(released(), OPERATOR, refund(amount), AT)), String(amount)).toBe("amountInvalid");
  });

  it("a hold not yet released: part of it is captured, or all of it given back", () => {
    expect(allowed(decide(completed(), OPERATOR, refund(1000), AT)).set).toEqual({
      payment_task: "capture",
      capture_cents: 2600,
      payment_task_attempts: 0,
    });
    expect(allowed(decide(completed(), OPERATOR, refund(3600), AT)).set).toEqual({
      payment_task: "void",
      payment_task_attempts: 0,
    });
    expect(refusalOf(decide(completed(), OPERATOR, refund(3601), AT))).toBe("amountTooHigh");
  });

  it("not while an open problem waits for its settlement, nor while other payment work is under way", () => {
    expect(refusalOf(decide(disputed(), OPERATOR, refund(1000), AT))).toBe("inDispute");
    expect(refusalOf(decide(released({ refund_due_cents: 500 }), OPERATOR, refund(1000), AT))).toBe("paymentPending");
    expect(refusalOf(decide(completed({ payment_task: "capture" }), OPERATOR, refund(1000), AT))).toBe(
      "paymentPending",
    );
  });

  it("not when nothing was paid or all of it is back", () => {
    expect(refusalOf(decide(completed({ payment_status: "refunded" }), OPERATOR, refund(100), AT))).toBe("wrongState");
    expect(refusalOf(decide(completed({ payment_status: "failed" }), OPERATOR, refund(100), AT))).toBe("wrongState");
  });

  it("the provider's confirmation adds the refund up; the whole amount back marks the payment refunded", () => {
    expect(allowed(decide(released({ refund_due_cents: 1000 }), SYSTEM, EVENTS["refund-done"], AT)).set).toEqual({
      refund_due_cents: null,
      refunded_cents: 1000,
      payment_status: "released",
      payment_error: null,
      payment_task_attempts: 0,
    });
    expect(
      allowed(decide(released({ refunded_cents: 1000, refund_due_cents: 2600 }), SYSTEM, EVENTS["refund-done"], AT))
        .set,
    ).toMatchObject({ refunded_cents: 3600, payment_status: "refunded" });
    expect(refusalOf(decide(released(), SYSTEM, EVENTS["refund-done"], AT))).toBe("wrongState");
  });

  it("a refund the provider could not make is counted and retried; a processor refund waits for ours", () => {
    const failed = { type: "task-failed", task: "refund", error: "processing_error" } as const;
    expect(
      allowed(decide(released({ refund_due_cents: 1000, payment_task_attempts: 2 }), SYSTEM, failed, AT)).set,
    ).toEqual({ payment_task_attempts: 3, payment_error: "processing_error" });
    expect(refusalOf(decide(released(), SYSTEM, failed, AT))).toBe("wrongState");
    expect(refusalOf(decide(released({ refund_due_cents: 1000 }), SYSTEM, EVENTS.refunded, AT))).toBe("wrongState");
  });
});

describe("the sitter cancels a confirmed booking", () => {
  const cancel = (reason: string) => ({ type: "sitter-cancel", reason }) as const;

  it("before the start: cancelled with the reason, the hold given back in full, the slot freed, the owner told", () => {
    expect(allowed(decide(confirmed(), SITTER, cancel("  I am ill  "), NOW))).toEqual({
      set: { status: "cancelled", cancelled_by: "sitter", cancel_reason: "I am ill", payment_task: "void" },
      notify: [{ to: "owner", message: "cancelledBySitter" }],
      freeSlot: true,
    });
  });

  it("a card kept for a later hold: nothing to give back", () => {
    expect(allowed(decide(cardKept({ status: "confirmed" }), SITTER, cancel("Away"), NOW)).set).toEqual({
      status: "cancelled",
      cancelled_by: "sitter",
      cancel_reason: "Away",
    });
  });

  it("needs a reason of at most 500 characters", () => {
    expect(refusalOf(decide(confirmed(), SITTER, cancel("   "), NOW))).toBe("reasonRequired");
    expect(decide(confirmed(), SITTER, cancel("x".repeat(CANCEL_REASON_MAX)), NOW).ok).toBe(true);
    expect(refusalOf(decide(confirmed(), SITTER, cancel("x".repeat(CANCEL_REASON_MAX + 1)), NOW))).toBe(
      "reasonTooLong",
    );
  });

  it("not from the start time on, and a request is declined, not cancelled", () => {
    expect(refusalOf(decide(confirmed(), SITTER, cancel("Late"), START))).toBe("alreadyStarted");
    expect(refusalOf(decide(held(), SITTER, cancel("No"), NOW))).toBe("wrongState");
  });
});

describe("a stay charged at its start", () => {
  const stayEnd = after(START, 12 * DAY);
  const newStay = (over: Partial<NewBooking> = {}) =>
    newBooking({ service_type: "boarding", end_at: iso(stayEnd), hours: 12, ...over });

  it("counts 1 to 30 nights, and chooses the charge when the stay outlasts a card hold", () => {
    expect(allowed(decide(null, OWNER, { type: "requested", booking: newStay() }, NOW)).create).toMatchObject({
      service_type: "boarding",
      payment_mode: "charge",
      subtotal_cents: 12 * 1500,
    });
    for (const hours of [0, 31, 2.5])
      expect(refusalOf(decide(null, OWNER, { type: "requested", booking: newStay({ hours }) }, NOW))).toBe(
        "wrongState",
      );
    // Pet sitting by the hour keeps its 1-6 hours.
    expect(refusalOf(decide(null, OWNER, { type: "requested", booking: newBooking({ hours: 7 }) }, NOW))).toBe(
      "wrongState",
    );
  });

  it("keeps the card until the start, tells the sitter now, and is charged only once accepted", () => {
    const stay = booking({ end_at: iso(stayEnd), payment_mode: "charge" });
    expect(allowed(decide(stay, OWNER, EVENTS["card-saved"], NOW))).toMatchObject({
      set: { card_ref: "card_2", hold_due_at: iso(START) },
      notify: [{ to: "sitter", message: "requested" }],
    });
    const kept = { ...stay, card_ref: "card_2", hold_due_at: iso(START) };
    expect(refusalOf(decide(kept, SYSTEM, { type: "hold-due" }, after(START, -MINUTE)))).toBe("tooEarly");
    // Unanswered at its start: it lapses rather than being charged.
    expect(refusalOf(decide(kept, SYSTEM, { type: "hold-due" }, START))).toBe("wrongState");
    expect(allowed(decide({ ...kept, status: "confirmed" }, SYSTEM, { type: "hold-due" }, START)).set).toEqual({
      payment_task: "hold",
    });
  });

  it("records the sitter's payout when the money is released", () => {
    const releasing = completed({ payment_mode: "charge", payment_task: "capture" });
    expect(allowed(decide(releasing, SYSTEM, { type: "captured", payoutRef: "payout_1" }, NOW)).set).toMatchObject({
      payment_status: "released",
      payout_ref: "payout_1",
    });
  });
});

describe("an occurrence of weekly care", () => {
  const event = EVENTS.occurrence;

  it("is confirmed at once with the owner's card kept, held two days before its start", () => {
    const weekAhead = after(START, -6 * DAY);
    const change = allowed(decide(null, SYSTEM, event, weekAhead));
    expect(change.create).toMatchObject({
      status: "confirmed",
      confirmed_at: iso(weekAhead),
      card_ref: "card_1",
      payment_mode: "hold",
      hold_due_at: iso(after(START, -DELAYED_HOLD_BEFORE_MS)),
      series_id: "series-1",
      series_day: "2030-01-07",
    });
    expect(change.notify).toEqual([]);
  });

  it("within two days of its start is held at once", () => {
    const at = after(START, -DAY);
    expect(allowed(decide(null, SYSTEM, event, at)).create?.hold_due_at).toBe(iso(at));
  });

  it("without a usable card is recorded cancelled and both people are told", () => {
    const change = allowed(decide(null, SYSTEM, { ...event, card: null }, NOW));
    expect(change.create).toMatchObject({ status: "cancelled", cancel_reason: "payment", payment_status: "failed" });
    expect(change.notify).toEqual([
      { to: "owner", message: "holdFailed" },
      { to: "sitter", message: "cancelledPayment" },
    ]);
  });

  it("on a day the sitter is not free is recorded skipped and the owner told", () => {
    const change = allowed(decide(null, SYSTEM, { ...event, sitterFree: false }, NOW));
    expect(change.create).toMatchObject({ status: "cancelled", cancel_reason: "notFree" });
    expect(change.notify).toEqual([{ to: "owner", message: "notFree" }]);
  });

  it("is refused without its series, for a past start, or with no pet", () => {
    expect(refusalOf(decide(null, SYSTEM, { ...event, booking: newBooking({ service_type: "walk" }) }, NOW))).toBe(
      "wrongState",
    );
    expect(refusalOf(decide(null, SYSTEM, event, after(START, HOUR)))).toBe("alreadyStarted");
    expect(refusalOf(decide(null, SYSTEM, { ...event, pets: [] }, NOW))).toBe("wrongState");
  });

  it("ends in full when its series changes or ends, before it starts", () => {
    const change = allowed(decide(held({ status: "confirmed" }), SYSTEM, EVENTS["series-changed"], NOW));
    expect(change.set).toMatchObject({ status: "cancelled", cancel_reason: "seriesChanged", payment_task: "void" });
    expect(change.freeSlot).toBe(true);
    expect(refusalOf(decide(confirmed(), SYSTEM, EVENTS["series-changed"], START))).toBe("alreadyStarted");
  });
});
