// Independent writes on PostgreSQL: two app instances (processes) with 8 connections each, 16 writers in all,
// each writing what no other writer touches: chat messages (each writer its own conversation), likes (each
// its own swiper), and bookings asked, paid and accepted (each writer its own sitter and owner). Every kind
// runs WRITES_SECONDS (default 15) twice, in one run, on fresh databases:
// - "one writer": every transaction that writes takes one global advisory lock first (installed by this
//   benchmark as a statement trigger on every table, so at the first write rather than at BEGIN as the app
//   once did: if anything, kinder to the lock than it was);
// - "row locks": the app as it is (rows locked by the decisions that read them, constraints).
// Run: `npx tsx bench/parallel-writes.ts`; it starts a throwaway cluster with scripts/postgres.sh, or uses
// BENCH_DATABASE_URL (an admin URL of a cluster it may create databases on).
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { databaseUrl, dropDatabase, onCluster } from "../tests/unit/postgres";
import { runsAlone } from "./support";

const INSTANCES = 2;
const CONNECTIONS_EACH = 8;
const WRITERS_EACH = CONNECTIONS_EACH;
const SECONDS = Number(process.env.WRITES_SECONDS ?? 15) || 15;
const KINDS = ["messages", "likes", "bookings"] as const;
type Kind = (typeof KINDS)[number];
const MODES = ["one writer", "row locks"] as const;
type Mode = (typeof MODES)[number];
/** Any constant: the key the former global writer lock used. */
const ONE_WRITER_KEY = 7_414_750_001;

/** What each writer owns, written by the seeding process and read by the instances. */
interface Writer {
  sender: string;
  receiver: string;
  conversation: string;
  swiper: string;
  /** Sitters the swiper likes, one after the other. */
  liked: string[];
  owner: string;
  petId: string;
  sitter: string;
  sitterDays: string[];
}

interface Counted {
  ops: number;
  failures: number;
  firstFailure?: string;
}

const here = path.resolve("bench/parallel-writes.ts");

async function seed(file: string): Promise<void> {
  const { migrateToLatest, db } = await import("~/platform/db.server");
  const { person, petOf } = await import("~/testing/people");
  const { ensureConversation } = await import("~/features/messages/index.server");
  const { instantAt, wallClockIn } = await import("~/platform/time");
  await migrateToLatest();
  const writers: Writer[] = [];
  for (let i = 0; i < INSTANCES * WRITERS_EACH; i++) {
    const [sender, receiver, swiper, owner] = await Promise.all([
      person("owner"),
      person("sitter"),
      person("owner"),
      person("owner"),
    ]);
    const sitter = await person("sitter");
    const liked = await Promise.all(Array.from({ length: 400 }, () => person("sitter").then((who) => who.id)));
    const sitterDays = Array.from(
      { length: 60 },
      (_, day) => wallClockIn(sitter.time_zone, new Date(Date.now() + (day + 2) * 86_400_000)).day,
    );
    await db
      .insertInto("availability_slots")
      .values(
        sitterDays.map((day) => ({
          id: randomUUID(),
          sitter_id: sitter.id,
          start_at: instantAt(sitter.time_zone, day, "06:00").toISOString(),
          end_at: instantAt(sitter.time_zone, day, "22:00").toISOString(),
          status: "available" as const,
          booking_id: null,
          created_at: new Date().toISOString(),
        })),
      )
      .execute();
    writers.push({
      sender: sender.id,
      receiver: receiver.id,
      conversation: await ensureConversation(sender.id, receiver.id),
      swiper: swiper.id,
      liked,
      owner: owner.id,
      petId: await petOf(owner.id),
      sitter: sitter.id,
      sitterDays,
    });
  }
  writeFileSync(file, JSON.stringify(writers));
  await db.destroy();
}

/** One instance: WRITERS_EACH writers, each doing `kind` over and over for SECONDS. */
async function instance(kind: Kind, writers: Writer[]): Promise<Counted> {
  const { db } = await import("~/platform/db.server");
  const { sendMessage } = await import("~/features/messages/index.server");
  const { swipe } = await import("~/features/discovery/swipes.server");
  const { requestBooking } = await import("~/features/bookings/requests.server");
  const { payForBooking } = await import("~/features/bookings/payment-entry.server");
  const { transition } = await import("~/features/bookings/bookings.server");
  const card = {
    kind: "digits",
    number: "4242424242424242",
    expMonth: 12,
    expYear: 2030,
    cvc: "123",
    name: "Bench",
  } as const;
  const counted: Counted = { ops: 0, failures: 0 };
  const until = Date.now() + SECONDS * 1000;
  const fail = (why: string) => {
    counted.failures += 1;
    counted.firstFailure ??= why;
  };
  await Promise.all(
    writers.map(async (writer) => {
      let n = 0;
      while (Date.now() < until) {
        n += 1;
        if (kind === "messages") {
          const sent = await sendMessage(writer.sender, writer.conversation, `note ${n}`, null, {
            image: "Photo",
            video: "Video",
          });
          if (sent.status === "sent") counted.ops += 1;
          else fail(sent.status);
        } else if (kind === "likes") {
          const target = writer.liked[n % writer.liked.length]!;
          const swiper = { id: writer.swiper, role: "owner" as const, time_zone: "Europe/Madrid" };
          const result = await swipe(swiper, { userId: target, petId: null }, n % 2 ? "like" : "pass", {
            unlimitedLikes: true,
          });
          if (result.status === "recorded") counted.ops += 1;
          else fail(result.status);
        } else {
          const day = writer.sitterDays[Math.floor((n - 1) / 16)];
          if (!day) break;
          const startTime = `${String(6 + ((n - 1) % 16)).padStart(2, "0")}:00`;
          const owner = { id: writer.owner, role: "owner" as const, email: `${writer.owner}@example.com` };
          const asked = await requestBooking(owner, {
            id: randomUUID(),
            sitterId: writer.sitter,
            petIds: [writer.petId],
            day,
            startTime,
            hours: 1,
            notes: "",
          });
          if (asked.status !== "created") {
            fail(asked.reason);
            continue;
          }
          const paid = await payForBooking(owner, asked.booking.id, card, randomUUID());
          if (paid.status !== "held") {
            fail(paid.status);
            continue;
          }
          const accepted = await transition(
            asked.booking.id,
            { kind: "sitter", userId: writer.sitter },
            { type: "accept" },
          );
          if (accepted.ok) counted.ops += 1;
          else fail(accepted.refusal);
        }
      }
    }),
  );
  await db.destroy();
  return counted;
}

/** The former global lock, taken by every transaction's first write (a trigger per table, per statement). */
async function installOneWriter(url: string): Promise<void> {
  await onCluster(url, async (client) => {
    await client.query(`create function bench_one_writer() returns trigger language plpgsql as $$
      begin perform pg_advisory_xact_lock(${ONE_WRITER_KEY}); return null; end $$`);
    const tables = await client.query<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public'",
    );
    for (const { tablename } of tables.rows)
      await client.query(
        `create trigger bench_one_writer before insert or update or delete on "${tablename}"
         for each statement execute function bench_one_writer()`,
      );
  });
}

function runChild(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", here, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(" ")} exited ${code}`))));
  });
}

/** Environment of an app process on `url`: its own empty data folder, the offline payment provider, quiet logs. */
function appEnv(url: string, dataDir: string): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    NODE_ENV: "test",
    PAYMENT_PROVIDER: "test",
    DATABASE_POOL_SIZE: String(CONNECTIONS_EACH),
  };
}

async function measure(cluster: string, mode: Mode, kind: Kind, dataDir: string): Promise<Counted> {
  const name = `writes_bench_${mode === "one writer" ? "one" : "rows"}_${kind}`;
  await dropDatabase(cluster, name);
  await onCluster(cluster, (client) => client.query(`create database "${name}"`));
  const url = databaseUrl(cluster, name);
  const fixtures = path.join(dataDir, `${name}.json`);
  await runChild(["--seed", fixtures], appEnv(url, dataDir));
  if (mode === "one writer") await installOneWriter(url);
  const outputs = await Promise.all(
    Array.from({ length: INSTANCES }, (_, i) =>
      runChild(["--instance", kind, String(i)], { ...appEnv(url, dataDir), WRITES_FIXTURES: fixtures }),
    ),
  );
  await dropDatabase(cluster, name);
  return outputs
    .map((out) => JSON.parse(out.trim().split("\n").at(-1)!) as Counted)
    .reduce((sum, one) => ({
      ops: sum.ops + one.ops,
      failures: sum.failures + one.failures,
      firstFailure: sum.firstFailure ?? one.firstFailure,
    }));
}

async function main(): Promise<void> {
  const given = process.env.BENCH_DATABASE_URL;
  const port = "55499";
  const cluster = given ?? execFileSync("bash", ["scripts/postgres.sh", "start", port], { encoding: "utf8" }).trim();
  const dataDir = mkdtempSync(path.join(tmpdir(), "writes-bench-"));
  try {
    console.log(
      `Independent writes, ${INSTANCES} instances × ${CONNECTIONS_EACH} connections, ${SECONDS} s per kind and mode`,
    );
    console.log("");
    console.log("| kind | one writer (ops/s) | row locks (ops/s) | × |");
    console.log("|---|---|---|---|");
    for (const kind of KINDS) {
      const figures: Record<Mode, Counted> = {} as Record<Mode, Counted>;
      for (const mode of MODES) figures[mode] = await measure(cluster, mode, kind, dataDir);
      const rate = (mode: Mode) => figures[mode].ops / SECONDS;
      console.log(
        `| ${kind} | ${rate("one writer").toFixed(0)} | ${rate("row locks").toFixed(0)} | ${(rate("row locks") / rate("one writer")).toFixed(2)} |`,
      );
      for (const mode of MODES)
        if (figures[mode].failures > 0)
          console.log(`  ${mode}: ${figures[mode].failures} refused (first: ${figures[mode].firstFailure})`);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (!given) execFileSync("bash", ["scripts/postgres.sh", "stop", port]);
  }
}

if (runsAlone(import.meta.url)) {
  const [role, a, b] = process.argv.slice(2);
  if (role === "--seed") await seed(a!);
  else if (role === "--instance") {
    const writers = JSON.parse(readFileSync(process.env.WRITES_FIXTURES!, "utf8")) as Writer[];
    const mine = writers.slice(Number(b) * WRITERS_EACH, (Number(b) + 1) * WRITERS_EACH);
    console.log(JSON.stringify(await instance(a as Kind, mine)));
  } else await main();
}
