import type { Booking, BookingStatus, PaymentMode, PaymentStatus, PaymentTask, ServiceId } from "~db/schema";
import { PLATFORM_FEE_RATE } from "./money";
import { keptOnOwnerCancel } from "./cancellation";
import { isStayService } from "~/features/profiles";

/**
 * Pure rules (no I/O). `applyEvent` in bookings.server.ts writes their answer; nothing creates or
 * changes a booking any other way.
 *
 *   requested → confirmed → in-progress → completed, or cancelled
 *   payment: unpaid → held → released, or refunded / failed
 *   a problem reported on a completed, held booking stops the release until the operator settles it
 *   (capture all, capture part and give the rest back, or void); a released payment may be refunded
 *   in parts (refund_due_cents, then refunded_cents) up to what was paid.
 */

export const MIN_HOURS = 1;
export const MAX_HOURS = 6;
/** A stay (house sitting, boarding, day care) counts 1 to 30 nights or days. */
export const MAX_STAY_UNITS = 30;
/** A card hold lasts about 7 days: bookings further ahead keep the card and are held this long before. */
export const HOLD_NOW_WITHIN_MS = 6 * 24 * 3600_000;
export const DELAYED_HOLD_BEFORE_MS = 2 * 24 * 3600_000;
export const AUTO_RELEASE_AFTER_MS = 72 * 3600_000;
export const UNPAID_REQUEST_TTL_MS = 15 * 60_000;
/** After this many failed attempts a payment task is left for the operator. */
export const MAX_TASK_ATTEMPTS = 8;
export const CANCEL_REASON_MAX = 500;
export const REVIEW_COMMENT_MAX = 1000;
/** An owner may report a problem while the payment waits for its automatic release. */
export const PROBLEM_WINDOW_MS = AUTO_RELEASE_AFTER_MS;

/** The most pets one booking can hold (a sitter's own limit, users.max_pets, is at most this). */
export const MAX_PETS = 6;

/** Each pet after the first costs the extra-pet price for every unit (hour, night or day); the fee is 20 % of it all. */
export function priceOf(unitPriceCents: number, units: number, pets = 1, extraPetCents = 0) {
  const subtotal = unitPriceCents * units + Math.max(0, pets - 1) * units * extraPetCents;
  const fee = Math.round(subtotal * PLATFORM_FEE_RATE);
  return { subtotal, fee, total: subtotal + fee };
}

/** How the operator settles a reported problem. */
export type Settlement = { kind: "release" } | { kind: "partial"; refundCents: number } | { kind: "refund" };

export type Party = "owner" | "sitter";
/** `operator`: a person with the admin role acting from the console (every such act is audited). */
export type Actor = { kind: Party; userId: string } | { kind: "operator"; userId: string } | { kind: "system" };
/** Why a person's account stopped taking part: their open bookings end with it. */
export type AccountClosure = "suspended" | "deleted";

export type NewBooking = Pick<
  Booking,
  | "id"
  | "owner_id"
  | "sitter_id"
  | "pet_id"
  | "pet_name"
  | "notes"
  | "start_at"
  | "end_at"
  | "hours"
  | "hourly_rate_cents"
  | "payment_provider"
> &
  Partial<
    Pick<Booking, "cancellation_policy" | "extra_pet_cents" | "series_id" | "series_day" | "series_schedule_id">
  > & {
    /** 'hourly' unless given: the specification's booking. */
    service_type?: ServiceId;
  };

/**
 * A card hold lasts about 7 days. Where the booking's end plus the release window falls within HOLD_NOW_WITHIN_MS
 * of the request, the card is held (now, or two days before a far start); otherwise (a long or far stay) the card
 * is kept, charged in full when the stay starts, and the sitter's part paid out at release.
 */
export function paymentModeFor(endAt: string, at: Date): PaymentMode {
  return new Date(endAt).getTime() + AUTO_RELEASE_AFTER_MS - at.getTime() <= HOLD_NOW_WITHIN_MS ? "hold" : "charge";
}

const unitsAllowed = (service: ServiceId, units: number) =>
  Number.isInteger(units) && units >= MIN_HOURS && units <= (service === "hourly" ? MAX_HOURS : MAX_STAY_UNITS);

/** One of the booked pets; the first is also the booking's pet_id and pet_name. */
export interface BookedPet {
  id: string;
  name: string;
}

/** A saved card the owner chose (a weekly series uses the owner's default card). */
export interface SavedCardRef {
  cardRef: string;
  cardLabel: string;
}

export type BookingEvent =
  | { type: "requested"; booking: NewBooking; pets?: BookedPet[] }
  /**
   * The scheduler makes one occurrence of an accepted weekly series: confirmed at once (the sitter accepted the
   * series), the card held two days before. Without a usable card, or on a day the sitter is not free, it is
   * recorded cancelled and the people told, so the date shows what happened.
   */
  | { type: "occurrence"; booking: NewBooking; pets: BookedPet[]; card: SavedCardRef | null; sitterFree: boolean }
  /** A series' days or time changed, or it ended: an occurrence it no longer has ends, everything given back. */
  | { type: "series-changed" }
  | { type: "card-saved"; cardRef: string; cardLabel: string }
  | { type: "card-failed"; error: string }
  | { type: "hold-placed"; holdRef: string }
  | { type: "hold-failed"; error: string }
  | { type: "hold-due" }
  | { type: "task-failed"; task: PaymentTask | "refund"; error: string }
  | { type: "accept" }
  | { type: "decline" }
  | { type: "cancel"; reason: string }
  | { type: "start" }
  | { type: "finish" }
  | { type: "release" }
  /** The hold was captured; for a charged stay, the sitter's part paid out (`payoutRef`) and the rest refunded. */
  | { type: "captured"; payoutRef?: string }
  | { type: "voided" }
  | { type: "expire" }
  | { type: "slot-taken" }
  /** The processor cancelled a hold (a void we asked for, or one that lapsed after about 7 days). */
  | { type: "hold-cancelled"; holdRef: string }
  /** The processor paid the whole captured amount back (a refund made in its dashboard). */
  | { type: "refunded" }
  | { type: "disputed" }
  /** The person on side `party` was suspended or deleted their account: what has not finished ends, money back. */
  | { type: "account-closed"; party: Party; closure: AccountClosure }
  /** The owner reports a problem with a completed visit before the payment is released: the release waits. */
  | { type: "report-problem" }
  | { type: "resolve-dispute"; settlement: Settlement }
  /** The operator gives money back: from a hold not yet taken, or from a payment already released. */
  | { type: "operator-refund"; amountCents: number }
  /** The provider confirmed the operator's refund. */
  | { type: "refund-done" }
  | { type: "sitter-cancel"; reason: string };

export interface Change {
  create?: NewBooking &
    Pick<Booking, "service_type" | "subtotal_cents" | "fee_cents" | "total_cents" | "payment_mode"> &
    Partial<
      Pick<
        Booking,
        | "status"
        | "payment_status"
        | "card_ref"
        | "card_label"
        | "hold_due_at"
        | "confirmed_at"
        | "cancelled_by"
        | "cancel_reason"
        | "payment_error"
      >
    >;
  /** With `create`: the booked pets, in order. */
  pets?: BookedPet[];
  set: Partial<
    Pick<
      Booking,
      | "status"
      | "payment_status"
      | "payment_task"
      | "payment_task_attempts"
      | "card_ref"
      | "card_label"
      | "hold_ref"
      | "hold_due_at"
      | "payment_error"
      | "cancel_reason"
      | "cancelled_by"
      | "confirmed_at"
      | "completed_at"
      | "released_at"
      | "disputed_at"
      | "problem_reported_at"
      | "problem_resolved_at"
      | "capture_cents"
      | "refund_due_cents"
      | "refunded_cents"
      | "payout_ref"
    >
  >;
  notify: { to: Party; message: NoticeKind }[];
  freeSlot?: boolean;
  bookSlot?: boolean;
}

export type NoticeKind =
  | "requested"
  | "accepted"
  | "declined"
  | "cancelledByOwner"
  | "cancelledPayment"
  | "expired"
  | "started"
  | "completed"
  | "released"
  | "holdFailed"
  | "slotTaken"
  | "unanswered"
  | "accountClosed"
  | "problemReported"
  | "disputeReleased"
  | "disputePartlyRefunded"
  | "disputeRefunded"
  | "operatorRefunded"
  | "cancelledBySitter"
  /** An occurrence of weekly care fell on a day the sitter is not free: skipped. */
  | "notFree";

export type Refusal =
  | "notYours"
  | "wrongState"
  | "notPaid"
  | "alreadyStarted"
  | "tooEarly"
  | "reasonRequired"
  | "reasonTooLong"
  | "paymentPending"
  | "alreadyReported"
  | "alreadyReleased"
  | "tooLate"
  | "inDispute"
  | "noOpenDispute"
  | "amountInvalid"
  | "amountTooHigh";

export type Decision = { ok: true; change: Change } | { ok: false; refusal: Refusal };

type BookingFacts = Pick<
  Booking,
  | "owner_id"
  | "sitter_id"
  | "status"
  | "payment_status"
  | "payment_task"
  | "card_ref"
  | "hold_ref"
  | "hold_due_at"
  | "start_at"
  | "end_at"
  | "completed_at"
  | "created_at"
> &
  Partial<
    Pick<
      Booking,
      | "disputed_at"
      | "payment_task_attempts"
      | "problem_reported_at"
      | "problem_resolved_at"
      | "capture_cents"
      | "refund_due_cents"
      | "refunded_cents"
      | "total_cents"
      | "cancellation_policy"
      | "payment_mode"
    >
  >;

const refuse = (refusal: Refusal): Decision => ({ ok: false, refusal });
const allow = (change: Change): Decision => ({ ok: true, change });

function isParty(booking: BookingFacts, actor: Actor, party: Party): boolean {
  return actor.kind === party && actor.userId === (party === "owner" ? booking.owner_id : booking.sitter_id);
}

export function isAuthorised(booking: Pick<Booking, "payment_status" | "card_ref" | "hold_due_at">): boolean {
  return (
    booking.payment_status === "held" ||
    (booking.payment_status === "unpaid" && booking.card_ref !== null && booking.hold_due_at !== null)
  );
}

const disputeOpen = (booking: BookingFacts) => Boolean(booking.problem_reported_at) && !booking.problem_resolved_at;
const refundPending = (booking: BookingFacts) =>
  booking.refund_due_cents !== null && booking.refund_due_cents !== undefined;
const validAmount = (cents: number) => Number.isSafeInteger(cents) && cents > 0;

/** A hold is settled by taking part of it (the rest goes back to the owner) or by giving it all back. */
function settleHold(booking: BookingFacts, refundCents: number): Change["set"] {
  const total = booking.total_cents ?? 0;
  if (refundCents >= total) return { payment_task: "void", payment_task_attempts: 0 };
  return { payment_task: "capture", capture_cents: total - refundCents, payment_task_attempts: 0 };
}

function giveBack(booking: BookingFacts): Pick<Change["set"], "payment_task"> {
  return booking.payment_status === "held" ? { payment_task: "void" } : {};
}

/**
 * An owner's cancellation under the booking's policy: the part the sitter keeps is captured from the
 * hold and the rest released; a card kept for a later hold is held now and then captured in part.
 */
function ownerCancelPayment(booking: BookingFacts, at: Date): Change["set"] {
  const kept = keptOnOwnerCancel({ ...booking, total_cents: booking.total_cents ?? 0 }, isAuthorised(booking), at);
  if (kept === 0) return giveBack(booking);
  if (booking.payment_status === "held")
    return { payment_task: "capture", capture_cents: kept, payment_task_attempts: 0 };
  return { payment_task: "hold", capture_cents: kept, payment_task_attempts: 0 };
}

export function decide(booking: BookingFacts | null, actor: Actor, event: BookingEvent, at: Date): Decision {
  if (event.type === "requested") return booking ? refuse("wrongState") : request(event.booking, event.pets, actor, at);
  if (event.type === "occurrence") return booking ? refuse("wrongState") : occurrence(event, actor, at);
  if (!booking) return refuse("wrongState");
  return decideChange(booking, actor, event, at);
}

function occurrence(event: Extract<BookingEvent, { type: "occurrence" }>, actor: Actor, at: Date): Decision {
  if (actor.kind !== "system") return refuse("notYours");
  if (!event.booking.series_id || !event.booking.series_day) return refuse("wrongState");
  const made = request(event.booking, event.pets, { kind: "owner", userId: event.booking.owner_id }, at);
  if (!made.ok) return made;
  const create = made.change.create!;
  if (!event.sitterFree)
    return allow({
      ...made.change,
      create: { ...create, status: "cancelled", cancelled_by: "system", cancel_reason: "notFree" },
      notify: [{ to: "owner", message: "notFree" }],
    });
  if (!event.card)
    return allow({
      ...made.change,
      create: {
        ...create,
        status: "cancelled",
        payment_status: "failed",
        payment_error: "no_card",
        cancelled_by: "system",
        cancel_reason: "payment",
      },
      notify: [
        { to: "owner", message: "holdFailed" },
        { to: "sitter", message: "cancelledPayment" },
      ],
    });
  const holdAt = Math.max(at.getTime(), new Date(create.start_at).getTime() - DELAYED_HOLD_BEFORE_MS);
  return allow({
    ...made.change,
    create: {
      ...create,
      // A day of day care ends within a hold's life when it is held two days before: held, like a walk.
      payment_mode: "hold",
      status: "confirmed",
      confirmed_at: at.toISOString(),
      card_ref: event.card.cardRef,
      card_label: event.card.cardLabel,
      hold_due_at: new Date(holdAt).toISOString(),
    },
  });
}

function request(booking: NewBooking, listed: BookedPet[] | undefined, actor: Actor, at: Date): Decision {
  if (actor.kind !== "owner" || actor.userId !== booking.owner_id || booking.sitter_id === booking.owner_id)
    return refuse("notYours");
  const service = booking.service_type ?? "hourly";
  if (!unitsAllowed(service, booking.hours)) return refuse("wrongState");
  if (!(new Date(booking.start_at).getTime() > at.getTime())) return refuse("alreadyStarted");
  const pets = listed ?? (booking.pet_id ? [{ id: booking.pet_id, name: booking.pet_name }] : []);
  const ids = new Set(pets.map((pet) => pet.id));
  if (pets.length < 1 || pets.length > MAX_PETS || ids.size !== pets.length || pets[0]!.id !== booking.pet_id)
    return refuse("wrongState");
  const extraPetCents = booking.extra_pet_cents ?? 0;
  if (!Number.isInteger(extraPetCents) || extraPetCents < 0) return refuse("wrongState");
  const price = priceOf(booking.hourly_rate_cents, booking.hours, pets.length, extraPetCents);
  // The sitter is told once the card is authorised, not now.
  return allow({
    pets,
    create: {
      ...booking,
      pet_name: pets[0]!.name,
      extra_pet_cents: extraPetCents,
      service_type: service,
      // Only a stay can outlast a card hold; a walk or a visit far ahead is held two days before, as by the hour.
      payment_mode: isStayService(service) ? paymentModeFor(booking.end_at, at) : "hold",
      subtotal_cents: price.subtotal,
      fee_cents: price.fee,
      total_cents: price.total,
    },
    set: {},
    notify: [],
  });
}

function decideChange(
  booking: BookingFacts,
  actor: Actor,
  event: Exclude<BookingEvent, { type: "requested" | "occurrence" }>,
  at: Date,
): Decision {
  const startsAt = new Date(booking.start_at).getTime();
  const endsAt = new Date(booking.end_at).getTime();
  const time = at.getTime();
  const owner = isParty(booking, actor, "owner");
  const sitter = isParty(booking, actor, "sitter");
  const system = actor.kind === "system";

  switch (event.type) {
    case "card-saved": {
      if (!owner) return refuse("notYours");
      if (booking.status !== "requested") return refuse("wrongState");
      if (booking.payment_status !== "unpaid" && booking.payment_status !== "failed") return refuse("wrongState");
      if (isAuthorised(booking)) return refuse("wrongState");
      if (booking.payment_task) return refuse("paymentPending");
      if (time >= startsAt) return refuse("alreadyStarted");
      const base = {
        card_ref: event.cardRef,
        card_label: event.cardLabel,
        payment_status: "unpaid" as PaymentStatus,
        payment_error: null,
      };
      // A stay longer than a hold lasts: the card is kept and charged when the stay starts; the sitter is told now.
      if (booking.payment_mode === "charge")
        return allow({
          set: { ...base, hold_due_at: booking.start_at },
          notify: [{ to: "sitter", message: "requested" }],
        });
      if (startsAt - time <= HOLD_NOW_WITHIN_MS)
        return allow({ set: { ...base, payment_task: "hold", hold_due_at: null }, notify: [] });
      // Too far ahead for a hold to last: the card is kept, the hold placed two days before, and the sitter told now.
      return allow({
        set: { ...base, hold_due_at: new Date(startsAt - DELAYED_HOLD_BEFORE_MS).toISOString() },
        notify: [{ to: "sitter", message: "requested" }],
      });
    }
    case "card-failed": {
      // Recorded so the payment page shows the failure; a card already kept or held stays as it is.
      if (!owner) return refuse("notYours");
      if (booking.status !== "requested" || booking.card_ref !== null) return refuse("wrongState");
      return allow({ set: { payment_status: "failed", payment_error: event.error }, notify: [] });
    }
    case "task-failed": {
      if (!system) return refuse("notYours");
      if (event.task === "refund") {
        if (!refundPending(booking)) return refuse("wrongState");
        return allow({
          set: { payment_task_attempts: (booking.payment_task_attempts ?? 0) + 1, payment_error: event.error },
          notify: [],
        });
      }
      if (!booking.payment_task || booking.payment_task !== event.task) return refuse("wrongState");
      return allow({
        set: { payment_task_attempts: (booking.payment_task_attempts ?? 0) + 1, payment_error: event.error },
        notify: [],
      });
    }
    case "hold-due": {
      if (!system) return refuse("notYours");
      if (booking.status !== "requested" && booking.status !== "confirmed") return refuse("wrongState");
      if (booking.payment_status !== "unpaid" || !booking.card_ref || !booking.hold_due_at || booking.payment_task)
        return refuse("wrongState");
      if (time < new Date(booking.hold_due_at).getTime()) return refuse("tooEarly");
      // A stay is charged only once the sitter has accepted it; an unanswered one lapses at its start.
      if (booking.payment_mode === "charge" && booking.status !== "confirmed") return refuse("wrongState");
      return allow({ set: { payment_task: "hold" }, notify: [] });
    }
    case "hold-placed": {
      if (!system) return refuse("notYours");
      if (booking.payment_task !== "hold") return refuse("wrongState");
      const first = booking.hold_due_at === null;
      // Cancelled while the hold was placed: given back, or the part the owner's cancellation left the sitter taken.
      if (booking.status === "cancelled")
        return allow({
          set: {
            payment_task: booking.capture_cents ? "capture" : "void",
            hold_ref: event.holdRef,
            payment_status: "held",
          },
          notify: [],
        });
      return allow({
        set: { payment_task: null, hold_ref: event.holdRef, payment_status: "held", hold_due_at: null },
        notify: first && booking.status === "requested" ? [{ to: "sitter", message: "requested" }] : [],
      });
    }
    case "hold-failed": {
      if (!system) return refuse("notYours");
      if (booking.payment_task !== "hold") return refuse("wrongState");
      // The hold for the part a cancellation left the sitter: nothing was taken, the booking stays cancelled.
      if (booking.status === "cancelled")
        return allow({
          set: { payment_task: null, payment_status: "failed", payment_error: event.error, capture_cents: null },
          notify: [],
        });
      if (booking.hold_due_at === null) {
        return allow({
          set: {
            payment_task: null,
            payment_status: "failed",
            card_ref: null,
            card_label: null,
            payment_error: event.error,
          },
          notify: [],
        });
      }
      return allow({
        set: {
          payment_task: null,
          payment_status: "failed",
          payment_error: event.error,
          status: "cancelled",
          cancelled_by: "system",
          cancel_reason: "payment",
        },
        notify: [
          { to: "owner", message: "holdFailed" },
          { to: "sitter", message: "cancelledPayment" },
        ],
        freeSlot: booking.status === "confirmed",
      });
    }
    case "accept": {
      if (!sitter) return refuse("notYours");
      if (booking.status !== "requested") return refuse("wrongState");
      if (time >= startsAt) return refuse("alreadyStarted");
      if (!isAuthorised(booking) || booking.payment_task) return refuse("notPaid");
      return allow({
        set: { status: "confirmed", confirmed_at: at.toISOString() },
        notify: [{ to: "owner", message: "accepted" }],
        bookSlot: true,
      });
    }
    case "decline": {
      if (!sitter) return refuse("notYours");
      if (booking.status !== "requested") return refuse("wrongState");
      return allow({
        set: { status: "cancelled", cancelled_by: "sitter", ...giveBack(booking) },
        notify: [{ to: "owner", message: "declined" }],
      });
    }
    case "cancel": {
      if (!owner) return refuse("notYours");
      if (booking.status !== "requested" && booking.status !== "confirmed") return refuse("wrongState");
      if (time >= startsAt) return refuse("alreadyStarted");
      if (booking.payment_task === "capture" || booking.payment_task === "void") return refuse("paymentPending");
      const reason = event.reason.trim();
      if (!reason) return refuse("reasonRequired");
      if (reason.length > CANCEL_REASON_MAX) return refuse("reasonTooLong");
      return allow({
        set: { status: "cancelled", cancelled_by: "owner", cancel_reason: reason, ...ownerCancelPayment(booking, at) },
        notify: [{ to: "sitter", message: "cancelledByOwner" }],
        freeSlot: booking.status === "confirmed",
      });
    }
    case "expire": {
      // An unpaid request lapses after 15 minutes; a paid one the sitter never answered lapses at its start, hold given back.
      if (!system) return refuse("notYours");
      if (booking.status !== "requested" || booking.payment_task) return refuse("wrongState");
      if (isAuthorised(booking)) {
        if (time < startsAt) return refuse("tooEarly");
        return allow({
          set: { status: "cancelled", cancelled_by: "system", cancel_reason: "unanswered", ...giveBack(booking) },
          notify: [
            { to: "owner", message: "unanswered" },
            { to: "sitter", message: "unanswered" },
          ],
        });
      }
      if (time < new Date(booking.created_at).getTime() + UNPAID_REQUEST_TTL_MS) return refuse("tooEarly");
      return allow({
        set: { status: "cancelled", cancelled_by: "system", cancel_reason: "expired" },
        notify: [{ to: "owner", message: "expired" }],
      });
    }
    case "slot-taken": {
      if (!system) return refuse("notYours");
      if (booking.status !== "requested") return refuse("wrongState");
      return allow({
        set: { status: "cancelled", cancelled_by: "system", cancel_reason: "slotTaken", ...giveBack(booking) },
        notify: [{ to: "owner", message: "slotTaken" }],
      });
    }
    case "start": {
      if (!system) return refuse("notYours");
      if (booking.status !== "confirmed") return refuse("wrongState");
      if (time < startsAt) return refuse("tooEarly");
      return allow({ set: { status: "in-progress" }, notify: [{ to: "owner", message: "started" }] });
    }
    case "finish": {
      if (!sitter && !system) return refuse("notYours");
      if (booking.status !== "in-progress" && booking.status !== "confirmed") return refuse("wrongState");
      if (time < (system ? endsAt : startsAt)) return refuse("tooEarly");
      return allow({
        set: { status: "completed", completed_at: at.toISOString() },
        notify: [{ to: "owner", message: "completed" }],
      });
    }
    case "release": {
      const automatic =
        system &&
        booking.completed_at !== null &&
        time >= new Date(booking.completed_at).getTime() + AUTO_RELEASE_AFTER_MS;
      if (!owner && !automatic) return refuse(system ? "tooEarly" : "notYours");
      if (booking.status !== "completed") return refuse("wrongState");
      if (booking.payment_task) return refuse("paymentPending");
      if (booking.payment_status !== "held") return refuse("wrongState");
      if (disputeOpen(booking)) return refuse("inDispute");
      return allow({ set: { payment_task: "capture" }, notify: [] });
    }
    case "captured": {
      if (!system) return refuse("notYours");
      if (booking.payment_task !== "capture") return refuse("wrongState");
      // A partial capture gives the rest of the hold back to the owner.
      const givenBack =
        booking.capture_cents != null ? { refunded_cents: (booking.total_cents ?? 0) - booking.capture_cents } : {};
      return allow({
        set: {
          payment_task: null,
          payment_status: "released",
          released_at: at.toISOString(),
          ...givenBack,
          ...(event.payoutRef ? { payout_ref: event.payoutRef } : {}),
        },
        notify: [{ to: "sitter", message: "released" }],
      });
    }
    case "voided": {
      if (!system) return refuse("notYours");
      if (booking.payment_task !== "void") return refuse("wrongState");
      return allow({ set: { payment_task: null, payment_status: "refunded" }, notify: [] });
    }
    case "hold-cancelled": {
      if (!system) return refuse("notYours");
      if (!booking.hold_ref || booking.hold_ref !== event.holdRef) return refuse("wrongState");
      // The void we asked for, confirmed by the processor before our own call came back.
      if (booking.payment_task === "void")
        return allow({ set: { payment_task: null, payment_status: "refunded" }, notify: [] });
      if (booking.payment_status !== "held" || booking.payment_task) return refuse("wrongState");
      if (booking.status === "requested" || booking.status === "confirmed") {
        // The hold lapsed before the booking began: it cannot go ahead unpaid; both sides are told.
        return allow({
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
          freeSlot: booking.status === "confirmed",
        });
      }
      // The service happened or is happening: the money is no longer held; the operator settles it.
      return allow({ set: { payment_status: "failed", payment_error: "hold_cancelled" }, notify: [] });
    }
    case "refunded": {
      if (!system) return refuse("notYours");
      if (booking.payment_status !== "released" || booking.payment_task || refundPending(booking))
        return refuse("wrongState");
      return allow({ set: { payment_status: "refunded" }, notify: [] });
    }
    case "account-closed": {
      if (!system && actor.kind !== "operator") return refuse("notYours");
      if (booking.status !== "requested" && booking.status !== "confirmed" && booking.status !== "in-progress")
        return refuse("wrongState");
      // A hold being placed is voided when it lands ("hold-placed" on a cancelled booking); a capture or void already under way finishes first.
      if (booking.payment_task && booking.payment_task !== "hold") return refuse("paymentPending");
      const other: Party = event.party === "owner" ? "sitter" : "owner";
      return allow({
        set: { status: "cancelled", cancelled_by: "system", cancel_reason: "accountClosed", ...giveBack(booking) },
        notify: [{ to: other, message: "accountClosed" }],
        freeSlot: booking.status !== "requested",
      });
    }
    case "report-problem": {
      if (!owner) return refuse("notYours");
      if (booking.status !== "completed") return refuse("wrongState");
      if (booking.problem_reported_at) return refuse("alreadyReported");
      if (booking.payment_status !== "held" || booking.payment_task) return refuse("alreadyReleased");
      if (!booking.completed_at || time >= new Date(booking.completed_at).getTime() + PROBLEM_WINDOW_MS)
        return refuse("tooLate");
      return allow({
        set: { problem_reported_at: at.toISOString() },
        notify: [{ to: "sitter", message: "problemReported" }],
      });
    }
    case "resolve-dispute": {
      if (actor.kind !== "operator") return refuse("notYours");
      if (!disputeOpen(booking)) return refuse("noOpenDispute");
      if (booking.payment_task) return refuse("paymentPending");
      if (booking.status !== "completed" || booking.payment_status !== "held") return refuse("wrongState");
      const resolved = { problem_resolved_at: at.toISOString() };
      const both = (message: NoticeKind): Change["notify"] => [
        { to: "owner", message },
        { to: "sitter", message },
      ];
      const { settlement } = event;
      if (settlement.kind === "release")
        return allow({
          set: { ...resolved, payment_task: "capture", payment_task_attempts: 0 },
          notify: both("disputeReleased"),
        });
      if (settlement.kind === "refund")
        return allow({
          set: { ...resolved, ...settleHold(booking, booking.total_cents ?? 0) },
          notify: both("disputeRefunded"),
        });
      if (!validAmount(settlement.refundCents)) return refuse("amountInvalid");
      if (settlement.refundCents > (booking.total_cents ?? 0)) return refuse("amountTooHigh");
      const full = settlement.refundCents === booking.total_cents;
      return allow({
        set: { ...resolved, ...settleHold(booking, settlement.refundCents) },
        notify: both(full ? "disputeRefunded" : "disputePartlyRefunded"),
      });
    }
    case "operator-refund": {
      if (actor.kind !== "operator") return refuse("notYours");
      if (!validAmount(event.amountCents)) return refuse("amountInvalid");
      if (booking.status !== "completed") return refuse("wrongState");
      if (booking.payment_task || refundPending(booking)) return refuse("paymentPending");
      if (disputeOpen(booking)) return refuse("inDispute");
      const total = booking.total_cents ?? 0;
      const notify: Change["notify"] = [
        { to: "owner", message: "operatorRefunded" },
        { to: "sitter", message: "operatorRefunded" },
      ];
      if (booking.payment_status === "held") {
        if (event.amountCents > total) return refuse("amountTooHigh");
        return allow({ set: settleHold(booking, event.amountCents), notify });
      }
      if (booking.payment_status !== "released") return refuse("wrongState");
      if (event.amountCents > total - (booking.refunded_cents ?? 0)) return refuse("amountTooHigh");
      return allow({
        set: { refund_due_cents: event.amountCents, payment_task_attempts: 0, payment_error: null },
        notify,
      });
    }
    case "refund-done": {
      if (!system) return refuse("notYours");
      if (!refundPending(booking)) return refuse("wrongState");
      const refunded = (booking.refunded_cents ?? 0) + booking.refund_due_cents!;
      return allow({
        set: {
          refund_due_cents: null,
          refunded_cents: refunded,
          payment_status: refunded >= (booking.total_cents ?? 0) ? "refunded" : "released",
          payment_error: null,
          payment_task_attempts: 0,
        },
        notify: [],
      });
    }
    case "series-changed": {
      if (!system) return refuse("notYours");
      if (booking.status !== "requested" && booking.status !== "confirmed") return refuse("wrongState");
      if (time >= startsAt) return refuse("alreadyStarted");
      if (booking.payment_task === "capture" || booking.payment_task === "void") return refuse("paymentPending");
      return allow({
        set: { status: "cancelled", cancelled_by: "system", cancel_reason: "seriesChanged", ...giveBack(booking) },
        notify: [],
        freeSlot: booking.status === "confirmed",
      });
    }
    case "sitter-cancel": {
      if (!sitter) return refuse("notYours");
      if (booking.status !== "confirmed") return refuse("wrongState");
      if (time >= startsAt) return refuse("alreadyStarted");
      const reason = event.reason.trim();
      if (!reason) return refuse("reasonRequired");
      if (reason.length > CANCEL_REASON_MAX) return refuse("reasonTooLong");
      return allow({
        set: { status: "cancelled", cancelled_by: "sitter", cancel_reason: reason, ...giveBack(booking) },
        notify: [{ to: "owner", message: "cancelledBySitter" }],
        freeSlot: true,
      });
    }
    case "disputed": {
      if (!system) return refuse("notYours");
      if (booking.disputed_at) return refuse("wrongState");
      if (
        booking.payment_status !== "held" &&
        booking.payment_status !== "released" &&
        booking.payment_status !== "refunded"
      )
        return refuse("wrongState");
      return allow({ set: { disputed_at: at.toISOString() }, notify: [] });
    }
  }
}

export const BOOKING_TABS = {
  all: null,
  pending: ["requested"],
  accepted: ["confirmed", "in-progress"],
  completed: ["completed"],
} as const satisfies Record<string, readonly BookingStatus[] | null>;

export type { PaymentTask };
