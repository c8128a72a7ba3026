import { db } from "./db.server";
import { deliverPendingEmails } from "./email.server";
import { now } from "./clock.server";
import { pruneBackoffs, pruneRateLimits } from "./rate-limit.server";
import { pruneEvents } from "./events/events.server";
import { closeAllStreams } from "./events/stream.server";

const timers: NodeJS.Timeout[] = [];

export function every(ms: number, job: () => Promise<unknown>): void {
  const timer = setInterval(() => {
    job().catch((error: unknown) => console.error("Background job failed", error));
  }, ms);
  timer.unref();
  timers.push(timer);
}

export function startPlatformJobs(): void {
  every(60_000, deliverPendingEmails);
  every(60 * 60_000, removeExpiredRows);
  every(60 * 60_000, pruneEvents);
  every(60 * 60_000, pruneRateLimits);
}

export async function stopPlatform(): Promise<void> {
  for (const timer of timers.splice(0)) clearInterval(timer);
  // Open event streams would keep the server from exiting.
  closeAllStreams();
  await db.destroy();
}

async function removeExpiredRows() {
  const at = now();
  await db.deleteFrom("sessions").where("expires_at", "<=", at.toISOString()).execute();
  const weekAgo = new Date(at.getTime() - 7 * 24 * 60 * 60 * 1000).toISOString();
  await db.deleteFrom("email_tokens").where("expires_at", "<=", weekAgo).execute();
  await pruneBackoffs();
}
