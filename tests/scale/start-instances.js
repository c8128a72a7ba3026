// Starts two instances of the production build (the same code a load balancer would spread requests
// over) on two ports, both on one fresh PostgreSQL database and one S3-compatible bucket (s3rver), and
// stops everything, the database included, when it is told to stop.
//
// TEST_DATABASE_URL is an admin URL of a PostgreSQL server (scripts/test.sh starts a throwaway cluster
// and passes its URL): a database of this run's own is created there and dropped at the end.
// SCALE_PORTS (default 4311,4312) are the instances' ports.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import S3rver from "s3rver";

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error(
    "TEST_DATABASE_URL is not set: give the admin URL of a PostgreSQL server (scripts/test.sh starts a throwaway one).",
  );
  process.exit(1);
}
const ports = (process.env.SCALE_PORTS ?? "4311,4312").split(",").map(Number);
const root = path.resolve("tests/.tmp/scale");
rmSync(root, { recursive: true, force: true });
mkdirSync(root, { recursive: true });

const children = [];
let database = "";
let s3;
let stopping = false;

async function adminQuery(text) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

async function stop(code) {
  if (stopping) return;
  stopping = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const force = setTimeout(() => child.kill("SIGKILL"), 10_000);
          child.once("exit", () => {
            clearTimeout(force);
            resolve();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
  if (database)
    await adminQuery(`drop database if exists "${database}" with (force)`).catch((error) =>
      console.error(`Could not drop ${database}:`, error.message),
    );
  await s3?.close().catch(() => {});
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
// Whoever started this (the test runner) may be killed without telling it: then stop, rather than
// leave two servers holding the ports for the next run.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void stop(1);
}, 1000).unref();

/** Refuses a port something else listens on: its answers to /healthz would pass for ours. */
async function ensureFree(port) {
  const taken = await new Promise((resolve) => {
    const probe = net.connect(port, "localhost");
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (taken)
    throw new Error(`Port ${port} is already in use: stop what listens there, or choose other ports with SCALE_PORTS.`);
}

try {
  for (const port of ports) await ensureFree(port);
  // One database per run, so a run never meets an earlier run's rows (or a leftover of one that crashed).
  database = `trusted_sitters_scale_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  await adminQuery(`create database "${database}"`);
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;

  const bucket = "scale-media";
  s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: path.join(root, "s3"),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port: s3Port } = await s3.run();

  const shared = {
    ...process.env,
    NODE_ENV: "production",
    TEST_MODE: "true",
    DATABASE_URL: databaseUrl.toString(),
    // Sessions live in the database; both instances must read each other's cookies.
    SESSION_SECRET: randomBytes(32).toString("hex"),
    MEDIA_STORAGE: "s3",
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: "true",
    AUTH_RATE_LIMIT: "10000",
    AUTH_RESET_RATE_LIMIT: "10000",
  };
  delete shared.TEST_DATABASE_URL;

  // Both start at once: the migrator holds PostgreSQL's advisory lock, so one instance migrates and
  // the other waits for it, then finds nothing left to do.
  for (const [index, port] of ports.entries()) {
    // A data folder of each instance's own: nothing is meant to be shared through the disk.
    const dataDir = path.join(root, `instance-${index + 1}`);
    const child = spawn(process.execPath, ["server.js"], {
      env: { ...shared, PORT: String(port), DATA_DIR: dataDir, APP_URL: `http://localhost:${port}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const label = `[instance ${index + 1}] `;
    child.stdout.on("data", (chunk) => process.stdout.write(String(chunk).replace(/^(?=.)/gm, label)));
    child.stderr.on("data", (chunk) => process.stderr.write(String(chunk).replace(/^(?=.)/gm, label)));
    child.on("exit", (code, signal) => {
      if (stopping) return;
      console.error(`${label}stopped on its own (${signal ?? code}): stopping everything.`);
      void stop(1);
    });
    children.push(child);
  }

  const deadline = Date.now() + 90_000;
  for (const port of ports) {
    for (;;) {
      const healthy = await fetch(`http://localhost:${port}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) break;
      if (Date.now() > deadline) throw new Error(`The instance on port ${port} did not become healthy in time.`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  // playwright.scale.config.ts waits for this line and hands the URL to the tests.
  console.log(`Both instances are ready on ${databaseUrl.toString()}`);
} catch (error) {
  console.error(error);
  await stop(1);
}
