// Server CPU per request of signed-in /dashboard and /messages over 10,000 sitters and 100,000 messages,
// asked for as browsers do (Accept-Encoding: gzip), against a reference page served in the same run: a
// bare Remix 2 + React 18 route (one loader, a 20-item list, the same compression) built on its own in
// bench/reference, on its own node_modules at the app's versions; the app's are stock too (nothing is
// patched), so the ratio compares like with like. The ratio is the reference's CPU per request over the page's, which is the page's
// share of the reference's requests per second on one core, and is steadier than requests per second
// on a machine others share. The reference and the pages are loaded in turns (ROUNDS slices of a few
// seconds each, after an uncounted warm-up), so that a machine whose speed drifts during the run
// slows all of them alike. Run after `npm run build`: `npx tsx bench/server-throughput.ts`
// (BENCH_PORT, default 3302; the reference listens on the next port).
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import SQLite from "better-sqlite3";
import { CITIES, DEMO_USER, fixed, randomSource, runsAlone, signIn, startServer } from "./support";

// Importing db/seed.ts would open the app's database.
const DEMO_PASSWORD = "happy-paws-2026";
const SITTERS = 10_000;
const OWNERS = 2_000;
const MESSAGES = 100_000;
// More conversations than the list shows (100).
const DEMO_CONVERSATIONS = 400;
const DEMO_MESSAGES_EACH = 40;
const OTHER_MESSAGES_EACH = 20;
const CONNECTIONS = 10;
const SECONDS = 10;
/** Each target's SECONDS are served in this many slices, in turn with the others. */
const ROUNDS = 5;
const WARM_UP_SECONDS = 2;
/** Each signed-in page serves at least this share of the reference page's requests per second. */
export const SERVER_TARGET_RATIO = 0.3;
const REFERENCE_DIR = path.resolve("bench/reference");

export interface PageThroughput {
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Milliseconds of the server process's CPU (user + system) per request. */
  cpuMsPerRequest: number;
  /** The reference page's CPU per request over this page's. */
  ratioToReference: number;
  failures: number;
}

export interface ServerThroughput {
  sitters: number;
  messages: number;
  demoConversations: number;
  connections: number;
  seconds: number;
  pages: PageThroughput[];
}

const SENTENCES = [
  "Hi! Are you free on Saturday morning?",
  "Sure, what time suits you?",
  "Around 9 would be perfect.",
  "She loves the park, bring treats!",
  "Can you send a photo when you're out?",
  "Of course, I always do.",
  "He pulls a bit at the start, then calms down.",
  "Thank you so much, see you then.",
  "The key is with the neighbour on the second floor.",
  "All done, he drank lots of water.",
  "Could we do an hour instead of two next week?",
  "No problem at all.",
  "She was a bit shy today but happy by the end.",
];
const EXPERIENCE = [
  "largeDogs",
  "smallDogs",
  "puppies",
  "seniorDogs",
  "cats",
  "kittens",
  "highEnergy",
  "basicTraining",
  "specialNeeds",
  "multiplePets",
];

export function growDemoDatabase(
  file: string,
  demoEmail = DEMO_USER,
): { sitters: number; messages: number; demoConversations: number } {
  const { random, around, pick } = randomSource(7);
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  const demo = database.prepare("select id from users where email = ?").get(demoEmail) as { id: string } | undefined;
  if (!demo) throw new Error(`${demoEmail} is not in the demo database`);
  const start = Date.UTC(2026, 0, 1);
  const iso = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
  const insertUser =
    database.prepare(`insert into users (id, email, password_hash, email_verified_at, name, phone, city, postal_code, role, bio,
    latitude, longitude, location_enabled, hourly_rate_cents, experience, cares_for, cares_for_mask, rating_average, review_count, time_zone, created_at, updated_at)
    values (?, ?, 'not-a-password', ?, ?, '+34 600 000 000', ?, '00000', ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, 'Europe/Madrid', ?, ?)`);
  const insertPet = database.prepare(
    `insert into pets (id, owner_id, name, pet_type, age, breed, created_at, updated_at) values (?, ?, ?, ?, '3 years', 'other', ?, ?)`,
  );
  const insertMatch = database.prepare(
    "insert into matches (id, user_a_id, user_b_id, created_at) values (?, ?, ?, ?)",
  );
  const insertConversation = database.prepare(
    "insert into conversations (id, user_a_id, user_b_id, created_at, last_message_at) values (?, ?, ?, ?, ?)",
  );
  const insertMessage = database.prepare(
    "insert into messages (conversation_id, sender_id, body, created_at) values (?, ?, ?, ?)",
  );
  const insertRead = database.prepare(
    "insert or replace into conversation_reads (conversation_id, user_id, last_read_message_id, unread_count) values (?, ?, ?, ?)",
  );
  const setLastMessageAt = database.prepare("update conversations set last_message_at = ? where id = ?");
  let minute = 0;
  let messages = 0;

  const converse = (one: string, two: string, count: number) => {
    const [a, b] = one < two ? [one, two] : [two, one];
    const id = randomUUID();
    const opened = iso(minute);
    insertConversation.run(id, a, b, opened, null);
    insertMatch.run(randomUUID(), a, b, opened);
    let lastId = 0;
    const lastRead = new Map<string, number>();
    const sent: [number, string][] = [];
    for (let i = 0; i < count; i += 1) {
      minute += 1;
      const sender = random() < 0.5 ? one : two;
      lastId = Number(insertMessage.run(id, sender, pick(SENTENCES), iso(minute)).lastInsertRowid);
      lastRead.set(sender, lastId);
      sent.push([lastId, sender]);
    }
    // A quarter of the conversations end with messages their reader has not seen yet (and count them, as the app does).
    for (const person of [one, two]) {
      const readUpTo = random() < 0.25 ? (lastRead.get(person) ?? 0) : lastId;
      insertRead.run(
        id,
        person,
        readUpTo,
        sent.filter(([messageId, sender]) => messageId > readUpTo && sender !== person).length,
      );
    }
    setLastMessageAt.run(iso(minute), id);
    messages += count;
  };

  database.transaction(() => {
    const sitters: string[] = [];
    for (let i = 0; i < SITTERS; i += 1) {
      const city = pick(CITIES);
      const [latitude, longitude] = around(city);
      const reviews = random() < 0.7 ? 1 + Math.floor(random() * 40) : 0;
      const id = randomUUID();
      sitters.push(id);
      insertUser.run(
        id,
        `sitter-${i}@bench.trustedsitters.app`,
        iso(i),
        `Sitter ${i}`,
        city[0],
        "sitter",
        "Happy to walk and feed your pets.",
        latitude,
        longitude,
        800 + Math.floor(random() * 18) * 100,
        JSON.stringify([pick(EXPERIENCE), pick(EXPERIENCE)]),
        ...pick<[string, number]>([
          ['["dog"]', 1],
          ['["cat"]', 2],
          ['["dog","cat"]', 3],
        ]),
        reviews ? Math.round((3 + random() * 2) * 10) / 10 : null,
        reviews,
        iso(i),
        iso(i),
      );
    }
    const owners: string[] = [];
    for (let i = 0; i < OWNERS; i += 1) {
      const city = pick(CITIES);
      const [latitude, longitude] = around(city);
      const id = randomUUID();
      owners.push(id);
      insertUser.run(
        id,
        `owner-${i}@bench.trustedsitters.app`,
        iso(i),
        `Owner ${i}`,
        city[0],
        "owner",
        "",
        latitude,
        longitude,
        null,
        "[]",
        "[]",
        0,
        null,
        0,
        iso(i),
        iso(i),
      );
      insertPet.run(randomUUID(), id, `Pet ${i}`, random() < 0.6 ? "dog" : "cat", iso(i), iso(i));
    }
    for (let i = 0; i < DEMO_CONVERSATIONS; i += 1) converse(demo.id, sitters[i]!, DEMO_MESSAGES_EACH);
    for (let i = 0; messages < MESSAGES; i += 1) {
      converse(
        owners[i % OWNERS]!,
        sitters[DEMO_CONVERSATIONS + ((i * 7) % (SITTERS - DEMO_CONVERSATIONS))]!,
        Math.min(OTHER_MESSAGES_EACH, MESSAGES - messages),
      );
    }
    database.prepare("update users set browse_mode = 'local' where id = ?").run(demo.id);
  })();
  database.pragma("wal_checkpoint(TRUNCATE)");
  database.close();
  return { sitters: SITTERS, messages, demoConversations: DEMO_CONVERSATIONS };
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU of a process so far, in ms (Linux: /proc/<pid>/stat, in clock ticks). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of the file (utime, stime); the first two (pid, comm) were cut off above.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

interface Target {
  label: string;
  pid: number;
  url: string;
  cookie: string | null;
}

interface Figures {
  requestsPerSecond: number;
  /** The median of the slices' medians, and the worst of their 99th percentiles. */
  p50Ms: number;
  p99Ms: number;
  cpuMsPerRequest: number;
  failures: number;
}

async function slice(target: Target, seconds: number) {
  const headers: Record<string, string> = { "accept-encoding": "gzip" };
  if (target.cookie) headers.cookie = target.cookie;
  const before = processCpuMs(target.pid);
  const result = await autocannon({ url: target.url, connections: CONNECTIONS, duration: seconds, headers });
  return { result, cpuMs: processCpuMs(target.pid) - before };
}

/** Loads the targets in turns, ROUNDS times each, and sums each one's requests and CPU. */
async function measureInTurns(targets: Target[]): Promise<Figures[]> {
  for (const target of targets) await slice(target, WARM_UP_SECONDS);
  const slices = targets.map(() => [] as Awaited<ReturnType<typeof slice>>[]);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, target] of targets.entries()) slices[index]!.push(await slice(target, SECONDS / ROUNDS));
  }
  return slices.map((taken) => {
    const requests = taken.reduce((sum, { result }) => sum + result.requests.total, 0);
    const p50s = taken.map(({ result }) => result.latency.p50).sort((a, b) => a - b);
    return {
      requestsPerSecond: requests / SECONDS,
      p50Ms: p50s[Math.floor(p50s.length / 2)]!,
      p99Ms: Math.max(...taken.map(({ result }) => result.latency.p99)),
      cpuMsPerRequest: taken.reduce((sum, { cpuMs }) => sum + cpuMs, 0) / Math.max(1, requests),
      failures: taken.reduce((sum, { result }) => sum + result.non2xx + result.errors + result.timeouts, 0),
    };
  });
}

function newestFile(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "build" || entry.name === "node_modules") continue;
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestFile(file) : statSync(file).mtimeMs);
  }
  return newest;
}

/** The reference runs on its own node_modules, at the app's versions from its package-lock.json. */
function installReferenceIfNeeded() {
  const installed = path.join(REFERENCE_DIR, "node_modules/.package-lock.json");
  if (
    existsSync(installed) &&
    statSync(installed).mtimeMs >= statSync(path.join(REFERENCE_DIR, "package-lock.json")).mtimeMs
  )
    return;
  const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--prefix", REFERENCE_DIR], {
    stdio: ["ignore", process.stderr, "inherit"],
  });
  if (result.status !== 0) throw new Error("The reference page's packages did not install");
}

export function buildReferenceIfNeeded() {
  installReferenceIfNeeded();
  const built = path.join(REFERENCE_DIR, "build/server/index.js");
  if (existsSync(built) && statSync(built).mtimeMs >= newestFile(REFERENCE_DIR)) return;
  const result = spawnSync("npx", ["remix", "vite:build", "--config", path.join(REFERENCE_DIR, "vite.config.ts")], {
    stdio: ["ignore", process.stderr, "inherit"],
  });
  if (result.status !== 0) throw new Error("The reference page's build failed");
}

async function startReference(port: number): Promise<{ origin: string; pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(REFERENCE_DIR, "server.js")], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port) },
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://localhost:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`The reference server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/`)).ok) return { origin, pid: child.pid!, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`The reference server did not start on port ${port}`);
}

/** Drops and creates `name` on the cluster of `adminUrl`; returns the new database's URL. */
async function freshPostgresDatabase(adminUrl: string, name: string): Promise<string> {
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function measureServerThroughput({
  port = Number(process.env.BENCH_PORT ?? 3302),
  log = console.log,
} = {}): Promise<ServerThroughput> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "throughput-bench-"));
  try {
    // The first start migrates and seeds the demo people; the database grows while the server is stopped.
    const seeding = await startServer(dataDir, port);
    await seeding.stop();
    const started = performance.now();
    const grown = growDemoDatabase(path.join(dataDir, "trusted-sitters.db"));
    log(
      `grew the demo database to ${grown.sitters.toLocaleString("en")} more sitters and ${grown.messages.toLocaleString("en")} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    buildReferenceIfNeeded();
    // The reference listens beside the app, on the next port, and is loaded in turns with its pages.
    const reference = await startReference(port + 1);
    const referenceTarget: Target = {
      label: "reference",
      pid: reference.pid,
      url: `${reference.origin}/`,
      cookie: null,
    };
    const report = (label: string, figures: Figures) =>
      log(
        `${label.padEnd(11)} ${fixed(figures.requestsPerSecond, 0).padStart(6)} req/s   ${fixed(figures.cpuMsPerRequest, 2).padStart(6)} ms CPU/request   p50 ${fixed(figures.p50Ms, 0).padStart(4)} ms   p99 ${fixed(figures.p99Ms, 0).padStart(4)} ms   (${CONNECTIONS} connections, ${SECONDS} s in ${ROUNDS} turns, gzip)`,
      );
    const measured: { path: string; figures: Figures; reference: Figures }[] = [];
    const measurePages = async (engine: string, extraEnv: Record<string, string> = {}) => {
      const server = await startServer(dataDir, port, extraEnv);
      try {
        const cookie = await signIn(server.origin, DEMO_USER, DEMO_PASSWORD);
        const targets: [string, string][] = [
          ["/dashboard", cookie],
          ["/messages", cookie],
        ];
        // Each page answers with its content before the load starts (a few tries: on a very busy machine
        // a cold first render can outlast the server's streaming timeout and end early).
        for (const [pathname, withCookie] of targets) {
          let problem: string | null = "not tried";
          for (let attempt = 0; attempt < 3 && problem; attempt += 1) {
            const response = await fetch(server.origin + pathname, {
              headers: { cookie: withCookie },
              redirect: "manual",
            });
            const body = await response.text();
            problem =
              response.status !== 200
                ? `answered ${response.status}, not 200`
                : pathname === "/messages" && !body.includes("/messages?c=")
                  ? `lists no conversation: ${body.replace(/\s+/g, " ").slice(0, 200)}`
                  : null;
          }
          if (problem) throw new Error(`${pathname} ${problem}`);
        }
        const pages = targets.map(([pathname, withCookie]): Target => ({
          label: engine === "sqlite" ? pathname : `${pathname} (${engine})`,
          pid: server.pid,
          url: server.origin + pathname,
          cookie: withCookie,
        }));
        const [referenceFigures, ...pageFigures] = await measureInTurns([referenceTarget, ...pages]);
        report(engine === "sqlite" ? "reference" : `reference (beside ${engine})`, referenceFigures!);
        if (!measured.length)
          measured.push({ path: "reference", figures: referenceFigures!, reference: referenceFigures! });
        for (const [index, page] of pages.entries()) {
          measured.push({ path: page.label, figures: pageFigures[index]!, reference: referenceFigures! });
          report(page.label, pageFigures[index]!);
        }
      } finally {
        await server.stop();
      }
    };
    try {
      await measurePages("sqlite");
      // THROUGHPUT_DATABASE_URL=postgres://… (a cluster's admin URL): the same pages again on PostgreSQL, in a fresh
      // database `throughput_bench` filled from the grown SQLite one by `npm run db:copy-to-postgres` itself. Only the
      // app's CPU is counted; PostgreSQL's own runs in its processes (requests/s and latency include it).
      const postgresUrl = process.env.THROUGHPUT_DATABASE_URL;
      if (postgresUrl) {
        const url = await freshPostgresDatabase(postgresUrl, "throughput_bench");
        const settings = {
          DEMO_MODE: "true",
          DATABASE_URL: url,
          SESSION_SECRET: "throughput-bench-session-secret-0123456789",
        };
        const copy = spawnSync(process.execPath, ["scripts/copy-to-postgres.js"], {
          env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, ...settings },
          encoding: "utf8",
        });
        if (copy.status !== 0) throw new Error(`db:copy-to-postgres failed: ${copy.stderr || copy.stdout}`);
        log(copy.stdout.trim().split("\n").at(-2) ?? "copied");
        await measurePages("postgres", settings);
      }
    } finally {
      await reference.stop();
    }
    return {
      ...grown,
      connections: CONNECTIONS,
      seconds: SECONDS,
      pages: measured.map(({ path: pathname, figures, reference }) => ({
        path: pathname,
        requestsPerSecond: figures.requestsPerSecond,
        p50Ms: figures.p50Ms,
        p99Ms: figures.p99Ms,
        cpuMsPerRequest: figures.cpuMsPerRequest,
        // Each page against the reference served in turns with it.
        ratioToReference: reference.cpuMsPerRequest / figures.cpuMsPerRequest,
        failures: figures.failures,
      })),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (runsAlone(import.meta.url)) {
  const figures = await measureServerThroughput();
  for (const page of figures.pages.slice(1)) {
    console.log(
      `${page.path}: ${page.cpuMsPerRequest.toFixed(2)} ms CPU per request, ${(page.ratioToReference * 100).toFixed(1)} % of the reference page's requests per second (target ${SERVER_TARGET_RATIO * 100} %)${page.failures ? `, ${page.failures} failed requests` : ""}`,
    );
  }
}
