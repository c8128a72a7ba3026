import { db } from "~/platform/db.server";
import { now } from "~/platform/clock.server";
import { numberFormat } from "~/platform/format";

const DAY_MS = 24 * 3600_000;
/** Response time and acceptance come from the requests of the last 90 days. */
export const RELIABILITY_WINDOW_MS = 90 * DAY_MS;
/** Repeat clients come from the care given in the last year. */
const REPEAT_WINDOW_MS = 365 * DAY_MS;
/** Fewer requests than this say nothing about a sitter: no figures are shown. */
export const RELIABILITY_MIN_REQUESTS = 5;

export interface Reliability {
  /** Requests that reached the sitter (the owner's card saved) in the window. */
  requests: number;
  /** The median time from a request reaching the sitter to their accepting or declining it; null if none answered. */
  medianResponseMs: number | null;
  /** Accepted out of the requests that were accepted, declined or left to lapse. */
  accepted: number;
  decided: number;
  /** Owners the sitter cared for in the last year, and those among them who booked more than once. */
  clients: number;
  repeatClients: number;
}

export type ResponseTime = { unit: "minutes" | "hours" | "days"; count: number };

/** What the profile shows: each figure as words, or null below the minimum of requests. */
export interface ReliabilityText {
  requests: number;
  response: ResponseTime | null;
  acceptance: string | null;
  clients: number;
  repeatClients: number;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A sitter's reliability, from the booking history the machine writes: when a request reached them (its card
 * saved), and the first answer to it (accept, decline, or lapsing unanswered). Requests the owner withdrew before
 * an answer, and those still waiting, count as requests but in neither rate.
 */
const ANSWERS = ["accept", "decline", "expire"];

export async function sitterReliability(sitterId: string): Promise<Reliability> {
  const since = new Date(now().getTime() - RELIABILITY_WINDOW_MS).toISOString();
  // The events that matter of each request of the window, in the order the machine applied them.
  const events = await db
    .selectFrom("bookings as b")
    .innerJoin("booking_history as h", "h.booking_id", "b.id")
    .select(["b.id as booking_id", "h.event", "h.status_from", "h.created_at"])
    .where("b.sitter_id", "=", sitterId)
    .where("b.created_at", ">=", since)
    .where("h.event", "in", ["card-saved", ...ANSWERS])
    .orderBy("b.id")
    .orderBy("h.id")
    .execute();
  const requests = new Map<string, { askedAt: string | null; answer: string | null; answeredAt: string | null }>();
  for (const row of events) {
    const request = requests.get(row.booking_id) ?? { askedAt: null, answer: null, answeredAt: null };
    if (row.event === "card-saved") request.askedAt ??= row.created_at;
    else if (row.status_from === "requested" && request.answer === null) {
      request.answer = row.event;
      request.answeredAt = row.created_at;
    }
    requests.set(row.booking_id, request);
  }
  const asked = [...requests.values()].filter((request) => request.askedAt !== null);
  const responses = asked
    .filter((request) => (request.answer === "accept" || request.answer === "decline") && request.answeredAt)
    .map((request) => Math.max(0, Date.parse(request.answeredAt!) - Date.parse(request.askedAt!)));
  const decided = asked.filter((request) => request.answer !== null);

  const repeatSince = new Date(now().getTime() - REPEAT_WINDOW_MS).toISOString();
  const owners = await db
    .selectFrom("bookings")
    .select((eb) => ["owner_id", eb.fn.countAll<number>().as("times")])
    .where("sitter_id", "=", sitterId)
    .where("status", "=", "completed")
    .where("start_at", ">=", repeatSince)
    .groupBy("owner_id")
    .execute();

  return {
    requests: asked.length,
    medianResponseMs: median(responses),
    accepted: decided.filter((row) => row.answer === "accept").length,
    decided: decided.length,
    clients: owners.length,
    repeatClients: owners.filter((owner) => Number(owner.times) > 1).length,
  };
}

/** A duration in the unit people say it in: minutes under an hour and a half, hours under two days, else days. */
export function responseTimeOf(ms: number): ResponseTime {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 90) return { unit: "minutes", count: minutes };
  const hours = Math.round(minutes / 60);
  if (hours < 48) return { unit: "hours", count: hours };
  return { unit: "days", count: Math.round(hours / 24) };
}

/** The figures in the reader's language, or null while the sitter has had fewer than 5 requests. */
export async function reliabilitySection(sitterId: string, language: string): Promise<ReliabilityText | null> {
  const figures = await sitterReliability(sitterId);
  if (figures.requests < RELIABILITY_MIN_REQUESTS) return null;
  return {
    requests: figures.requests,
    response: figures.medianResponseMs === null ? null : responseTimeOf(figures.medianResponseMs),
    acceptance:
      figures.decided === 0
        ? null
        : numberFormat(language, { style: "percent", maximumFractionDigits: 0 }).format(
            figures.accepted / figures.decided,
          ),
    clients: figures.clients,
    repeatClients: figures.repeatClients,
  };
}
