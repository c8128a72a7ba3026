import { Counter, Gauge } from "prom-client";
import { now } from "./clock.server";
import { databaseEngine, databaseFile } from "./db.server";
import { env, type BackupSettings } from "./env.server";
import { logger } from "./log.server";
import { registry } from "./metrics.server";
import { backUpToBucket, listBackups } from "./offsite-backup.server";

// The scheduled off-machine backup of the SQLite database (see offsite-backup.server). On PostgreSQL the
// operator's provider or pg_dump does it (README, Operations). A round runs through the scheduler, so one
// at a time and, with several instances, on one of them.

export interface BackupStatus {
  configured: boolean;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  /** Worth an alarm: set up, and none succeeded in the last day or the last round failed. */
  stale: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const status: { lastSuccessAt: Date | null; lastFailureAt: Date | null; knownFromBucket: boolean } = {
  lastSuccessAt: null,
  lastFailureAt: null,
  knownFromBucket: false,
};

export const backupRuns = new Counter({
  name: "trusted_sitters_backups_total",
  help: "Off-machine database backups attempted, by outcome (ok, failed).",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

new Gauge({
  name: "trusted_sitters_backup_last_success_timestamp_seconds",
  help: "When the newest off-machine database backup was taken (Unix time; 0 before the first, or when not configured).",
  registers: [registry],
  collect() {
    this.set(status.lastSuccessAt ? status.lastSuccessAt.getTime() / 1000 : 0);
  },
});

export function backupStatus(settings: BackupSettings | null = env.backup, at: Date = now()): BackupStatus {
  const configured = Boolean(settings) && databaseEngine === "sqlite";
  const { lastSuccessAt, lastFailureAt } = status;
  return {
    configured,
    lastSuccessAt: lastSuccessAt?.toISOString() ?? null,
    lastFailureAt: lastFailureAt?.toISOString() ?? null,
    stale:
      configured &&
      (!lastSuccessAt ||
        at.getTime() - lastSuccessAt.getTime() > DAY_MS ||
        (lastFailureAt !== null && lastFailureAt > lastSuccessAt)),
  };
}

/**
 * One round: takes a backup when the newest in the bucket is at least an interval old (so a restart does
 * not add one), then lets retention delete old ones. Failures are counted, logged and thrown to the scheduler.
 */
export async function backUpWhenDue(
  settings: BackupSettings | null = env.backup,
  file: string = databaseFile(),
): Promise<"skipped" | "taken"> {
  if (!settings || databaseEngine !== "sqlite") return "skipped";
  const at = now();
  try {
    if (!status.knownFromBucket) {
      status.lastSuccessAt = (await listBackups(settings))[0]?.takenAt ?? null;
      status.knownFromBucket = true;
    }
    // A minute's slack: a round that starts a little early still takes the hour's backup.
    if (status.lastSuccessAt && at.getTime() - status.lastSuccessAt.getTime() < settings.intervalMs - 60_000)
      return "skipped";
    const { key, bytes, deleted } = await backUpToBucket(settings, file, at);
    status.lastSuccessAt = at;
    backupRuns.inc({ outcome: "ok" });
    logger.info({ event: "backup.done", key, bytes, deleted: deleted.length }, "Database backed up off the machine");
    return "taken";
  } catch (error) {
    status.lastFailureAt = at;
    backupRuns.inc({ outcome: "failed" });
    logger.error({ event: "backup.failed", err: error }, "Off-machine database backup failed");
    throw error;
  }
}

/** Tests: forget what this process knows of the bucket. */
export function resetBackupStatus(): void {
  status.lastSuccessAt = null;
  status.lastFailureAt = null;
  status.knownFromBucket = false;
}
