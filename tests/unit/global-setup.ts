import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { databaseUrl, dropDatabase, onCluster } from "./postgres";

/** A migrated database file that every test file starts from (copied by worker-setup.ts). */
export const templateDir = path.resolve("tests/.tmp/unit");

declare module "vitest" {
  export interface ProvidedContext {
    /** On PostgreSQL: the migrated database every test file's database is copied from. */
    templateDatabase: string | null;
  }
}

export default async function setup(project: TestProject) {
  rmSync(templateDir, { recursive: true, force: true });
  mkdirSync(templateDir, { recursive: true });
  process.env.DATA_DIR = path.join(templateDir, "template");
  process.env.NODE_ENV = "test";
  // On PostgreSQL (TEST_DATABASE_URL), the template is a database of the cluster instead of a file,
  // named for this run so that runs sharing a cluster never touch each other's.
  const cluster = process.env.TEST_DATABASE_URL;
  const template = cluster ? `trusted_sitters_template_${randomUUID().replaceAll("-", "").slice(0, 12)}` : null;
  if (cluster && template) {
    await onCluster(cluster, (client) => client.query(`create database "${template}"`));
    process.env.DATABASE_URL = databaseUrl(cluster, template);
  } else {
    delete process.env.DATABASE_URL;
  }
  project.provide("templateDatabase", template);
  const { db, migrateToLatest } = await import("../../app/platform/db.server");
  await migrateToLatest();
  await db.destroy();
  if (cluster && template) {
    return async () => {
      await dropDatabase(cluster, template);
    };
  }
}
