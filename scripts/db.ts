/** npm run db:migrate | db:seed | db:backup [folder] — run against DATA_DIR (default ./data). */
import path from "node:path";
import { seedDemoData } from "~db/seed";
import { backupDataDir } from "~/platform/backup.server";
import { env } from "~/platform/env.server";
import { db, databaseFile, migrateToLatest } from "~/platform/db.server";
import { printDemoLogins } from "~/platform/lifecycle.server";

const command = process.argv[2];
if (command === "backup") {
  // The live database is not touched beyond reading: no migration, so a backup never changes what it copies.
  const destination = path.resolve(process.argv[3] ?? path.join(env.DATA_DIR, "backups", new Date().toISOString().replace(/[:.]/g, "-")));
  const { databaseFile, integrity } = await backupDataDir(env.DATA_DIR, destination);
  console.log(`Backup written to ${path.dirname(databaseFile)} (integrity check: ${integrity}).`);
  process.exit(integrity === "ok" ? 0 : 1);
}
try {
  await migrateToLatest();
  if (command === "migrate") {
    console.log(`Database ${databaseFile()} is up to date.`);
  } else if (command === "seed") {
    const logins = await seedDemoData(db);
    if (logins && logins.length > 0) printDemoLogins(logins);
    else console.log("Demo data is already there.");
  } else {
    console.error("Usage: tsx scripts/db.ts migrate|seed|backup [folder]");
    process.exitCode = 2;
  }
} finally {
  await db.destroy();
}
