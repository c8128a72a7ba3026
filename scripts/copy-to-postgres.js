// npm run db:copy-to-postgres [-- --replace]: moves a one-machine installation to PostgreSQL.
// Copies every table of DATA_DIR/trusted-sitters.db into the database of DATABASE_URL (migrated first,
// in one transaction, row counts checked) and, with MEDIA_STORAGE=s3, DATA_DIR/media into the bucket.
// Stop the app first. Plain JavaScript over the built app, so it also runs inside the production image
// (`node scripts/copy-to-postgres.js`). Needs `npm run build` first.
import "./load-env.js";

const replace = process.argv.includes("--replace");
const unknown = process.argv.slice(2).filter((argument) => argument !== "--replace");
if (unknown.length > 0) {
  console.error(
    `Unknown argument: ${unknown.join(" ")}\nUsage: DATABASE_URL=postgres://… DATA_DIR=./data npm run db:copy-to-postgres [-- --replace]`,
  );
  process.exit(2);
}
const build = await import("../build/server/index.js").catch((error) => {
  console.error(error?.code === "ERR_MODULE_NOT_FOUND" ? "No build found: run `npm run build` first." : error.message);
  process.exit(2);
});
const dataDir = process.env.DATA_DIR ?? "./data";
try {
  const { tables, media } = await build.entry.module.copyToPostgres(dataDir, {
    replace,
    log: (line) => console.log(line),
  });
  const rows = tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(`Copied ${tables.length} tables (${rows} rows); every table's row count matches the SQLite database.`);
  if (media) {
    console.log(`Media: ${media.copied} files copied to the bucket, ${media.alreadyThere} already there.`);
    if (media.skipped.length > 0)
      console.log(`Left in the folder (not media the app wrote): ${media.skipped.join(", ")}`);
  } else {
    console.log(
      "Media stay in DATA_DIR/media (MEDIA_STORAGE is not s3): give every instance that folder, or move to a bucket.",
    );
  }
  process.exit(0);
} catch (error) {
  console.error(`Stopped: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
