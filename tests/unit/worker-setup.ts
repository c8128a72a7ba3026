import { copyFileSync, mkdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { createFromTemplate, databaseUrl, dropDatabase, templateOfThisWorker } from "./postgres";

// Runs before each test file's imports: point the app at a fresh copy of the migrated template,
// so every test file has a real database of its own (a SQLite file, or a PostgreSQL database when
// TEST_DATABASE_URL names a cluster).
const templateDir = path.resolve("tests/.tmp/unit");
const runId = randomUUID();
const dataDir = path.join(templateDir, `run-${runId}`);
mkdirSync(dataDir, { recursive: true });
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "test";

const cluster = process.env.TEST_DATABASE_URL;
const templates = inject("templateDatabases");
if (cluster && templates.length > 0) {
  const database = `trusted_sitters_${runId.replaceAll("-", "")}`;
  await createFromTemplate(cluster, templateOfThisWorker(templates), database);
  process.env.DATABASE_URL = databaseUrl(cluster, database);
  afterAll(async () => {
    const { db } = await import("../../app/platform/db.server");
    await db.destroy().catch(() => undefined);
    await dropDatabase(cluster, database);
  });
} else {
  delete process.env.DATABASE_URL;
  copyFileSync(path.join(templateDir, "template", "trusted-sitters.db"), path.join(dataDir, "trusted-sitters.db"));
}
