import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest } from "node:http";
import { randomUUID } from "node:crypto";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { hash } from "@node-rs/argon2";
import SQLite from "better-sqlite3";
import { expect, test } from "./support";

/**
 * The server as an operator runs it, killed without warning in the middle of writes, and
 * stopped gracefully under load. Each test runs servers of its own on a data folder of its own.
 */

test.describe.configure({ mode: "serial" });

const PASSWORD = "steady-paws-2026";

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Running {
  process: ChildProcess;
  origin: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startServer(dataDir: string, port: number): Promise<Running> {
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      TEST_MODE: "true",
      DATA_DIR: dataDir,
      PORT: String(port),
      AUTH_RATE_LIMIT: "100000",
    },
    stdio: "ignore",
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const origin = `http://localhost:${port}`;
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { process: child, origin, exited };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill("SIGKILL");
  throw new Error("The server did not start");
}

/**
 * Two people who matched, written straight into a database the server has migrated: an owner
 * with a dog, and a sitter (Madrid time) available from an hour from now for three days.
 */
async function twoPeopleWhoMatched(dataDir: string) {
  const database = new SQLite(path.join(dataDir, "trusted-sitters.db"));
  const at = new Date().toISOString();
  const passwordHash = await hash(PASSWORD);
  const people = [randomUUID(), randomUUID()].sort();
  for (const [index, id] of people.entries()) {
    database
      .prepare(
        `insert into users (id, email, password_hash, email_verified_at, name, phone, city, postal_code, role, bio, hourly_rate_cents, created_at, updated_at)
         values (?, ?, ?, ?, ?, '600', 'Madrid', '28004', ?, '', ?, ?, ?)`,
      )
      .run(
        id,
        `${id}@example.com`,
        passwordHash,
        at,
        `Person ${index}`,
        index === 0 ? "owner" : "sitter",
        index === 0 ? null : 1500,
        at,
        at,
      );
  }
  database
    .prepare("insert into matches (id, user_a_id, user_b_id, created_at) values (?, ?, ?, ?)")
    .run(randomUUID(), people[0], people[1], at);
  const conversationId = randomUUID();
  database
    .prepare("insert into conversations (id, user_a_id, user_b_id, created_at) values (?, ?, ?, ?)")
    .run(conversationId, people[0], people[1], at);
  const petId = randomUUID();
  database
    .prepare(
      "insert into pets (id, owner_id, name, pet_type, age, created_at, updated_at) values (?, ?, 'Bolt', 'dog', '3 years', ?, ?)",
    )
    .run(petId, people[0], at, at);
  const hour = 3_600_000;
  database
    .prepare("insert into availability_slots (id, sitter_id, start_at, end_at, created_at) values (?, ?, ?, ?, ?)")
    .run(
      randomUUID(),
      people[1],
      new Date(Date.now() + hour).toISOString(),
      new Date(Date.now() + 72 * hour).toISOString(),
      at,
    );
  database.close();
  // Noon, Madrid time, on the day after tomorrow: inside the sitter's availability.
  const booking = {
    sitterId: people[1]!,
    petId,
    day: new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(Date.now() + 48 * hour),
    startTime: "12:00",
  };
  return { emails: people.map((id) => `${id}@example.com`), conversationId, booking };
}

/** Signs in through the real form (with its honeypot fields) and returns the session cookie. */
async function signIn(origin: string, email: string): Promise<string> {
  const page = await (await fetch(`${origin}/auth?mode=login`)).text();
  const form = new URLSearchParams({ intent: "login", email, password: PASSWORD });
  for (const input of page.matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]+)"/.exec(input[0])?.[1];
    if (!name || form.has(name) || !/type="hidden"|autoComplete="nope"|tabindex="-1"/i.test(input[0])) continue;
    form.set(name, /\bvalue="([^"]*)"/.exec(input[0])?.[1] ?? "");
  }
  const response = await fetch(`${origin}/auth?mode=login`, {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { Origin: origin },
  });
  const cookie = response.headers.getSetCookie().find((value) => !value.startsWith("toast="));
  if (!cookie) throw new Error(`Sign-in failed (${response.status})`);
  return cookie.split(";")[0]!;
}

async function send(origin: string, cookie: string, conversationId: string, body: string): Promise<boolean> {
  const response = await fetch(`${origin}/messages`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ conversationId, body }),
  });
  await response.arrayBuffer();
  // The redirect back to the conversation is the acknowledgement.
  return response.status === 302 || response.status === 303;
}

/** A booking request through the real form's fields; the redirect to its payment page is the acknowledgement. */
async function requestBooking(
  origin: string,
  cookie: string,
  booking: { sitterId: string; petId: string; day: string; startTime: string },
  id: string,
): Promise<boolean> {
  const response = await fetch(`${origin}/booking/request?walkerId=${booking.sitterId}`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      id,
      sitterId: booking.sitterId,
      petIds: booking.petId,
      day: booking.day,
      startTime: booking.startTime,
      hours: "1",
      notes: "",
    }),
  });
  await response.arrayBuffer();
  return (
    (response.status === 302 || response.status === 303) &&
    (response.headers.get("Location") ?? "").endsWith(`/payment/${id}`)
  );
}

/** A message post whose request is fully handed over before `written` resolves; `answered` is its status. */
function sendTracked(origin: string, cookie: string, conversationId: string, body: string) {
  const payload = new URLSearchParams({ conversationId, body }).toString();
  let written!: () => void;
  const writtenPromise = new Promise<void>((resolve) => (written = resolve));
  const answered = new Promise<number>((resolve, reject) => {
    const request = httpRequest(
      `${origin}/messages`,
      {
        method: "POST",
        agent: false,
        headers: {
          Cookie: cookie,
          Origin: origin,
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(payload),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.on("finish", written);
    request.end(payload);
  });
  return { written: writtenPromise, answered };
}

function storedMessages(dataDir: string): {
  integrity: string;
  bodies: Set<string>;
  newest: string | undefined;
  bookings: Set<string>;
} {
  const database = new SQLite(path.join(dataDir, "trusted-sitters.db"));
  try {
    const integrity = String(database.pragma("integrity_check", { simple: true }));
    const rows = database.prepare("select body from messages order by rowid").all() as { body: string }[];
    const bookings = database.prepare("select id from bookings").all() as { id: string }[];
    return {
      integrity,
      bodies: new Set(rows.map((row) => row.body)),
      newest: rows.at(-1)?.body,
      bookings: new Set(bookings.map((row) => row.id)),
    };
  } finally {
    database.close();
  }
}

async function preparedWorld() {
  const dataDir = path.resolve(`tests/.tmp/resilience-${randomUUID()}`);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  // The first start migrates the database; the people are added while it is stopped.
  const first = await startServer(dataDir, port);
  first.process.kill("SIGTERM");
  await first.exited;
  const world = await twoPeopleWhoMatched(dataDir);
  return { dataDir, port, ...world };
}

test("killed with SIGKILL 50 times while messages and bookings are written: the database stays whole and keeps every acknowledged write", async ({
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "one run is enough: no browser involved");
  test.setTimeout(600_000);
  const { dataDir, port, emails, conversationId, booking } = await preparedWorld();
  const acknowledged: string[] = [];
  const acknowledgedBookings: string[] = [];
  let cookie = "";
  for (let round = 0; round < 50; round++) {
    const server = await startServer(dataDir, port);
    cookie ||= await signIn(server.origin, emails[0]!);
    let writing = true;
    // The kill comes at a random moment once this round has a booking acknowledged (so that however
    // slow the machine, every round writes): by then the writers are in full flow.
    let firstBooking = () => {};
    const bookingAcknowledged = new Promise<void>((resolve) => (firstBooking = resolve));
    // Three writers send messages; the fourth asks for bookings.
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      for (let n = 0; writing; n++) {
        const body = `round ${round} writer ${writer} message ${n}`;
        const bookingId = randomUUID();
        try {
          if (writer === 3) {
            if (await requestBooking(server.origin, cookie, booking, bookingId)) {
              acknowledgedBookings.push(bookingId);
              firstBooking();
            }
          } else if (await send(server.origin, cookie, conversationId, body)) acknowledged.push(body);
        } catch {
          return; // The server died under this request: it was never acknowledged.
        }
      }
    });
    await Promise.race([bookingAcknowledged, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 350));
    server.process.kill("SIGKILL");
    writing = false;
    await Promise.all(writers);
    expect((await server.exited).signal).toBe("SIGKILL");
    const { integrity, bodies, bookings } = storedMessages(dataDir);
    expect(integrity, `integrity after kill ${round + 1}`).toBe("ok");
    expect(
      acknowledged.filter((body) => !bodies.has(body)),
      `acknowledged messages lost after kill ${round + 1}`,
    ).toEqual([]);
    expect(
      acknowledgedBookings.filter((id) => !bookings.has(id)),
      `acknowledged bookings lost after kill ${round + 1}`,
    ).toEqual([]);
  }
  expect(acknowledged.length).toBeGreaterThan(100);
  expect(acknowledgedBookings.length).toBeGreaterThan(30);
  rmSync(dataDir, { recursive: true, force: true });
});

test("SIGTERM under load with open event streams: every request in flight is answered and the server exits within 5 s", async ({
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "one run is enough: no browser involved");
  test.setTimeout(120_000);
  const { dataDir, port, emails, conversationId } = await preparedWorld();
  const server = await startServer(dataDir, port);
  const cookies = await Promise.all(emails.map((email) => signIn(server.origin, email)));
  // Open event streams, as signed-in tabs keep them.
  const streams = await Promise.all(
    Array.from({ length: 20 }, async (_, index) => {
      const abort = new AbortController();
      const response = await fetch(`${server.origin}/events`, {
        headers: { Cookie: cookies[index % 2]! },
        signal: abort.signal,
      });
      expect(response.headers.get("content-type")).toContain("text/event-stream");
      const ended = (async () => {
        const reader = response.body!.getReader();
        for (;;) if ((await reader.read()).done) return true;
      })().catch(() => true);
      return { abort, ended };
    }),
  );
  const inFlight = Array.from({ length: 40 }, (_, n) =>
    sendTracked(server.origin, cookies[0]!, conversationId, `under load ${n}`),
  );
  // Every request has reached the server's socket; most are still waiting for their turn.
  await Promise.all(inFlight.map((request) => request.written));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const stoppedAt = Date.now();
  server.process.kill("SIGTERM");
  const answers = await Promise.allSettled(inFlight.map((request) => request.answered));
  const exit = await server.exited;
  const seconds = (Date.now() - stoppedAt) / 1000;
  expect(exit.code).toBe(0);
  expect(seconds).toBeLessThan(5);
  // Streams are ended by the server, not left hanging.
  expect(await Promise.all(streams.map((stream) => stream.ended))).toEqual(streams.map(() => true));
  const failed = answers.filter((answer) => answer.status === "rejected");
  expect(failed, "requests in flight that got no answer").toEqual([]);
  const { integrity, bodies } = storedMessages(dataDir);
  expect(integrity).toBe("ok");
  for (const [n, answer] of answers.entries())
    if (answer.status === "fulfilled" && answer.value === 302) expect(bodies.has(`under load ${n}`)).toBe(true);
  rmSync(dataDir, { recursive: true, force: true });
});

test("npm run db:backup while messages are written: the app starts on the restored copy with every message sent before the backup", async ({
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "one run is enough: no browser involved");
  test.setTimeout(180_000);
  const { dataDir, port, emails, conversationId } = await preparedWorld();
  const server = await startServer(dataDir, port);
  const cookie = await signIn(server.origin, emails[0]!);
  const before: string[] = [];
  for (let n = 0; n < 20; n++)
    if (await send(server.origin, cookie, conversationId, `before the backup ${n}`))
      before.push(`before the backup ${n}`);
  expect(before).toHaveLength(20);
  let writing = true;
  const writer = (async () => {
    for (let n = 0; writing; n++) await send(server.origin, cookie, conversationId, `during the backup ${n}`);
  })();
  const backupDir = `${dataDir}-backup`;
  const backup = spawn(process.execPath, ["scripts/backup.js", backupDir], {
    env: { ...process.env, NODE_ENV: "production", TEST_MODE: "true", DATA_DIR: dataDir },
    stdio: "ignore",
  });
  expect(await new Promise((resolve) => backup.on("exit", resolve))).toBe(0);
  writing = false;
  await writer;
  server.process.kill("SIGTERM");
  await server.exited;

  // Restore as the README says: the backup's files become a data folder, and the app starts on it.
  const restoredDir = `${dataDir}-restored`;
  cpSync(backupDir, restoredDir, { recursive: true });
  const { integrity, bodies, newest } = storedMessages(restoredDir);
  expect(integrity).toBe("ok");
  expect(before.filter((body) => !bodies.has(body))).toEqual([]);
  const restored = await startServer(restoredDir, await freePort());
  try {
    const page = await fetch(`${restored.origin}/messages?c=${conversationId}`, {
      headers: { Cookie: await signIn(restored.origin, emails[0]!) },
    });
    expect(page.status).toBe(200);
    // The conversation opens on its latest messages: the newest one the copy holds is there.
    expect(await page.text()).toContain(newest);
  } finally {
    restored.process.kill("SIGTERM");
    await restored.exited;
  }
  for (const dir of [dataDir, backupDir, restoredDir]) rmSync(dir, { recursive: true, force: true });
});
