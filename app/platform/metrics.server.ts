import { createHash, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { databaseEngine, db } from "./db.server";
import { env } from "./env.server";
import { bus, busDeliverySeconds } from "./events/bus.server";
import { openStreamCount } from "./events/stream.server";

// Each instance serves its own figures on /metrics (Prometheus adds the instance label when it scrapes).
// Labels take a handful of values each: a route's pattern (never its address, so no id ever becomes a
// label), a status class, a method, a job's name, a state.
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const PREFIX = "trusted_sitters_";
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export const httpRequests = new Counter({
  name: `${PREFIX}http_requests_total`,
  help: "HTTP requests answered, by route pattern, method and status class (2xx, 4xx, ...).",
  labelNames: ["route", "method", "status_class"] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: `${PREFIX}http_request_duration_seconds`,
  help: "Time to answer an HTTP request (event streams excluded: they stay open), by route pattern and method.",
  labelNames: ["route", "method"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const schedulerRounds = new Counter({
  name: `${PREFIX}scheduler_rounds_total`,
  help: "Rounds of the background jobs, by job and outcome (ok, failed).",
  labelNames: ["job", "outcome"] as const,
  registers: [registry],
});

export const schedulerDuration = new Histogram({
  name: `${PREFIX}scheduler_round_duration_seconds`,
  help: "Time a background job's round took, by job.",
  labelNames: ["job"] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [registry],
});

new Gauge({
  name: `${PREFIX}event_streams_open`,
  help: "Live-update event streams open on this instance.",
  registers: [registry],
  collect() {
    this.set(openStreamCount());
  },
});

new Gauge({
  name: `${PREFIX}event_bus_connected`,
  help: "1 while the event bus can carry news between instances (always 1 on SQLite), 0 while it is down.",
  registers: [registry],
  collect() {
    this.set(bus.connection() === "disconnected" ? 0 : 1);
  },
});

new Gauge({
  name: `${PREFIX}event_bus_lag_seconds`,
  help: "How far behind live events between instances run: the time this instance's newest heartbeat NOTIFY took to come back through PostgreSQL, or how long the one still out has been (0 on SQLite and while not listening).",
  registers: [registry],
  collect() {
    this.set(bus.lagSeconds());
  },
});

registry.registerMetric(busDeliverySeconds);

new Gauge({
  name: `${PREFIX}database_size_bytes`,
  help: "Size of the database (the SQLite file, or the PostgreSQL database).",
  registers: [registry],
  async collect() {
    this.set(await databaseSizeBytes());
  },
});

/** The figures of the business's own queues, read from the database at each scrape. */
export interface QueueFigures {
  /** Not sent yet and not tried yet (or not due again yet after no failure). */
  emailsWaiting: number;
  /** Tried and refused at least once, to be tried again. */
  emailsRetrying: number;
  /** Given up in the last 24 hours. */
  emailsFailed: number;
  paymentTasks: { waiting: number; retrying: number; failed: number };
  disputesOpen: number;
}

const emails = new Gauge({
  name: `${PREFIX}emails`,
  help: "Emails in the outbox by state: waiting (not tried yet), retrying, failed_24h (given up in the last 24 hours).",
  labelNames: ["state"] as const,
  registers: [registry],
});
const paymentTasks = new Gauge({
  name: `${PREFIX}payment_tasks`,
  help: "Bookings with payment work to do, by state: waiting (not tried yet), retrying, failed (given up).",
  labelNames: ["state"] as const,
  registers: [registry],
});
const disputesOpen = new Gauge({
  name: `${PREFIX}disputes_open`,
  help: "Disputes not resolved yet.",
  registers: [registry],
});

export const ROUTE_LABEL_MAX = 120;

/** One request counted: `route` is a route's pattern (see routePatterns), never the address asked for. */
export function observeRequest(route: string, method: string, status: number, seconds: number | null): void {
  const labels = {
    route: route.slice(0, ROUTE_LABEL_MAX),
    method: METHODS.has(method) ? method : "other",
  };
  httpRequests.inc({ ...labels, status_class: `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx` });
  if (seconds !== null) httpDuration.observe(labels, seconds);
}

export function observeRound(job: string, outcome: "ok" | "failed", seconds: number): void {
  schedulerRounds.inc({ job, outcome });
  schedulerDuration.observe({ job }, seconds);
}

/** The text Prometheus reads, with the queues' figures of this moment. */
export async function metricsText(queues: QueueFigures): Promise<string> {
  emails.set({ state: "waiting" }, queues.emailsWaiting);
  emails.set({ state: "retrying" }, queues.emailsRetrying);
  emails.set({ state: "failed_24h" }, queues.emailsFailed);
  for (const state of ["waiting", "retrying", "failed"] as const)
    paymentTasks.set({ state }, queues.paymentTasks[state]);
  disputesOpen.set(queues.disputesOpen);
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether a scrape may read /metrics: only with METRICS_TOKEN set and sent as `Authorization: Bearer`.
 * Compared in constant time; anything else gets the same 404 as an address that does not exist.
 */
export function metricsAllowed(authorization: string | null, token: string | undefined = env.METRICS_TOKEN): boolean {
  if (!token || !authorization) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!), digest(token));
}

export async function databaseSizeBytes(): Promise<number> {
  try {
    if (databaseEngine === "postgres") {
      const { rows } = await sql<{
        bytes: string | number;
      }>`select pg_database_size(current_database()) as bytes`.execute(db);
      return Number(rows[0]?.bytes ?? 0);
    }
    const { rows } = await sql<{
      bytes: number;
    }>`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(db);
    return Number(rows[0]?.bytes ?? 0);
  } catch {
    return 0;
  }
}
