import { seedDemoData } from "~db/seed";
import { runDueBookingWork } from "~/features/bookings/due-work.server";
import { runDueSubscriptionWork } from "~/features/subscriptions/subscriptions.server";
import { db, migrateToLatest } from "./db.server";
import { deliverPendingEmails } from "./email.server";
import { env } from "./env.server";
import { now } from "./clock.server";
import { pruneRateLimits } from "./rate-limit.server";
import { pruneEvents } from "./events/events.server";
import { pruneBackoffs } from "./rate-limit.server";
import { closeAllStreams } from "./events/stream.server";

const timers: NodeJS.Timeout[] = [];

/** Runs before the server accepts requests: migrations, demo data, background jobs. */
export async function startApp(): Promise<void> {
  const { results } = await migrateToLatest();
  for (const migration of results ?? []) console.log(`Migration ${migration.migrationName}: ${migration.status}`);
  if (env.smtpIgnoredInDemo) console.log("Demo mode: SMTP_URL is ignored, no email is sent; every email stays in the outbox at /dev/outbox.");
  if (env.DEMO_MODE) {
    const seeded = await seedDemoData(db, { onlyIfEmpty: true });
    if (seeded) printDemoLogins(seeded);
  }
  every(60_000, deliverPendingEmails);
  // Bookings that start, end, lapse, get their delayed hold or their automatic release.
  every(30_000, runDueBookingWork);
  // Subscription periods that end: renewals charged, failed ones retried, cancelled ones ended.
  every(60_000, runDueSubscriptionWork);
  every(60 * 60_000, removeExpiredRows);
  every(60 * 60_000, pruneEvents);
  every(60 * 60_000, pruneRateLimits);
}

export async function stopApp(): Promise<void> {
  for (const timer of timers.splice(0)) clearInterval(timer);
  // Open event streams would keep the server from exiting.
  closeAllStreams();
  await db.destroy();
}

function every(ms: number, job: () => Promise<unknown>) {
  const timer = setInterval(() => {
    job().catch((error: unknown) => console.error("Background job failed", error));
  }, ms);
  timer.unref();
  timers.push(timer);
}

async function removeExpiredRows() {
  const at = now();
  await db.deleteFrom("sessions").where("expires_at", "<=", at.toISOString()).execute();
  const weekAgo = new Date(at.getTime() - 7 * 24 * 60 * 60 * 1000).toISOString();
  await db.deleteFrom("email_tokens").where("expires_at", "<=", weekAgo).execute();
  await pruneBackoffs();
}

export function printDemoLogins(logins: { email: string; password: string; role: string; name: string }[]) {
  console.log("\nDemo accounts (password for all of them below):");
  for (const login of logins) console.log(`  ${login.role.padEnd(6)} ${login.email.padEnd(34)} ${login.name}`);
  console.log(`  password: ${logins[0]?.password ?? ""}\n`);
}
