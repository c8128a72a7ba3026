import { sql, type Expression } from "kysely";
import type { PlanInterval } from "~db/schema";
import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { bookingMoney } from "~/features/bookings";

export const OVERVIEW_DAYS = 30;
export const METRICS = [
  "signups",
  "matches",
  "requests",
  "confirmed",
  "completed",
  "grossCents",
  "feeCents",
  "refunds",
  "premium",
  "mrrCents",
] as const;
export type Metric = (typeof METRICS)[number];
export const MONEY_METRICS: readonly Metric[] = ["grossCents", "feeCents", "mrrCents"];

export interface Overview {
  days: string[];
  series: Record<Metric, number[]>;
}

const MONTHS: Record<PlanInterval, number> = { month: 1, "6months": 6, year: 12 };

/** The last 30 UTC days, oldest first, as YYYY-MM-DD. */
export function lastDays(at: Date, count = OVERVIEW_DAYS): string[] {
  const today = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  return Array.from({ length: count }, (_, i) =>
    new Date(today - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

type DayTotals = { day: string; total: number | string | null }[];

function spread(days: string[], rows: DayTotals): number[] {
  const byDay = new Map(rows.map((row) => [row.day, Number(row.total ?? 0)]));
  return days.map((day) => byDay.get(day) ?? 0);
}

const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/** Counts (or sums of `sum`) per day of `column` in `table`, for rows that match `where`. */
async function perDay(
  table: "users" | "matches" | "bookings",
  column: string,
  since: string,
  { sum, where }: { sum?: string; where?: Expression<boolean> } = {},
): Promise<DayTotals> {
  let query = db
    .selectFrom(table)
    .select([dayOf(column).as("day"), (sum ? sql<number>`sum(${sql.ref(sum)})` : sql<number>`count(*)`).as("total")])
    .where(sql.ref(column), ">=", since);
  if (where) query = query.where(where);
  return (await query.groupBy("day").execute()) as DayTotals;
}

/** The platform's fee of the payments released each day, as it stands after any refund since. */
async function feesPerDay(since: string): Promise<DayTotals> {
  const released = await db
    .selectFrom("bookings")
    .select([
      "released_at",
      "status",
      "total_cents",
      "payment_status",
      "payment_task",
      "capture_cents",
      "refund_due_cents",
      "refunded_cents",
    ])
    .where("released_at", ">=", since)
    .execute();
  const byDay = new Map<string, number>();
  for (const booking of released) {
    const day = booking.released_at!.slice(0, 10);
    byDay.set(day, (byDay.get(day) ?? 0) + bookingMoney(booking).platformFeeCents);
  }
  return [...byDay].map(([day, total]) => ({ day, total }));
}

/** Every figure per day for the last 30 days, each from its own query on the real tables. */
export async function overview(at: Date = now()): Promise<Overview> {
  const days = lastDays(at);
  const since = `${days[0]}T00:00:00.000Z`;
  const [signups, matches, requests, confirmed, completed, gross, fees, refunds, subscriptions] = await Promise.all([
    perDay("users", "created_at", since),
    perDay("matches", "created_at", since),
    perDay("bookings", "created_at", since),
    perDay("bookings", "confirmed_at", since),
    perDay("bookings", "completed_at", since),
    perDay("bookings", "confirmed_at", since, { sum: "total_cents" }),
    feesPerDay(since),
    perDay("bookings", "updated_at", since, { where: sql<boolean>`payment_status = 'refunded'` }),
    db
      .selectFrom("subscriptions as s")
      .innerJoin("subscription_plans as p", "p.id", "s.plan_id")
      .select(["s.current_period_start", "s.ended_at", "s.status", "p.price_cents", "p.interval"])
      .where("s.current_period_start", "is not", null)
      .where((eb) => eb.or([eb("s.ended_at", "is", null), eb("s.ended_at", ">=", since)]))
      .execute(),
  ]);
  // A member counts on a day if their paid subscription had started by its end and had not ended.
  const premium: number[] = [];
  const mrr: number[] = [];
  for (const day of days) {
    const end = `${day}T23:59:59.999Z`;
    const active = subscriptions.filter(
      (s) => s.current_period_start! <= end && (s.ended_at === null || s.ended_at > end) && s.status !== "incomplete",
    );
    premium.push(active.length);
    mrr.push(Math.round(active.reduce((total, s) => total + s.price_cents / MONTHS[s.interval], 0)));
  }
  return {
    days,
    series: {
      signups: spread(days, signups),
      matches: spread(days, matches),
      requests: spread(days, requests),
      confirmed: spread(days, confirmed),
      completed: spread(days, completed),
      grossCents: spread(days, gross),
      feeCents: spread(days, fees),
      refunds: spread(days, refunds),
      premium,
      mrrCents: mrr,
    },
  };
}
