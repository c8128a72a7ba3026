import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { databaseUrl, dropDatabase, onCluster, workerTemplates } from "./postgres";

/** A migrated database file that every test file starts from (copied by worker-setup.ts). */
export const templateDir = path.resolve("tests/.tmp/unit");

declare module "vitest" {
  export interface ProvidedContext {
    /** On PostgreSQL: the migrated databases each worker copies its test files' databases from, one per worker. */
    templateDatabases: string[];
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
  const { db, migrateToLatest } = await import("../../app/platform/db.server");
  await migrateToLatest();
  await db.destroy();
  if (cluster && template) {
    // PostgreSQL copies a template for one CREATE DATABASE at a time: each worker gets a template of its
    // own, so that workers starting their files together do not queue for one.
    const copies = workerTemplates(template, project.config.maxWorkers);
    await onCluster(cluster, async (client) => {
      for (const copy of copies) await client.query(`create database "${copy}" template "${template}"`);
    });
    project.provide("templateDatabases", copies);
    return async () => {
      for (const database of [template, ...copies]) await dropDatabase(cluster, database);
    };
  }
  project.provide("templateDatabases", []);
}
