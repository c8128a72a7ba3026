import { sql, type Selectable } from "kysely";
import type { UsersTable } from "~db/schema";
import { db, flag } from "~/platform/db.server";
import { bookingMoney, type BookingMoney } from "~/features/bookings";
import { listReports, type QueuedReport } from "./reports.server";

export const SEARCH_MAX = 100;

export interface PersonRow {
  id: string;
  name: string;
  email: string;
  role: string;
  isAdmin: boolean;
  suspended: boolean;
  /** Erased at their own request: only the "Deleted member" row kept for accounting, shown as such. */
  deleted: boolean;
  createdAt: string;
}

const likeEscaped = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** By name or email, case-insensitive; an empty search lists the newest members. */
export async function searchPeople(text: string, limit = 50): Promise<PersonRow[]> {
  const term = text.trim().slice(0, SEARCH_MAX).toLowerCase();
  let query = db
    .selectFrom("users")
    .select(["id", "name", "email", "role", "is_admin", "suspended_at", "deleted_at", "created_at"]);
  if (term) {
    const pattern = likeEscaped(term);
    query = query.where(
      sql<boolean>`(lower(name) like ${pattern} escape '\\' or lower(email) like ${pattern} escape '\\')`,
    );
  }
  const rows = await query.orderBy("created_at", "desc").orderBy("id").limit(limit).execute();
  return rows.map(personRowOf);
}

type UserColumns = Pick<
  Selectable<UsersTable>,
  "id" | "name" | "email" | "role" | "is_admin" | "suspended_at" | "deleted_at" | "created_at"
>;

const personRowOf = (row: UserColumns): PersonRow => ({
  id: row.id,
  name: row.name,
  // A deleted member's address is a placeholder, not a way to reach anyone.
  email: row.deleted_at ? "" : row.email,
  role: row.role,
  isAdmin: flag.read(row.is_admin),
  suspended: Boolean(row.suspended_at),
  deleted: Boolean(row.deleted_at),
  createdAt: row.created_at,
});

export interface PersonDetail {
  person: PersonRow & {
    city: string;
    suspendedAt: string | null;
    suspensionReason: string | null;
    emailConfirmed: boolean;
  };
  bookings: {
    id: string;
    as: "owner" | "sitter";
    otherName: string;
    petName: string;
    startAt: string;
    status: string;
    paymentStatus: string;
    money: BookingMoney;
  }[];
  reportsReceived: QueuedReport[];
  reportsMade: {
    id: string;
    subjectType: string;
    reason: string;
    status: string;
    createdAt: string;
    reportedName: string;
  }[];
  blocksMade: { userId: string; name: string; at: string }[];
  blockedBy: { userId: string; name: string; at: string }[];
  reviews: {
    id: string;
    given: boolean;
    otherName: string;
    rating: number;
    comment: string;
    hidden: boolean;
    createdAt: string;
  }[];
  subscriptions: { id: string; plan: string; status: string; periodEnd: string | null; createdAt: string }[];
  subscriptionPayments: { id: string; amountCents: number; status: string; createdAt: string }[];
}

const LIST = 50;

export async function personDetail(userId: string): Promise<PersonDetail | null> {
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!user) return null;
  const [
    bookings,
    reportsReceived,
    reportsMade,
    blocksMade,
    blockedBy,
    reviews,
    subscriptions,
    payments,
    openReceived,
  ] = await Promise.all([
    db
      .selectFrom("bookings as b")
      .innerJoin("users as o", "o.id", "b.owner_id")
      .innerJoin("users as s", "s.id", "b.sitter_id")
      .select([
        "b.id",
        "b.owner_id",
        "o.name as owner_name",
        "s.name as sitter_name",
        "b.pet_name",
        "b.start_at",
        "b.status",
        "b.payment_status",
      ])
      .select([
        "b.total_cents",
        "b.payment_task",
        "b.capture_cents",
        "b.refund_due_cents",
        "b.refunded_cents",
        "b.released_at",
      ])
      .where((eb) => eb.or([eb("b.owner_id", "=", userId), eb("b.sitter_id", "=", userId)]))
      .orderBy("b.start_at", "desc")
      .limit(LIST)
      .execute(),
    listReports("closed", { reportedUserId: userId, limit: LIST }),
    db
      .selectFrom("reports as r")
      .innerJoin("users as u", "u.id", "r.reported_user_id")
      .select(["r.id", "r.subject_type", "r.reason", "r.status", "r.created_at", "u.name"])
      .where("r.reporter_id", "=", userId)
      .orderBy("r.created_at", "desc")
      .limit(LIST)
      .execute(),
    db
      .selectFrom("blocks as b")
      .innerJoin("users as u", "u.id", "b.blocked_id")
      .select(["u.id", "u.name", "b.created_at"])
      .where("b.blocker_id", "=", userId)
      .limit(LIST)
      .execute(),
    db
      .selectFrom("blocks as b")
      .innerJoin("users as u", "u.id", "b.blocker_id")
      .select(["u.id", "u.name", "b.created_at"])
      .where("b.blocked_id", "=", userId)
      .limit(LIST)
      .execute(),
    db
      .selectFrom("reviews as r")
      .innerJoin("users as by", "by.id", "r.reviewer_id")
      .innerJoin("users as of", "of.id", "r.reviewed_id")
      .select([
        "r.id",
        "r.reviewer_id",
        "by.name as reviewer_name",
        "of.name as reviewed_name",
        "r.rating",
        "r.comment",
        "r.hidden_at",
        "r.created_at",
      ])
      .where((eb) => eb.or([eb("r.reviewer_id", "=", userId), eb("r.reviewed_id", "=", userId)]))
      .orderBy("r.created_at", "desc")
      .limit(LIST)
      .execute(),
    db
      .selectFrom("subscriptions as s")
      .innerJoin("subscription_plans as p", "p.id", "s.plan_id")
      .select(["s.id", "p.name", "s.status", "s.current_period_end", "s.created_at"])
      .where("s.user_id", "=", userId)
      .orderBy("s.created_at", "desc")
      .limit(10)
      .execute(),
    db
      .selectFrom("subscription_payments")
      .select(["id", "amount_cents", "status", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .limit(LIST)
      .execute(),
    listReports("open", { reportedUserId: userId, limit: LIST }),
  ]);
  return {
    person: {
      ...personRowOf(user),
      city: user.city,
      suspendedAt: user.suspended_at,
      suspensionReason: user.suspension_reason,
      emailConfirmed: Boolean(user.email_verified_at),
    },
    bookings: bookings.map((b) => ({
      id: b.id,
      as: b.owner_id === userId ? "owner" : "sitter",
      otherName: b.owner_id === userId ? b.sitter_name : b.owner_name,
      petName: b.pet_name,
      startAt: b.start_at,
      status: b.status,
      paymentStatus: b.payment_status,
      money: bookingMoney(b),
    })),
    reportsReceived: [...openReceived, ...reportsReceived],
    reportsMade: reportsMade.map((r) => ({
      id: r.id,
      subjectType: r.subject_type,
      reason: r.reason,
      status: r.status,
      createdAt: r.created_at,
      reportedName: r.name,
    })),
    blocksMade: blocksMade.map((b) => ({ userId: b.id, name: b.name, at: b.created_at })),
    blockedBy: blockedBy.map((b) => ({ userId: b.id, name: b.name, at: b.created_at })),
    reviews: reviews.map((r) => ({
      id: r.id,
      given: r.reviewer_id === userId,
      otherName: r.reviewer_id === userId ? r.reviewed_name : r.reviewer_name,
      rating: r.rating,
      comment: r.comment,
      hidden: Boolean(r.hidden_at),
      createdAt: r.created_at,
    })),
    subscriptions: subscriptions.map((s) => ({
      id: s.id,
      plan: s.name,
      status: s.status,
      periodEnd: s.current_period_end,
      createdAt: s.created_at,
    })),
    subscriptionPayments: payments.map((p) => ({
      id: p.id,
      amountCents: p.amount_cents,
      status: p.status,
      createdAt: p.created_at,
    })),
  };
}
