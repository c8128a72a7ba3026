import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { conversationWith, sendMessage } from "~/features/messages/index.server";
import { ownerWithPet } from "~/testing/bookings";
import { person } from "~/testing/people";
import { startS3StandIn, type S3StandIn } from "~/testing/s3";
import { backUpWhenDue, backupRuns, backupStatus, resetBackupStatus } from "./backup-schedule.server";
import { databaseEngine, databaseFile, db } from "./db.server";
import { parseEnv, type BackupSettings } from "./env.server";
import { registry } from "./metrics.server";
import {
  backupClient,
  backupKey,
  backupsToDelete,
  backupTime,
  backUpToBucket,
  listBackups,
  restoreFromBucket,
  RestoreRefused,
} from "./offsite-backup.server";

const onSqlite = databaseEngine === "sqlite";
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe("backup settings", () => {
  it("are off without a bucket, default to the media keys, and take empty values as unset", () => {
    expect(parseEnv({ NODE_ENV: "test" }).backup).toBeNull();
    const backup = parseEnv({
      NODE_ENV: "test",
      S3_ACCESS_KEY_ID: "media-key",
      S3_SECRET_ACCESS_KEY: "media-secret",
      S3_ENDPOINT: "https://s3.example.com",
      BACKUP_S3_BUCKET: "ts-backups",
      BACKUP_S3_PREFIX: "",
      BACKUP_INTERVAL_MINUTES: "",
      BACKUP_KEEP_HOURLY: "",
      BACKUP_KEEP_DAILY: "7",
    }).backup;
    expect(backup).toMatchObject({
      storage: { bucket: "ts-backups", endpoint: "https://s3.example.com", accessKeyId: "media-key" },
      prefix: "backups/",
      intervalMs: 60 * 60_000,
      keepHourly: 48,
      keepDaily: 7,
    });
    expect(() => parseEnv({ NODE_ENV: "test", BACKUP_S3_BUCKET: "ts-backups" })).toThrow(/BACKUP_S3_ACCESS_KEY_ID/);
    expect(() => parseEnv({ NODE_ENV: "test", BACKUP_S3_BUCKET: "ts-backups", BACKUP_INTERVAL_MINUTES: "1" })).toThrow(
      /BACKUP_INTERVAL_MINUTES/,
    );
  });
});

describe("retention of off-machine backups", () => {
  const every = (start: Date, stepMs: number, count: number) =>
    Array.from({ length: count }, (_, index) => {
      const takenAt = new Date(start.getTime() - index * stepMs);
      return { key: backupKey("backups/", takenAt), takenAt };
    });

  it("keeps the newest of each of the last N hours and of each of the last M days, and deletes the rest", () => {
    // Every 15 minutes for 10 days up to a fixed moment.
    const end = new Date("2026-11-28T12:45:00.000Z");
    const backups = every(end, 15 * 60 * 1000, 10 * 96);
    const deleted = new Set(backupsToDelete(backups, { keepHourly: 6, keepDaily: 4 }));
    const kept = backups.filter((backup) => !deleted.has(backup.key)).map((backup) => backup.takenAt.toISOString());
    expect(kept).toEqual([
      // The newest of each of the last 6 hours (the first is also today's newest).
      "2026-11-28T12:45:00.000Z",
      "2026-11-28T11:45:00.000Z",
      "2026-11-28T10:45:00.000Z",
      "2026-11-28T09:45:00.000Z",
      "2026-11-28T08:45:00.000Z",
      "2026-11-28T07:45:00.000Z",
      // The newest of each of the 3 days before.
      "2026-11-27T23:45:00.000Z",
      "2026-11-26T23:45:00.000Z",
      "2026-11-25T23:45:00.000Z",
    ]);
    expect(deleted.size).toBe(backups.length - 9);
  });

  it("always keeps the newest backup, and deletes nothing while there are fewer than the rule keeps", () => {
    const backups = every(new Date("2026-11-28T12:00:00.000Z"), DAY, 3);
    expect(backupsToDelete(backups, { keepHourly: 1, keepDaily: 0 })).toEqual([backups[1]!.key, backups[2]!.key]);
    expect(backupsToDelete(backups, { keepHourly: 48, keepDaily: 30 })).toEqual([]);
  });

  it("reads the time back from a key, and never takes another object for a backup", () => {
    const takenAt = new Date("2026-01-02T03:04:05.678Z");
    expect(backupTime(backupKey("x/", takenAt))).toEqual(takenAt);
    expect(backupTime("x/notes.txt")).toBeNull();
    expect(backupTime("x/trusted-sitters-latest.db.gz")).toBeNull();
  });
});

describe.runIf(onSqlite)("backup and restore through an S3-compatible bucket", () => {
  let s3: S3StandIn;
  let settings: BackupSettings;
  const work = mkdtempSync(path.join(tmpdir(), "restore-drill-"));

  beforeAll(async () => {
    s3 = await startS3StandIn("trusted-sitters-backups");
    settings = { storage: s3.settings, prefix: "backups/", intervalMs: HOUR, keepHourly: 2, keepDaily: 1 };
  });
  afterAll(() => s3.stop());
  beforeEach(() => resetBackupStatus());

  it("a restore drill: people, pets, messages written, backed up, restored into a new file, every row there", async () => {
    const owner = await ownerWithPet();
    const sitter = await person("sitter");
    const [a, b] = owner.id < sitter.id ? [owner.id, sitter.id] : [sitter.id, owner.id];
    await db
      .insertInto("matches")
      .values({ id: randomUUID(), user_a_id: a, user_b_id: b, created_at: new Date().toISOString() })
      .execute();
    const conversationId = (await conversationWith(owner.id, sitter.id))!;
    const text = `Drill message ${randomUUID()}`;
    const sent = await sendMessage(owner.id, conversationId, text, null, { image: "image", video: "video" });
    expect(sent.status).toBe("sent");

    const { key, bytes } = await backUpToBucket(settings, databaseFile(), new Date());
    expect(bytes).toBeGreaterThan(0);
    expect((await listBackups(settings)).map((backup) => backup.key)).toContain(key);
    const target = path.join(work, "drill", "trusted-sitters.db");
    mkdirSync(path.dirname(target), { recursive: true });
    const restored = await restoreFromBucket(settings, target, {});
    expect(restored).toEqual({ key, integrity: "ok", pendingMigrations: [] });

    // Every table holds the same rows as the live database (nothing was written since the backup).
    const live = new SQLite(databaseFile(), { readonly: true });
    const copy = new SQLite(target, { readonly: true });
    try {
      const tables = (
        copy
          .prepare("select name from sqlite_schema where type = 'table' and sql not like 'create virtual%'")
          .all() as {
          name: string;
        }[]
      ).map((row) => row.name);
      expect(tables).toEqual(expect.arrayContaining(["users", "pets", "messages", "bookings"]));
      for (const table of tables) {
        const rows = (database: SQLite.Database) => database.prepare(`select * from "${table}"`).all();
        expect(rows(copy), table).toEqual(rows(live));
      }
      expect(copy.prepare("select body from messages where conversation_id = ?").all(conversationId)).toEqual([
        { body: text },
      ]);
      expect(copy.prepare("select id from users where id in (?, ?)").all(owner.id, sitter.id)).toHaveLength(2);
    } finally {
      live.close();
      copy.close();
    }
  });

  it("refuses to replace an existing database without --force, and replaces it with it", async () => {
    await backUpToBucket(settings, databaseFile(), new Date());
    const target = path.join(work, "existing.db");
    writeFileSync(target, "an app's database");
    writeFileSync(`${target}-wal`, "its write-ahead log");
    await expect(restoreFromBucket(settings, target, {})).rejects.toBeInstanceOf(RestoreRefused);
    const restored = await restoreFromBucket(settings, target, { force: true });
    expect(restored.integrity).toBe("ok");
    expect(existsSync(`${target}-wal`)).toBe(false);
  });

  it("refuses a backup that is not the app's database, or was made by a newer app", async () => {
    const elsewhere = { ...settings, prefix: "refused/", keepHourly: 48, keepDaily: 30 };
    const client = backupClient(settings.storage);
    const foreign = path.join(work, "foreign.db");
    const other = new SQLite(foreign);
    other.exec("create table notes (text)");
    other.close();
    const newer = path.join(work, "newer.db");
    const newerDb = new SQLite(newer);
    newerDb.exec("create table kysely_migration (name text, timestamp text)");
    newerDb.prepare("insert into kysely_migration values ('9999-from-the-future', '')").run();
    newerDb.close();
    const foreignKey = (await backUpToBucket(elsewhere, foreign, new Date("2020-01-01T00:00:00.000Z"), client)).key;
    const newerKey = (await backUpToBucket(elsewhere, newer, new Date("2020-01-02T00:00:00.000Z"), client)).key;
    await expect(restoreFromBucket(elsewhere, path.join(work, "a.db"), { key: foreignKey })).rejects.toThrow(
      /not a Trusted Sitters database/,
    );
    await expect(restoreFromBucket(elsewhere, path.join(work, "b.db"), { key: newerKey })).rejects.toThrow(
      /newer version/,
    );
    expect(existsSync(path.join(work, "a.db"))).toBe(false);
  });

  it("the scheduled round backs up once an interval has passed, applies retention, and leaves other objects alone", async () => {
    const prefixed = { ...settings, prefix: `scheduled-${randomUUID()}/` };
    const client = backupClient(settings.storage);
    await client.send(
      new PutObjectCommand({ Bucket: settings.storage.bucket, Key: `${prefixed.prefix}README.txt`, Body: "keep me" }),
    );
    for (const takenAt of ["2026-11-20T10:00:00.000Z", "2026-11-21T10:00:00.000Z", "2026-11-22T10:00:00.000Z"])
      await backUpToBucket(prefixed, databaseFile(), new Date(takenAt), client);

    const okBefore = (await backupRuns.get()).values.find((value) => value.labels.outcome === "ok")?.value ?? 0;
    expect(await backUpWhenDue(prefixed)).toBe("taken");
    // Right after: not due again.
    expect(await backUpWhenDue(prefixed)).toBe("skipped");
    const okAfter = (await backupRuns.get()).values.find((value) => value.labels.outcome === "ok")?.value ?? 0;
    expect(okAfter).toBe(okBefore + 1);
    // keepHourly 2, keepDaily 1: the new one and the newest older one.
    const left = await listBackups(prefixed);
    expect(left.map((backup) => backup.takenAt.toISOString()).slice(1)).toEqual(["2026-11-22T10:00:00.000Z"]);
    const objects = await client.send(
      new ListObjectsV2Command({
        Bucket: settings.storage.bucket,
        Prefix: prefixed.prefix,
      }),
    );
    expect(objects.Contents?.map((object) => object.Key)).toContain(`${prefixed.prefix}README.txt`);
    expect(backupStatus(prefixed)).toMatchObject({ lastSuccessAt: left[0]!.takenAt.toISOString(), stale: false });
    // A day and more later with no new backup: the console's alarm.
    expect(backupStatus(prefixed, new Date(left[0]!.takenAt.getTime() + DAY + 1000)).stale).toBe(true);
    const text = await registry.getSingleMetricAsString("trusted_sitters_backup_last_success_timestamp_seconds");
    expect(text).toContain(String(left[0]!.takenAt.getTime() / 1000));
  });

  it("a failed round is counted, logged and remembered for the console", async () => {
    const unreachable: BackupSettings = {
      ...settings,
      storage: { ...settings.storage, endpoint: "http://127.0.0.1:9", bucket: "nowhere" },
    };
    const failedBefore = (await backupRuns.get()).values.find((value) => value.labels.outcome === "failed")?.value ?? 0;
    await expect(backUpWhenDue(unreachable)).rejects.toThrow();
    const failedAfter = (await backupRuns.get()).values.find((value) => value.labels.outcome === "failed")?.value ?? 0;
    expect(failedAfter).toBe(failedBefore + 1);
    expect(backupStatus(unreachable)).toMatchObject({ configured: true, lastSuccessAt: null, stale: true });
    expect(backupStatus(unreachable).lastFailureAt).not.toBeNull();
    expect(backupStatus(null)).toMatchObject({ configured: false, stale: false });
  });
});
