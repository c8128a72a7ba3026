// npm run db:backup [folder]: a consistent copy of the live database and media of DATA_DIR
// (with MEDIA_STORAGE=s3, the database only, and how to back up the bucket instead).
// Plain JavaScript over the built app, so it also runs inside the production image
// (`node scripts/backup.js /data/backups/today`). Needs `npm run build` first.
import path from "node:path";
import "./load-env.js";

const build = await import("../build/server/index.js").catch((error) => {
  // Loading the app also checks the settings (e.g. MEDIA_STORAGE=s3 without its keys): say which failed.
  console.error(error?.code === "ERR_MODULE_NOT_FOUND" ? "No build found: run `npm run build` first." : error.message);
  process.exit(2);
});
const dataDir = process.env.DATA_DIR ?? "./data";
const destination = path.resolve(process.argv[2] ?? path.join(dataDir, "backups", new Date().toISOString().replace(/[:.]/g, "-")));
const { databaseFile, integrity, media } = await build.entry.module.backupDataDir(dataDir, destination);
console.log(`Backup written to ${path.dirname(databaseFile)} (integrity check: ${integrity}).`);
if (media.stored === "bucket") console.log(`\n${media.advice}`);
process.exit(integrity === "ok" ? 0 : 1);
