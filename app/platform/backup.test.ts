import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { person } from "~/testing/people";
import { notify } from "~/features/notifications/index.server";
import { backupDataDir, postgresBackupAdvice } from "./backup.server";
import { databaseEngine, db, isDatabaseHealthy, migrateToLatest, openDatabase } from "./db.server";
import { env } from "./env.server";

// SQLite's file backup: on PostgreSQL the database is the server's to back up (see postgresBackupAdvice).
const onSqlite = databaseEngine === "sqlite";

describe("backups", () => {
  it.runIf(onSqlite)(
    "copy a consistent database while writes go on, and the app starts on a restored copy",
    async () => {
      const owner = await person("owner");
      // Each write is one transaction of two rows (the notification and its live event).
      let writes = 0;
      let writing = true;
      const writer = (async () => {
        while (writing) {
          await db
            .transaction()
            .execute((trx) =>
              notify({ userId: owner.id, type: "message", data: { name: "A", preview: String(writes) } }, trx),
            );
          writes += 1;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      while (writes < 20) await new Promise((resolve) => setTimeout(resolve, 5));
      const destination = mkdtempSync(path.join(tmpdir(), "backup-"));
      const { databaseFile, integrity } = await backupDataDir(env.DATA_DIR, destination);
      const writesAtEnd = writes;
      writing = false;
      await writer;
      expect(integrity).toBe("ok");

      // Restore: the backup becomes the data directory of a new start.
      const restoredDir = mkdtempSync(path.join(tmpdir(), "restored-"));
      cpSync(destination, restoredDir, { recursive: true });
      const restored = openDatabase(path.join(restoredDir, path.basename(databaseFile)));
      try {
        await migrateToLatest(restored);
        expect(await isDatabaseHealthy(restored)).toBe(true);
        const count = async (table: "notifications" | "live_events") =>
          Number(
            (
              await restored
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number>().as("n"))
                .where("user_id", "=", owner.id)
                .executeTakeFirstOrThrow()
            ).n,
          );
        const notifications = await count("notifications");
        // Whole transactions only: never a notification without its event.
        expect(await count("live_events")).toBe(notifications);
        expect(notifications).toBeGreaterThanOrEqual(20);
        expect(notifications).toBeLessThanOrEqual(writesAtEnd + 1);
      } finally {
        await restored.destroy();
      }
    },
  );

  it.runIf(onSqlite)(
    "copy the media folder with local storage; with S3, leave the bucket alone and say how to back it up",
    async () => {
      mkdirSync(path.join(env.DATA_DIR, "media"), { recursive: true });
      writeFileSync(path.join(env.DATA_DIR, "media", "0000-full.webp"), "webp");
      const local = mkdtempSync(path.join(tmpdir(), "backup-"));
      expect((await backupDataDir(env.DATA_DIR, local, null)).media).toEqual({ stored: "folder", copied: true });
      expect(existsSync(path.join(local, "media", "0000-full.webp"))).toBe(true);

      const bucket = {
        bucket: "sitters-media",
        endpoint: "https://storage.example",
        region: "auto",
        accessKeyId: "id",
        secretAccessKey: "secret",
        forcePathStyle: false,
      };
      const withS3 = mkdtempSync(path.join(tmpdir(), "backup-"));
      const { integrity, media } = await backupDataDir(env.DATA_DIR, withS3, bucket);
      expect(integrity).toBe("ok");
      expect(existsSync(path.join(withS3, "media"))).toBe(false);
      if (media.stored !== "bucket") throw new Error("expected the bucket's advice");
      expect(media.advice).toMatch(/NOT in this backup/);
      expect(media.advice).toContain('"sitters-media" at https://storage.example');
      expect(media.advice).toMatch(/versioning/);
      expect(media.advice).toMatch(/replicat/);
      expect(media.advice).not.toContain("secret");
    },
  );

  it("on PostgreSQL, say how to dump the database: the URL's host, port, user and database, never its password", () => {
    const advice = postgresBackupAdvice("postgres://sitters:s3cr%40t@db.internal:6543/trusted?sslmode=require");
    expect(advice).toContain(
      "pg_dump --format=custom --host=db.internal --port=6543 --username=sitters --dbname=trusted",
    );
    expect(advice).toMatch(/pg_restore/);
    expect(advice).not.toMatch(/s3cr/);
    expect(postgresBackupAdvice("postgresql://db.internal/app")).toContain(
      "--host=db.internal --port=5432 --username=postgres --dbname=app",
    );
  });
});
