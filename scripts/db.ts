/** npm run db:migrate | npm run db:seed — run against DATABASE_URL (PostgreSQL) when set, else DATA_DIR (default ./data). */
import "./load-env.js";
import { databaseEngine, db, databaseFile, migrateToLatest } from "~/platform/db.server";
import { printDemoLogins, seedDemoData } from "~/demo/seed.server";

const command = process.argv[2];
try {
  await migrateToLatest();
  if (command === "migrate") {
    console.log(
      `Database ${databaseEngine === "postgres" ? "(PostgreSQL, DATABASE_URL)" : databaseFile()} is up to date.`,
    );
  } else if (command === "seed") {
    const logins = await seedDemoData();
    if (logins && logins.length > 0) printDemoLogins(logins);
    else console.log("Demo data is already there.");
  } else {
    console.error("Usage: tsx scripts/db.ts migrate|seed");
    process.exitCode = 2;
  }
} finally {
  await db.destroy();
}
