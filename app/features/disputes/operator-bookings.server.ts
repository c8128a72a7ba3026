import { db, jsonObject } from "~/platform/db.server";
import { deliverSoon } from "~/platform/email.server";
import { recordAudit } from "~/platform/audit.server";
import { applyEvent, findBooking, runPaymentTasks } from "~/features/bookings/index.server";
import { bookingMoney, refusalKey } from "~/features/bookings";
import type { DisputeRefusal } from "./disputes.server";
import { moneyOf } from "./views.server";

export const BOOKINGS_PAGE_SIZE = 25;
const ID = /^[0-9a-f-]{8,36}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface BookingSearch {
  /** A booking id, or part of a person's name or email. */
  query: string;
  /** A calendar day (UTC) the booking starts on. */
  day: string;
  page: number;
}

/** Finds bookings by id, by a person's name or email (owner or sitter), and by the day they start. */
export async function findBookings({ query, day, page }: BookingSearch) {
  let search = db
    .selectFrom("bookings as b")
    .innerJoin("users as o", "o.id", "b.owner_id")
    .innerJoin("users as s", "s.id", "b.sitter_id")
    .select(["b.id", "b.pet_name", "b.start_at", "b.status", "o.name as owner_name", "s.name as sitter_name"])
    .select([
      "b.total_cents",
      "b.payment_status",
      "b.payment_task",
      "b.capture_cents",
      "b.refund_due_cents",
      "b.refunded_cents",
      "b.released_at",
    ]);
  const text = query.trim();
  if (text) {
    // LIKE's own wildcards in the query are matched literally.
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    search = search.where((eb) =>
      eb.or([
        ...(ID.test(text) ? [eb("b.id", "=", text.toLowerCase())] : []),
        eb(eb.fn("lower", ["o.name"]), "like", eb.val(pattern)).$castTo<boolean>(),
        eb(eb.fn("lower", ["o.email"]), "like", eb.val(pattern)).$castTo<boolean>(),
        eb(eb.fn("lower", ["s.name"]), "like", eb.val(pattern)).$castTo<boolean>(),
        eb(eb.fn("lower", ["s.email"]), "like", eb.val(pattern)).$castTo<boolean>(),
      ]),
    );
  }
  if (DAY.test(day)) {
    const from = new Date(`${day}T00:00:00.000Z`);
    if (!Number.isNaN(from.getTime())) {
      search = search
        .where("b.start_at", ">=", from.toISOString())
        .where("b.start_at", "<", new Date(from.getTime() + 24 * 3600_000).toISOString());
    }
  }
  const rows = await search
    .orderBy("b.start_at", "desc")
    .orderBy("b.id")
    .limit(BOOKINGS_PAGE_SIZE + 1)
    .offset((page - 1) * BOOKINGS_PAGE_SIZE)
    .execute();
  const bookings = rows.slice(0, BOOKINGS_PAGE_SIZE).map((row) => ({
    id: row.id,
    pet_name: row.pet_name,
    start_at: row.start_at,
    status: row.status,
    payment_status: row.payment_status,
    owner_name: row.owner_name,
    sitter_name: row.sitter_name,
    money: bookingMoney(row),
  }));
  return { bookings, hasMore: rows.length > BOOKINGS_PAGE_SIZE };
}

/** A booking for the operator: both people, the money, every transition and who made it, and its dispute. */
export async function bookingForOperator(bookingId: string) {
  const booking = await findBooking(bookingId);
  if (!booking) return null;
  const people = await db
    .selectFrom("users")
    .select(["id", "name", "email"])
    .where("id", "in", [booking.owner_id, booking.sitter_id])
    .execute();
  const personOf = (id: string) => people.find((person) => person.id === id) ?? { id, name: "", email: "" };
  const history = await db
    .selectFrom("booking_history as h")
    .leftJoin("users as u", "u.id", "h.actor_id")
    .select([
      "h.id",
      "h.event",
      "h.actor_kind",
      "h.status_from",
      "h.status_to",
      "h.payment_from",
      "h.payment_to",
      "h.detail",
      "h.created_at",
      "u.name as actor_name",
    ])
    .where("h.booking_id", "=", bookingId)
    .orderBy("h.id")
    .execute();
  const dispute = await db
    .selectFrom("disputes")
    .select(["id", "status"])
    .where("booking_id", "=", bookingId)
    .executeTakeFirst();
  return {
    booking: {
      id: booking.id,
      petName: booking.pet_name,
      status: booking.status,
      startAt: booking.start_at,
      endAt: booking.end_at,
      hours: booking.hours,
      cancelReason: booking.cancel_reason,
      cancelledBy: booking.cancelled_by,
      cardLabel: booking.card_label,
      paymentError: booking.payment_error,
      owner: personOf(booking.owner_id),
      sitter: personOf(booking.sitter_id),
    },
    money: moneyOf(booking),
    history: history.map((row) => ({ ...row, detail: detailOf(row.detail) })),
    dispute: dispute ?? null,
  };
}

/** Only the fields the page shows, from the JSON the machine's writer stored. */
function detailOf(json: string): { reason?: string; amountCents?: number; refundCents?: number; settlement?: string } {
  try {
    const value = jsonObject.read(json);
    return {
      ...(typeof value.reason === "string" ? { reason: value.reason } : {}),
      ...(typeof value.amountCents === "number" ? { amountCents: value.amountCents } : {}),
      ...(typeof value.refundCents === "number" ? { refundCents: value.refundCents } : {}),
      ...(typeof value.settlement === "string" ? { settlement: value.settlement } : {}),
    };
  } catch {
    return {};
  }
}

/** The operator refunds part or all of a booking's payment (a hold or a released payment), with a reason; audited. */
export async function refundBooking(
  operatorId: string,
  bookingId: string,
  input: { amountCents: number; note: string },
): Promise<{ ok: true } | DisputeRefusal> {
  const outcome = await db.transaction().execute(async (trx): Promise<{ ok: true } | DisputeRefusal> => {
    const applied = await applyEvent(
      trx,
      bookingId,
      { kind: "operator", userId: operatorId },
      { type: "operator-refund", amountCents: input.amountCents },
    );
    if (!applied.ok)
      return applied.refusal === "notFound"
        ? { ok: false, notFound: true }
        : { ok: false, message: refusalKey(applied.refusal) };
    await recordAudit(trx, {
      operatorId,
      action: "booking.refund",
      subjectType: "booking",
      subjectId: bookingId,
      reason: input.note,
      details: { amountCents: input.amountCents, paymentStatus: applied.booking.payment_status },
    });
    return { ok: true };
  });
  if (outcome.ok) {
    deliverSoon();
    await runPaymentTasks([bookingId]);
  }
  return outcome;
}
