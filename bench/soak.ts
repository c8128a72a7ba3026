// Memory under a long mixed load: the demo data grown by 10,000 sitters and 100,000 messages (as in
// server-throughput.ts), then SOAK_MINUTES (default 30) of signed-in page views by an owner and a sitter
// (dashboard, messages, a conversation, bookings, notifications, profile, likes, availability, settings)
// with a chat message sent every few seconds, then two quiet minutes. The server's RSS (from /proc) and
// V8 heap (from its /metrics) are sampled each minute. Memory is flat when the last sample is within
// FLAT_TOLERANCE of the sample after WARM_UP_MINUTES, and a leak otherwise;
// the quiet minutes show what stays once the load is gone.
// Run after `npm run build`: `npm run bench:soak` (SOAK_MINUTES=5 for a quick look; BENCH_PORT, default 3306).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import SQLite from "better-sqlite3";
import { growDemoDatabase } from "./server-throughput";
import { DEMO_USER, fixed, runsAlone, signIn, startServer } from "./support";

const DEMO_PASSWORD = "happy-paws-2026";
const METRICS_TOKEN = "soak-bench-metrics-token-0123456789";
const CONNECTIONS = 8;
/** Memory may settle upwards during the first minutes (JIT, caches filling, heap sizing). */
export const WARM_UP_MINUTES = 5;
/** The last sample may be at most this much above the one after warm-up. */
export const FLAT_TOLERANCE = 0.1;

export interface MemorySample {
  minute: number;
  phase: "load" | "quiet";
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  requests: number;
}

export interface SoakFigures {
  minutes: number;
  samples: MemorySample[];
  startRssMb: number;
  afterWarmUpRssMb: number;
  /** At the end of the load. */
  endRssMb: number;
  /** After the quiet minutes. */
  quietRssMb: number;
  growthAfterWarmUp: number;
  flat: boolean;
  failures: number;
}

function rssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

async function heapMbOf(origin: string): Promise<{ used: number; total: number }> {
  const text = await (
    await fetch(`${origin}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? Number.NaN) / 2 ** 20;
  return { used: metric("nodejs_heap_size_used_bytes"), total: metric("nodejs_heap_size_total_bytes") };
}

/** Posts a chat message as the page's form does, from the conversation page's own form fields. */
async function sendMessage(origin: string, cookie: string, conversation: string, text: string): Promise<boolean> {
  const page = await (await fetch(`${origin}${conversation}`, { headers: { cookie } })).text();
  const form = /<form[^>]*action="(\/messages[^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(page);
  if (!form) return false;
  const fields = new URLSearchParams();
  for (const input of form[2]!.matchAll(/<input\b[^>]*>/g)) {
    const name = /\bname="([^"]+)"/.exec(input[0])?.[1];
    if (name && /type="hidden"/.test(input[0])) fields.set(name, /\bvalue="([^"]*)"/.exec(input[0])?.[1] ?? "");
  }
  fields.set("body", text);
  const response = await fetch(`${origin}${form[1]!.replace(/&amp;/g, "&")}`, {
    method: "POST",
    body: fields,
    redirect: "manual",
    headers: { cookie, Origin: origin },
  });
  return response.status < 400;
}

export async function measureSoak({
  minutes = Number(process.env.SOAK_MINUTES ?? 30),
  port = Number(process.env.BENCH_PORT ?? 3306),
  log = console.log,
} = {}): Promise<SoakFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "soak-bench-"));
  try {
    const seeding = await startServer(dataDir, port);
    await seeding.stop();
    const file = path.join(dataDir, "trusted-sitters.db");
    growDemoDatabase(file);
    const database = new SQLite(file, { readonly: true });
    const sitterEmail = (
      database
        .prepare("select email from users where role = 'sitter' and email like '%@demo.trustedsitters.app' limit 1")
        .get() as { email: string }
    ).email;
    database.close();

    const server = await startServer(dataDir, port, { METRICS_TOKEN });
    try {
      const owner = await signIn(server.origin, DEMO_USER, DEMO_PASSWORD);
      const sitter = await signIn(server.origin, sitterEmail, DEMO_PASSWORD);
      const messages = await (await fetch(`${server.origin}/messages`, { headers: { cookie: owner } })).text();
      const conversation = /href="(\/messages\?c=[^"]+)"/.exec(messages)?.[1]?.replace(/&amp;/g, "&");
      if (!conversation) throw new Error("The demo owner has no conversation to open");
      const pages: [string, string][] = [
        ["/dashboard", owner],
        ["/messages", owner],
        [conversation, owner],
        ["/bookings", owner],
        ["/notifications", owner],
        ["/profile", owner],
        ["/dashboard/likes", owner],
        ["/settings", owner],
        ["/dashboard", sitter],
        ["/bookings", sitter],
        ["/availability", sitter],
        ["/messages", sitter],
      ];

      const samples: MemorySample[] = [];
      let requests = 0;
      let failures = 0;
      const sample = async (minute: number, phase: MemorySample["phase"]) => {
        const heap = await heapMbOf(server.origin);
        const taken = {
          minute,
          phase,
          rssMb: rssMbOf(server.pid),
          heapUsedMb: heap.used,
          heapTotalMb: heap.total,
          requests,
        };
        samples.push(taken);
        log(
          `minute ${String(minute).padStart(2)} (${phase})  RSS ${fixed(taken.rssMb, 0).padStart(4)} MB   heap ${fixed(taken.heapUsedMb, 0).padStart(4)} / ${fixed(taken.heapTotalMb, 0).padStart(4)} MB   ${requests.toLocaleString("en")} requests`,
        );
      };
      await sample(0, "load");

      for (let minute = 1; minute <= minutes; minute += 1) {
        // A message now and then: writes, live events and the outbox run beside the page views.
        let sent = 0;
        const chatting = setInterval(() => {
          sent += 1;
          void sendMessage(server.origin, owner, conversation, `Soak message ${minute}.${sent}`).then((ok) => {
            if (!ok) failures += 1;
          });
        }, 5_000);
        const result = await autocannon({
          url: server.origin,
          connections: CONNECTIONS,
          duration: 60,
          requests: pages.map(([pathname, cookie]) => ({
            method: "GET",
            path: pathname,
            headers: { cookie, "accept-encoding": "gzip" },
          })),
        });
        clearInterval(chatting);
        requests += result.requests.total;
        failures += result.errors + result.non2xx;
        await sample(minute, "load");
      }
      for (let quiet = 1; quiet <= 2; quiet += 1) {
        await new Promise((resolve) => setTimeout(resolve, 60_000));
        await sample(minutes + quiet, "quiet");
      }

      const afterWarmUp = samples.find((taken) => taken.minute === Math.min(WARM_UP_MINUTES, minutes))!;
      const end = samples.filter((taken) => taken.phase === "load").at(-1)!;
      const growth = end.rssMb / afterWarmUp.rssMb - 1;
      return {
        minutes,
        samples,
        startRssMb: samples[0]!.rssMb,
        afterWarmUpRssMb: afterWarmUp.rssMb,
        endRssMb: end.rssMb,
        quietRssMb: samples.at(-1)!.rssMb,
        growthAfterWarmUp: growth,
        flat: growth <= FLAT_TOLERANCE,
        failures,
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (runsAlone(import.meta.url)) {
  const figures = await measureSoak();
  console.log(
    `\nRSS ${fixed(figures.startRssMb, 0)} MB at start, ${fixed(figures.afterWarmUpRssMb, 0)} MB after ${Math.min(WARM_UP_MINUTES, figures.minutes)} minutes, ${fixed(figures.endRssMb, 0)} MB after ${figures.minutes} minutes of load (${fixed(figures.growthAfterWarmUp * 100)} % after warm-up ; flat: at most ${FLAT_TOLERANCE * 100} %) → ${figures.flat ? "PASS" : "FAIL"}; ${fixed(figures.quietRssMb, 0)} MB after 2 quiet minutes; ${figures.failures} failed requests`,
  );
}
