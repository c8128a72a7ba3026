import pg from "pg";

// Unit tests on PostgreSQL (TEST_DATABASE_URL set): global-setup migrates a template database once and
// copies it for each worker, and every test file gets its own copy of its worker's (CREATE DATABASE …
// TEMPLATE, a file copy on the server).

/** The URL of `database` on the cluster `url` points to. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function onCluster<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The copies of the template that the workers make their databases from, one per worker. */
export function workerTemplates(template: string, workers: number): string[] {
  return Array.from({ length: workers }, (_, i) => `${template}_${i + 1}`);
}

/** Of the workers' templates, the one of the worker running this file (Vitest numbers its workers from 1). */
export function templateOfThisWorker(templates: string[]): string {
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  return templates[(worker - 1) % templates.length]!;
}

/** Creates `database` from the template; retried while another copy of the template is being made. */
export async function createFromTemplate(url: string, template: string, database: string): Promise<void> {
  await onCluster(url, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database "${database}" template "${template}"`);
        return;
      } catch (error) {
        if (attempt >= 50 || !/being accessed by other users/.test(String(error))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
}

export async function dropDatabase(url: string, database: string): Promise<void> {
  await onCluster(url, (client) => client.query(`drop database if exists "${database}" with (force)`));
}
