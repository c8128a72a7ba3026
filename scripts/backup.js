// npm run db:backup [folder]: a consistent copy of the live database and media of DATA_DIR
// (with MEDIA_STORAGE=s3, the database only, and how to back up the bucket instead).
// With DATABASE_URL (PostgreSQL): runs pg_dump into the folder when pg_dump is installed and a
// folder is given; otherwise prints the pg_dump command to use (never the password) and exits 0.
// Media on local disk are copied into the folder either way.
// Plain JavaScript over the built app, so it also runs inside the production image
// (`node scripts/backup.js /data/backups/today`). Needs `npm run build` first.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import "./load-env.js";

const build = await import("../build/server/index.js").catch((error) => {
  // Loading the app also checks the settings (e.g. MEDIA_STORAGE=s3 without its keys): say which failed.
  console.error(error?.code === "ERR_MODULE_NOT_FOUND" ? "No build found: run `npm run build` first." : error.message);
  process.exit(2);
});
const dataDir = process.env.DATA_DIR ?? "./data";
const databaseUrl = process.env.DATABASE_URL;

if (databaseUrl) {
  const { postgresBackupAdvice, bucketBackupAdvice } = build.entry.module;
  const hasPgDump = spawnSync("pg_dump", ["--version"], { stdio: "ignore" }).status === 0;
  if (!process.argv[2] || !hasPgDump) {
    console.log(postgresBackupAdvice(databaseUrl));
    if (!hasPgDump) console.log("\n(pg_dump is not installed here, so nothing was dumped.)");
    process.exit(0);
  }
  const destination = path.resolve(process.argv[2]);
  mkdirSync(destination, { recursive: true });
  const file = path.join(destination, "trusted-sitters.pgdump");
  // The password goes to pg_dump through its environment, not its command line (which others can read).
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  const dump = spawnSync("pg_dump", ["--format=custom", `--file=${file}`, `--dbname=${url.toString()}`], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  });
  if (dump.status !== 0) {
    console.error("pg_dump failed (see above): no database backup was written.");
    process.exit(1);
  }
  console.log(`Database dumped to ${file} (restore with pg_restore).`);
  const media = path.join(dataDir, "media");
  if (process.env.MEDIA_STORAGE === "s3")
    console.log(`\n${bucketBackupAdvice({ bucket: process.env.S3_BUCKET, endpoint: process.env.S3_ENDPOINT })}`);
  else if (existsSync(media)) {
    cpSync(media, path.join(destination, "media"), { recursive: true, force: false, errorOnExist: false });
    console.log(`Media copied to ${path.join(destination, "media")}.`);
  }
  process.exit(0);
}

const destination = path.resolve(
  process.argv[2] ?? path.join(dataDir, "backups", new Date().toISOString().replace(/[:.]/g, "-")),
);
const { databaseFile, integrity, media } = await build.entry.module.backupDataDir(dataDir, destination);
console.log(`Backup written to ${path.dirname(databaseFile)} (integrity check: ${integrity}).`);
if (media.stored === "bucket") console.log(`\n${media.advice}`);
process.exit(integrity === "ok" ? 0 : 1);
