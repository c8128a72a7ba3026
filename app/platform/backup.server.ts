import { cp, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";

// SQLite's online backup copies a state the database really was in; media files, never changed, are copied after it.
export async function backupDataDir(dataDir: string, destination: string): Promise<{ databaseFile: string; integrity: string }> {
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
  const media = path.join(dataDir, "media");
  if (existsSync(media)) await cp(media, path.join(destination, "media"), { recursive: true, force: false, errorOnExist: false });
  return { databaseFile, integrity };
}
