import { db, refreshStatistics } from "./db.server";
import { deliverPendingEmails } from "./email.server";
import { now } from "./clock.server";
import { pruneBackoffs, pruneRateLimits } from "./rate-limit.server";
import { pruneEvents } from "./events/events.server";
import { closeAllStreams } from "./events/stream.server";
import { bus } from "./events/bus.server";
import { acrossInstances } from "./exclusive.server";
import { logger } from "./log.server";
import { observeRound } from "./metrics.server";
import { backUpWhenDue } from "./backup-schedule.server";
import { env } from "./env.server";

// What one process keeps for itself, with several app instances on PostgreSQL:
// - shared through the database: sessions, rate limits and sign-in backoffs, the email outbox, live events;
// - crossing instances through the event bus: news of events, ending a person's streams, deck news;
// - one instance at a time (advisory lock): each scheduler round (below), each email batch;
// - per instance on purpose: open streams and their caps (each instance bounds its own memory; a person
//   may hold the cap on each), the honeypot value of the minute (valid everywhere: SESSION_SECRET is
//   required and shared), caches of static data (i18n, formatters, the decoy password hash, clients);
// - lock.server `serialized`: made cross-instance with the PostgreSQL engine;
// - demo only: the /dev/clock offset moves the clock of the instance that served it.
const timers: NodeJS.Timeout[] = [];

/**
 * Every instance runs the scheduler; a round of a job is done by one instance at a time (an advisory
 * lock on PostgreSQL, skipped when another holds it) and never overlaps the previous round here. Each
 * job re-checks what is due inside its own work (state machine transitions, payment tasks with
 * idempotency keys), so a round after another instance's finds nothing left to do twice.
 */
export function every(ms: number, job: () => Promise<unknown>, name = job.name): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    const startedAt = performance.now();
    acrossInstances(`job:${name}`, job)
      .then(
        () => observeRound(name, "ok", (performance.now() - startedAt) / 1000),
        (error: unknown) => {
          observeRound(name, "failed", (performance.now() - startedAt) / 1000);
          logger.error({ event: "job.failed", job: name, err: error }, "Background job failed");
        },
      )
      .finally(() => {
        running = false;
      });
  }, ms);
  timer.unref();
  timers.push(timer);
  return () => {
    clearInterval(timer);
    timers.splice(timers.indexOf(timer), 1);
  };
}

export function startPlatformJobs(): void {
  every(60_000, deliverPendingEmails, "deliver-emails");
  every(60_000, purgeErasedEmails, "purge-erased-emails");
  every(60 * 60_000, removeExpiredRows, "remove-expired-rows");
  every(60 * 60_000, pruneEvents, "prune-events");
  every(60 * 60_000, pruneRateLimits, "prune-rate-limits");
  every(24 * 60 * 60_000, refreshStatistics, "refresh-statistics");
  // Checked every 5 minutes, taken once the newest backup is an interval old (so also soon after a start).
  if (env.backup) every(5 * 60_000, () => backUpWhenDue(), "offsite-backup");
}

export async function stopPlatform(): Promise<void> {
  for (const timer of timers.splice(0)) clearInterval(timer);
  // Open event streams would keep the server from exiting.
  closeAllStreams();
  await bus.close();
  await db.destroy();
}

async function removeExpiredRows() {
  const at = now();
  await db.deleteFrom("sessions").where("expires_at", "<=", at.toISOString()).execute();
  await pruneBackoffs();
}

/** An erased person's last email: its row goes once it is sent (or given up), and after 7 days whatever happened. */
export const ERASED_EMAIL_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

export async function purgeErasedEmails(): Promise<void> {
  const weekAgo = new Date(now().getTime() - ERASED_EMAIL_KEPT_MS).toISOString();
  await db
    .deleteFrom("email_outbox")
    .where("purge_after_send", "=", 1)
    .where((eb) =>
      eb.or([eb("sent_at", "is not", null), eb("failed_at", "is not", null), eb("created_at", "<=", weekAgo)]),
    )
    .execute();
}
