// Requests per second and p50/p99 of signed-in /dashboard and /messages over 10,000 sitters and 100,000
// messages, as a ratio to /healthz in the same run: what the pages cost over the bare HTTP stack.
// Run after `npm run build`: `npx tsx bench/server-throughput.ts` (BENCH_PORT, default 3302).
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
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

export interface PageThroughput {
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ratioToHealthz: number;
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
  "Hi! Are you free on Saturday morning?", "Sure, what time suits you?", "Around 9 would be perfect.", "She loves the park, bring treats!",
  "Can you send a photo when you're out?", "Of course, I always do.", "He pulls a bit at the start, then calms down.",
  "Thank you so much, see you then.", "The key is with the neighbour on the second floor.", "All done, he drank lots of water.",
  "Could we do an hour instead of two next week?", "No problem at all.", "She was a bit shy today but happy by the end.",
];
const EXPERIENCE = ["largeDogs", "smallDogs", "puppies", "seniorDogs", "cats", "kittens", "highEnergy", "basicTraining", "specialNeeds", "multiplePets"];

export function growDemoDatabase(file: string, demoEmail = DEMO_USER): { sitters: number; messages: number; demoConversations: number } {
  const { random, around, pick } = randomSource(7);
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  const demo = database.prepare("select id from users where email = ?").get(demoEmail) as { id: string } | undefined;
  if (!demo) throw new Error(`${demoEmail} is not in the demo database`);
  const start = Date.UTC(2026, 0, 1);
  const iso = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
  const insertUser = database.prepare(`insert into users (id, email, password_hash, email_verified_at, name, phone, city, postal_code, role, bio,
    latitude, longitude, location_enabled, hourly_rate_cents, experience, cares_for, rating_average, review_count, time_zone, created_at, updated_at)
    values (?, ?, 'not-a-password', ?, ?, '+34 600 000 000', ?, '00000', ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, 'Europe/Madrid', ?, ?)`);
  const insertPet = database.prepare(`insert into pets (id, owner_id, name, pet_type, age, breed, created_at, updated_at) values (?, ?, ?, ?, '3 years', 'other', ?, ?)`);
  const insertMatch = database.prepare("insert into matches (id, user_a_id, user_b_id, created_at) values (?, ?, ?, ?)");
  const insertConversation = database.prepare("insert into conversations (id, user_a_id, user_b_id, created_at, last_message_at) values (?, ?, ?, ?, ?)");
  const insertMessage = database.prepare("insert into messages (conversation_id, sender_id, body, created_at) values (?, ?, ?, ?)");
  const insertRead = database.prepare("insert or replace into conversation_reads (conversation_id, user_id, last_read_message_id) values (?, ?, ?)");
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
    for (let i = 0; i < count; i += 1) {
      minute += 1;
      const sender = random() < 0.5 ? one : two;
      lastId = Number(insertMessage.run(id, sender, pick(SENTENCES), iso(minute)).lastInsertRowid);
      lastRead.set(sender, lastId);
    }
    // A quarter of the conversations end with messages their reader has not seen yet.
    for (const person of [one, two]) insertRead.run(id, person, random() < 0.25 ? (lastRead.get(person) ?? 0) : lastId);
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
      insertUser.run(id, `sitter-${i}@bench.trustedsitters.app`, iso(i), `Sitter ${i}`, city[0], "sitter", "Happy to walk and feed your pets.",
        latitude, longitude, 800 + Math.floor(random() * 18) * 100, JSON.stringify([pick(EXPERIENCE), pick(EXPERIENCE)]),
        pick(['["dog"]', '["cat"]', '["dog","cat"]']), reviews ? Math.round((3 + random() * 2) * 10) / 10 : null, reviews, iso(i), iso(i));
    }
    const owners: string[] = [];
    for (let i = 0; i < OWNERS; i += 1) {
      const city = pick(CITIES);
      const [latitude, longitude] = around(city);
      const id = randomUUID();
      owners.push(id);
      insertUser.run(id, `owner-${i}@bench.trustedsitters.app`, iso(i), `Owner ${i}`, city[0], "owner", "", latitude, longitude, null, "[]", "[]", null, 0, iso(i), iso(i));
      insertPet.run(randomUUID(), id, `Pet ${i}`, random() < 0.6 ? "dog" : "cat", iso(i), iso(i));
    }
    for (let i = 0; i < DEMO_CONVERSATIONS; i += 1) converse(demo.id, sitters[i]!, DEMO_MESSAGES_EACH);
    for (let i = 0; messages < MESSAGES; i += 1) {
      converse(owners[i % OWNERS]!, sitters[DEMO_CONVERSATIONS + ((i * 7) % (SITTERS - DEMO_CONVERSATIONS))]!, Math.min(OTHER_MESSAGES_EACH, MESSAGES - messages));
    }
    database.prepare("update users set browse_mode = 'local' where id = ?").run(demo.id);
  })();
  database.pragma("wal_checkpoint(TRUNCATE)");
  database.close();
  return { sitters: SITTERS, messages, demoConversations: DEMO_CONVERSATIONS };
}

async function load(url: string, cookie: string | null): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: cookie ? { cookie } : {} });
}

export async function measureServerThroughput({ port = Number(process.env.BENCH_PORT ?? 3302), log = console.log } = {}): Promise<ServerThroughput> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "throughput-bench-"));
  try {
    // The first start migrates and seeds the demo people; the database grows while the server is stopped.
    const seeding = await startServer(dataDir, port);
    await seeding.stop();
    const started = performance.now();
    const grown = growDemoDatabase(path.join(dataDir, "trusted-sitters.db"));
    log(`grew the demo database to ${grown.sitters.toLocaleString("en")} more sitters and ${grown.messages.toLocaleString("en")} messages in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const server = await startServer(dataDir, port);
    try {
      const cookie = await signIn(server.origin, DEMO_USER, DEMO_PASSWORD);
      const targets: [string, string | null][] = [["/healthz", null], ["/dashboard", cookie], ["/messages", cookie]];
      // Each page answers with its content before the load starts (a few tries: on a very busy machine
      // a cold first render can outlast the server's streaming timeout and end early).
      for (const [pathname, withCookie] of targets) {
        let problem: string | null = "not tried";
        for (let attempt = 0; attempt < 3 && problem; attempt += 1) {
          const response = await fetch(server.origin + pathname, { headers: withCookie ? { cookie: withCookie } : {}, redirect: "manual" });
          const body = await response.text();
          problem =
            response.status !== 200 ? `answered ${response.status}, not 200`
            : pathname === "/messages" && !body.includes("/messages?c=") ? `lists no conversation: ${body.replace(/\s+/g, " ").slice(0, 200)}`
            : null;
        }
        if (problem) throw new Error(`${pathname} ${problem}`);
      }
      const results: { path: string; result: autocannon.Result }[] = [];
      for (const [pathname, withCookie] of targets) {
        const result = await load(server.origin + pathname, withCookie);
        results.push({ path: pathname, result });
        log(`${pathname.padEnd(11)} ${fixed(result.requests.average, 0).padStart(6)} req/s   p50 ${fixed(result.latency.p50, 0).padStart(4)} ms   p99 ${fixed(result.latency.p99, 0).padStart(4)} ms   (${CONNECTIONS} connections, ${SECONDS} s)`);
      }
      const healthz = results[0]!.result.requests.average;
      return {
        ...grown,
        connections: CONNECTIONS,
        seconds: SECONDS,
        pages: results.map(({ path: pathname, result }) => ({
          path: pathname,
          requestsPerSecond: result.requests.average,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          ratioToHealthz: result.requests.average / healthz,
          failures: result.non2xx + result.errors + result.timeouts,
        })),
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (runsAlone(import.meta.url)) {
  const figures = await measureServerThroughput();
  for (const page of figures.pages.slice(1)) {
    console.log(`${page.path}: ${(page.ratioToHealthz * 100).toFixed(1)} % of /healthz's requests per second${page.failures ? `, ${page.failures} failed requests` : ""}`);
  }
}
