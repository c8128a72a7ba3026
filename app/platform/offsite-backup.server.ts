import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdtemp, rename, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import SQLite from "better-sqlite3";
import { migrations } from "~db/migrations";
import type { BackupSettings, S3Bucket } from "./env.server";

// Off-machine backups of the SQLite database: a consistent online copy (SQLite's backup API), checked,
// gzipped and put in an S3-compatible bucket under `<prefix>trusted-sitters-<time>.db.gz`; old ones are
// deleted by a grandfather-father rule (the newest of each recent hour, then of each recent day).
// Nothing here opens the app's own database connection, so `npm run db:restore` can use it on a stopped app.

const KEY_PATTERN = /trusted-sitters-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.db\.gz$/;

export interface StoredBackup {
  key: string;
  takenAt: Date;
  bytes: number;
}

export function backupKey(prefix: string, takenAt: Date): string {
  return `${prefix}trusted-sitters-${takenAt.toISOString().replace(/[:.]/g, "-")}.db.gz`;
}

/** The time in a backup's key, or null for an object that is not one of ours (never deleted). */
export function backupTime(key: string): Date | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, day, hours, minutes, seconds, millis] = match;
  const time = new Date(`${day}T${hours}:${minutes}:${seconds}.${millis}Z`);
  return Number.isNaN(time.getTime()) ? null : time;
}

export function backupClient(storage: S3Bucket): S3Client {
  return new S3Client({
    region: storage.region,
    endpoint: storage.endpoint,
    forcePathStyle: storage.forcePathStyle,
    credentials: { accessKeyId: storage.accessKeyId, secretAccessKey: storage.secretAccessKey },
    // As for media: several S3-compatible stores refuse the SDK's newer default checksums.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 10 * 60_000 },
  });
}

/** The backups in the bucket, newest first. */
export async function listBackups(settings: BackupSettings, client = backupClient(settings.storage)) {
  const found: StoredBackup[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: settings.storage.bucket, Prefix: settings.prefix, ContinuationToken }),
    );
    for (const object of page.Contents ?? []) {
      const takenAt = object.Key ? backupTime(object.Key) : null;
      if (object.Key && takenAt) found.push({ key: object.Key, takenAt, bytes: object.Size ?? 0 });
    }
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return found.sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
}

/**
 * Which backups the retention rule lets go: kept are the newest backup, the newest of each of the last
 * `keepHourly` hours that have one, and the newest of each of the last `keepDaily` days (UTC) that have one.
 */
export function backupsToDelete(
  backups: readonly Pick<StoredBackup, "key" | "takenAt">[],
  { keepHourly, keepDaily }: Pick<BackupSettings, "keepHourly" | "keepDaily">,
): string[] {
  const newestFirst = [...backups].sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
  const hours = new Set<string>();
  const days = new Set<string>();
  const deleted: string[] = [];
  newestFirst.forEach((backup, index) => {
    const iso = backup.takenAt.toISOString();
    const hour = iso.slice(0, 13);
    const day = iso.slice(0, 10);
    let kept = index === 0;
    if (!hours.has(hour) && hours.size < keepHourly) {
      hours.add(hour);
      kept = true;
    }
    if (!days.has(day) && days.size < keepDaily) {
      days.add(day);
      kept = true;
    }
    if (!kept) deleted.push(backup.key);
  });
  return deleted;
}

/** A consistent copy of a live SQLite file (written while the app keeps writing), checked before it is used. */
export async function snapshotDatabase(source: string, destination: string): Promise<void> {
  if (!existsSync(source)) throw new Error(`No database at ${source}`);
  const live = new SQLite(source, { fileMustExist: true, readonly: true });
  try {
    live.pragma("busy_timeout = 5000");
    // Copied in one step after the first: a live writer would otherwise restart a page-by-page copy for ever.
    await live.backup(destination, { progress: ({ totalPages }) => totalPages + 100 });
  } finally {
    live.close();
  }
  const integrity = integrityOf(destination);
  if (integrity !== "ok") throw new Error(`The copy of the database failed its integrity check: ${integrity}`);
}

function integrityOf(file: string): string {
  const copy = new SQLite(file, { fileMustExist: true, readonly: true });
  try {
    return String(copy.pragma("integrity_check", { simple: true }));
  } finally {
    copy.close();
  }
}

/** Backs up `databaseFile` to the bucket, then applies retention. Returns the new key and the keys deleted. */
export async function backUpToBucket(
  settings: BackupSettings,
  databaseFile: string,
  takenAt: Date,
  client = backupClient(settings.storage),
): Promise<{ key: string; bytes: number; deleted: string[] }> {
  const work = await mkdtemp(path.join(tmpdir(), "trusted-sitters-backup-"));
  try {
    const copy = path.join(work, "trusted-sitters.db");
    const gzipped = `${copy}.gz`;
    await snapshotDatabase(databaseFile, copy);
    await pipeline(createReadStream(copy), createGzip({ level: 6 }), createWriteStream(gzipped));
    const { size } = await stat(gzipped);
    const key = backupKey(settings.prefix, takenAt);
    await client.send(
      new PutObjectCommand({
        Bucket: settings.storage.bucket,
        Key: key,
        Body: createReadStream(gzipped),
        ContentLength: size,
        ContentType: "application/gzip",
      }),
    );
    const deleted = backupsToDelete(await listBackups(settings, client), settings);
    for (const old of deleted)
      await client.send(new DeleteObjectCommand({ Bucket: settings.storage.bucket, Key: old }));
    return { key, bytes: size, deleted };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export class RestoreRefused extends Error {}

export interface RestoreResult {
  key: string;
  integrity: "ok";
  /** Migrations of this app the backup has not run yet (the app runs them when it starts). */
  pendingMigrations: string[];
}

/**
 * Restores a backup (the newest without `key`) into `target`: downloaded beside it, checked (integrity, and
 * migrations this app knows), then moved into place. An existing file is only replaced with `force`.
 */
export async function restoreFromBucket(
  settings: BackupSettings,
  target: string,
  { key, force = false, client = backupClient(settings.storage) }: { key?: string; force?: boolean; client?: S3Client },
): Promise<RestoreResult> {
  const targetFile = path.resolve(target);
  if (existsSync(targetFile) && !force)
    throw new RestoreRefused(
      `${targetFile} exists: stop the app and pass --force to replace it (or restore into another file).`,
    );
  const chosen = key ?? (await listBackups(settings, client))[0]?.key;
  if (!chosen) throw new RestoreRefused(`No backups under "${settings.prefix}" in bucket ${settings.storage.bucket}.`);
  const partial = `${targetFile}.restoring-${process.pid}`;
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: settings.storage.bucket, Key: chosen }));
    if (!(object.Body instanceof Readable)) throw new Error(`Backup ${chosen} has no content.`);
    await pipeline(object.Body, createGunzip(), createWriteStream(partial));
    const integrity = integrityOf(partial);
    if (integrity !== "ok") throw new RestoreRefused(`Backup ${chosen} failed its integrity check: ${integrity}`);
    const pendingMigrations = migrationState(partial, chosen);
    // A stale write-ahead log beside the old file would be replayed into the restored one.
    await rm(`${targetFile}-wal`, { force: true });
    await rm(`${targetFile}-shm`, { force: true });
    await rename(partial, targetFile);
    return { key: chosen, integrity: "ok", pendingMigrations };
  } finally {
    await rm(partial, { force: true });
  }
}

/** The migrations this app would still run on the file; refuses one made by a newer app. */
function migrationState(file: string, key: string): string[] {
  const database = new SQLite(file, { fileMustExist: true, readonly: true });
  let applied: string[];
  try {
    applied = (database.prepare("select name from kysely_migration order by name").all() as { name: string }[]).map(
      (row) => row.name,
    );
  } catch {
    throw new RestoreRefused(`Backup ${key} is not a Trusted Sitters database (it has no migrations table).`);
  } finally {
    database.close();
  }
  const known = Object.keys(migrations);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new RestoreRefused(
      `Backup ${key} was made by a newer version of the app (migrations ${unknown.join(", ")}): restore it with that version.`,
    );
  return known.filter((name) => !applied.includes(name));
}
