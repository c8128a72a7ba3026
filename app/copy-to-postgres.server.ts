import { existsSync } from "node:fs";
import path from "node:path";
import { databaseEngine, databaseFile, db, migrateToLatest, openDatabase } from "~/platform/db.server";
import { copySqliteToPostgres, type TableCopy } from "~/platform/db-copy.server";
import { copyMediaFolder, fileStorage, type FolderCopy } from "~/features/media/index.server";

export interface MoveResult {
  tables: TableCopy[];
  /** Null when media stay in the local folder (MEDIA_STORAGE is not s3): nothing to move. */
  media: FolderCopy | null;
}

/**
 * Moves a one-machine installation across: the SQLite database of DATA_DIR into the PostgreSQL
 * database of DATABASE_URL (migrated first), and, with MEDIA_STORAGE=s3, DATA_DIR/media into the bucket.
 */
export async function copyToPostgres(
  dataDir: string,
  options: { replace?: boolean; log?: (line: string) => void } = {},
): Promise<MoveResult> {
  if (databaseEngine !== "postgres")
    throw new Error("Set DATABASE_URL to the new PostgreSQL database (postgres://…) first.");
  const sourceFile = databaseFile(dataDir);
  // An older SQLite database is brought up to this version first, so both have the same tables.
  if (!existsSync(sourceFile))
    throw new Error(`No SQLite database at ${sourceFile}: set DATA_DIR to the folder that holds trusted-sitters.db.`);
  const source = openDatabase(sourceFile);
  try {
    await migrateToLatest(source);
  } finally {
    await source.destroy();
  }
  await migrateToLatest(db);
  const tables = await copySqliteToPostgres(sourceFile, db, options);
  const media =
    fileStorage.kind === "s3" ? await copyMediaFolder(path.join(dataDir, "media"), fileStorage, options.log) : null;
  return { tables, media };
}
