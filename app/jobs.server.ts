import { migrateToLatest, refreshStatistics } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { logger } from "~/platform/log.server";
import { setAppPhase } from "~/platform/readiness.server";
import { every, startPlatformJobs, stopPlatform } from "~/platform/lifecycle.server";
import { runDueBookingWork } from "~/features/bookings/index.server";
import { runDueSubscriptionWork } from "~/features/subscriptions/index.server";
import { runDueMeetGreetReminders } from "~/features/meet-greets/index.server";
import { runDueSeriesWork } from "~/features/series/index.server";
import { offerNewProfiles } from "~/features/discovery/index.server";
import { purgeExpiredPendingUploads } from "~/features/media/index.server";
import { deliverPendingPushes, pruneSentPushes } from "~/features/push/index.server";
import { missingOperatorWarning } from "~/features/legal/index.server";
import { printDemoLogins, seedDemoData } from "~/demo/seed.server";
import { removeExpiredEmailTokens } from "~/features/auth/index.server";

export async function startApp(): Promise<void> {
  setAppPhase("migrating");
  const { results } = await migrateToLatest();
  for (const migration of results ?? [])
    logger.info({ event: "migration", migration: migration.migrationName, status: migration.status }, "Migration");
  setAppPhase("starting");
  const operatorWarning = missingOperatorWarning();
  if (operatorWarning) logger.warn({ event: "operator.missing" }, operatorWarning);
  if (env.smtpIgnoredInDemo)
    logger.info("Demo mode: SMTP_URL is ignored, no email is sent; every email stays in the outbox at /dev/outbox.");
  if (env.DEMO_MODE) {
    const seeded = await seedDemoData({ onlyIfEmpty: true });
    if (seeded) printDemoLogins(seeded);
  }
  await refreshStatistics();
  startPlatformJobs();
  offerNewProfiles();
  every(30_000, runDueBookingWork, "booking-work");
  every(60_000, runDueSubscriptionWork, "subscription-work");
  every(60_000, runDueMeetGreetReminders, "meet-greet-reminders");
  // Weekly care's occurrences a week ahead; a round finds each made one and leaves it.
  every(5 * 60_000, runDueSeriesWork, "series-work");
  every(10 * 60_000, purgeExpiredPendingUploads, "purge-pending-uploads");
  // Pushes also go out a moment after they are written; this round takes retries and other instances' leftovers.
  every(15_000, deliverPendingPushes, "deliver-pushes");
  every(60 * 60_000, pruneSentPushes, "prune-sent-pushes");
  every(60 * 60_000, removeExpiredEmailTokens, "remove-expired-email-tokens");
  setAppPhase("ready");
}

export const stopApp = stopPlatform;
