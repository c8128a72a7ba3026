import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";

/** A migrated database file that every test file starts from (copied by worker-setup.ts). */
export const templateDir = path.resolve("tests/.tmp/unit");

export default async function setup() {
  rmSync(templateDir, { recursive: true, force: true });
  mkdirSync(templateDir, { recursive: true });
  process.env.DATA_DIR = path.join(templateDir, "template");
  process.env.NODE_ENV = "test";
  const { db, migrateToLatest } = await import("../../app/platform/db.server");
  await migrateToLatest();
  await db.destroy();
}
