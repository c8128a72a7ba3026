import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { TEMPLATE_DATABASE, databaseUrl, dropDatabase, onCluster } from "./postgres";

/** A migrated database file that every test file starts from (copied by worker-setup.ts). */
export const templateDir = path.resolve("tests/.tmp/unit");

export default async function setup() {
  rmSync(templateDir, { recursive: true, force: true });
  mkdirSync(templateDir, { recursive: true });
  process.env.DATA_DIR = path.join(templateDir, "template");
  process.env.NODE_ENV = "test";
  // On PostgreSQL (TEST_DATABASE_URL), the template is a database of the cluster instead of a file.
  const cluster = process.env.TEST_DATABASE_URL;
  if (cluster) {
    await dropDatabase(cluster, TEMPLATE_DATABASE);
    await onCluster(cluster, (client) => client.query(`create database "${TEMPLATE_DATABASE}"`));
    process.env.DATABASE_URL = databaseUrl(cluster, TEMPLATE_DATABASE);
  } else {
    delete process.env.DATABASE_URL;
  }
  const { db, migrateToLatest } = await import("../../app/platform/db.server");
  await migrateToLatest();
  await db.destroy();
  if (cluster) {
    return async () => {
      await dropDatabase(cluster, TEMPLATE_DATABASE);
    };
  }
}
