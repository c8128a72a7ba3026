import { cp, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { env, type S3Bucket } from "./env.server";

export type MediaBackup = { stored: "folder"; copied: boolean } | { stored: "bucket"; bucket: string; advice: string };

/** What to do instead of copying, when photos and attachments live in a bucket the app does not own a copy of. */
export function bucketBackupAdvice(s3: Pick<S3Bucket, "bucket" | "endpoint">): string {
  const where = `bucket "${s3.bucket}"${s3.endpoint ? ` at ${s3.endpoint}` : ""}`;
  return [
    `Photos and attachments are NOT in this backup: with MEDIA_STORAGE=s3 they live in the ${where}, and were not copied.`,
    "Back them up where they live:",
    "  - turn on versioning for the bucket, so an object deleted or overwritten by mistake can be restored",
    "    (with a lifecycle rule that removes old versions after your retention period, e.g. 30 days);",
    "  - replicate the bucket to another region or account (S3 replication, R2 or Tigris equivalents), or copy it",
    "    on a schedule where the store has no replication (e.g. `rclone sync` or `aws s3 sync` to a second bucket).",
    "The database refers to files by key: restore the bucket (or its versions) to the same moment as the database.",
  ].join("\n");
}

/**
 * How to back up PostgreSQL, which the app cannot copy as a file: the pg_dump command for the
 * DATABASE_URL's host, port, user and database (never its password).
 */
export function postgresBackupAdvice(databaseUrl: string, file = "trusted-sitters.pgdump"): string {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, "")) || "postgres";
  const user = decodeURIComponent(url.username) || "postgres";
  const port = url.port || "5432";
  return [
    "The database is PostgreSQL (DATABASE_URL): it is backed up by the server's own tools, not copied as a file.",
    "  - use your provider's automated backups and point-in-time recovery (managed PostgreSQL has them);",
    "  - and/or take a dump on a schedule, with pg_dump of the server's major version or newer:",
    `      PGPASSWORD=… pg_dump --format=custom --host=${url.hostname} --port=${port} --username=${user} --dbname=${database} --file=${file}`,
    `    restored with: pg_restore --clean --if-exists --no-owner --dbname=<target database> ${file}`,
    "  - or run `npm run db:backup FOLDER` where pg_dump is installed: it runs that dump into FOLDER.",
  ].join("\n");
}

// SQLite's online backup copies a state the database really was in; media files, never changed, are copied after it.
export async function backupDataDir(
  dataDir: string,
  destination: string,
  s3: S3Bucket | null = env.s3,
): Promise<{ databaseFile: string; integrity: string; media: MediaBackup }> {
  const source = path.join(dataDir, "trusted-sitters.db");
  if (!existsSync(source)) throw new Error(`No database at ${source}`);
  await mkdir(destination, { recursive: true });
  const databaseFile = path.join(destination, "trusted-sitters.db");
  const live = new SQLite(source, { fileMustExist: true });
  try {
    live.pragma("busy_timeout = 5000");
    // Copied in one step after the first: a live writer would otherwise restart a page-by-page copy for ever.
    await live.backup(databaseFile, { progress: ({ totalPages }) => totalPages + 100 });
  } finally {
    live.close();
  }
  const copy = new SQLite(databaseFile);
  const integrity = String(copy.pragma("integrity_check", { simple: true }));
  copy.close();
  if (s3)
    return { databaseFile, integrity, media: { stored: "bucket", bucket: s3.bucket, advice: bucketBackupAdvice(s3) } };
  const media = path.join(dataDir, "media");
  if (!existsSync(media)) return { databaseFile, integrity, media: { stored: "folder", copied: false } };
  await cp(media, path.join(destination, "media"), { recursive: true, force: false, errorOnExist: false });
  return { databaseFile, integrity, media: { stored: "folder", copied: true } };
}
