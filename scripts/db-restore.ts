/**
 * npm run db:restore -- [--list] [<backup key or file name>] [--to <database file>] [--force]
 * Restores an off-machine backup (the newest by default) from BACKUP_S3_BUCKET into a database file
 * (default DATA_DIR/trusted-sitters.db), after checking its integrity and migrations. An existing file
 * is replaced only with --force: stop the app first.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import "./load-env.js";
import { env } from "~/platform/env.server";
import { listBackups, restoreFromBucket, RestoreRefused } from "~/platform/offsite-backup.server";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    list: { type: "boolean", default: false },
    key: { type: "string" },
    to: { type: "string" },
    force: { type: "boolean", default: false },
  },
});

const settings = env.backup;
if (!settings) {
  console.error("Set BACKUP_S3_BUCKET (and its keys, see the README's Operations section) to restore a backup.");
  process.exit(2);
}
try {
  if (values.list) {
    const backups = await listBackups(settings);
    if (backups.length === 0) console.log("No backups in the bucket.");
    for (const backup of backups)
      console.log(`${backup.key}  ${backup.takenAt.toISOString()}  ${(backup.bytes / 1024).toFixed(0)} KiB`);
    process.exit(0);
  }
  const target = path.resolve(values.to ?? path.join(env.DATA_DIR, "trusted-sitters.db"));
  // A backup named by its key, or by its file name alone (as --list prints it without the prefix).
  const named = values.key ?? positionals[0];
  const key = named && !named.startsWith(settings.prefix) ? `${settings.prefix}${named}` : named;
  const result = await restoreFromBucket(settings, target, { key, force: values.force });
  console.log(`Restored ${result.key} into ${target} (integrity check: ${result.integrity}).`);
  console.log(
    result.pendingMigrations.length === 0
      ? "Its migrations are up to date."
      : `The app will run ${result.pendingMigrations.length} newer migration(s) on it when it starts.`,
  );
} catch (error) {
  console.error(error instanceof RestoreRefused ? error.message : `Restore failed: ${(error as Error).message}`);
  process.exit(1);
}
