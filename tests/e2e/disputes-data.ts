import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { databaseFile } from "./data-dir";

// Bookings that finished (or were confirmed) earlier, made here rather than by moving the server's
// clock, which only the clock tests may do. The hold is a real one of the offline test provider.
function open() {
  const database = new Database(databaseFile);
  database.pragma("busy_timeout = 5000");
  return database;
}

const HOUR = 3600_000;

export function idOf(email: string): string {
  const database = open();
  try {
    return (database.prepare("select id from users where email = ?").get(email) as { id: string }).id;
  } finally {
    database.close();
  }
}

export function makeOperator(email: string) {
  const database = open();
  try {
    database.prepare("update users set is_admin = 1 where email = ?").run(email);
  } finally {
    database.close();
  }
}

/** A booking of `hours` (2 unless told) at 15 €/h (36 € held for 2 h): completed an hour before `now`, or confirmed to start two days after it. */
export function heldBooking(
  ownerEmail: string,
  sitterEmail: string,
  now: string,
  state: "completed" | "confirmed",
  petName = "Rex",
  hours = 2,
): { bookingId: string; holdRef: string } {
  const database = open();
  try {
    const owner = idOf(ownerEmail);
    const sitter = idOf(sitterEmail);
    const at = new Date(now).getTime();
    const start = state === "completed" ? at - (hours + 1) * HOUR : at + 48 * HOUR;
    const end = start + hours * HOUR;
    const subtotal = hours * 1500;
    const fee = Math.round(subtotal * 0.2);
    const iso = (ms: number) => new Date(ms).toISOString();
    const bookingId = randomUUID();
    const holdRef = `test_hold_${randomUUID()}`;
    database.transaction(() => {
      database
        .prepare(
          "insert into test_payments (ref, kind, amount_cents, card_last4, status, created_at) values (?, 'hold', ?, '4242', 'held', ?)",
        )
        .run(holdRef, subtotal + fee, iso(start - 24 * HOUR));
      database
        .prepare(
          `insert into bookings (id, owner_id, sitter_id, pet_id, pet_name, start_at, end_at, hours, hourly_rate_cents, subtotal_cents, fee_cents, total_cents,
             status, payment_status, payment_provider, card_ref, card_label, hold_ref, confirmed_at, completed_at, created_at, updated_at)
           values (?, ?, ?, null, ?, ?, ?, ?, 1500, ?, ?, ?, ?, 'held', 'test', 'test_card_e2e', 'Visa •••• 4242', ?, ?, ?, ?, ?)`,
        )
        .run(
          bookingId,
          owner,
          sitter,
          petName,
          iso(start),
          iso(end),
          hours,
          subtotal,
          fee,
          subtotal + fee,
          state,
          holdRef,
          iso(start - 20 * HOUR),
          state === "completed" ? iso(at - HOUR) : null,
          iso(start - 24 * HOUR),
          iso(at - HOUR),
        );
    })();
    return { bookingId, holdRef };
  } finally {
    database.close();
  }
}

export function paymentOf(bookingId: string) {
  const database = open();
  try {
    return database
      .prepare(
        "select b.payment_status, b.refunded_cents, b.status, t.status as provider_status, t.amount_cents as provider_amount from bookings b join test_payments t on t.ref = b.hold_ref where b.id = ?",
      )
      .get(bookingId) as {
      payment_status: string;
      refunded_cents: number;
      status: string;
      provider_status: string;
      provider_amount: number;
    };
  } finally {
    database.close();
  }
}

/** `count` reviews of the person, a day apart (the newest first says "Review {count}"), each from a placeholder reviewer. */
export function reviewsOf(reviewedEmail: string, bookingId: string, count: number, now: string) {
  const database = open();
  try {
    const reviewed = idOf(reviewedEmail);
    const insertUser = database.prepare(
      "insert into users (id, email, password_hash, email_verified_at, name, phone, city, postal_code, role, bio, created_at, updated_at) values (?, ?, 'x', null, ?, '', '', '', 'owner', '', ?, ?)",
    );
    const insertReview = database.prepare(
      "insert into reviews (id, booking_id, reviewer_id, reviewed_id, rating, comment, created_at) values (?, ?, ?, ?, ?, ?, ?)",
    );
    database.transaction(() => {
      for (let index = 1; index <= count; index += 1) {
        const reviewer = randomUUID();
        const at = new Date(new Date(now).getTime() - (count - index + 1) * 24 * HOUR).toISOString();
        insertUser.run(reviewer, `${reviewer}@placeholder.example.com`, `Reviewer ${index}`, at, at);
        insertReview.run(randomUUID(), bookingId, reviewer, reviewed, 1 + (index % 5), `Review ${index}`, at);
      }
    })();
  } finally {
    database.close();
  }
}

export function hideReview(comment: string) {
  const database = open();
  try {
    database.prepare("update reviews set hidden_at = ? where comment = ?").run(new Date().toISOString(), comment);
  } finally {
    database.close();
  }
}
