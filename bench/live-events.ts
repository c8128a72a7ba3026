// Live events under load in one process: 2,000 streams, 50 messages a second for 10 s; latency, memory per
// idle stream, reconnects, and one person opening 2,000 streams. Streams are read in-process (no TCP).
// Run: `node --expose-gc --import tsx bench/live-events.ts`.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { percentile, runsAlone } from "./support";

const STREAMS = 2000;
const RATE = 50;
const SECONDS = 10;
export const LIVE_TARGETS = { p99Ms: 250, kbPerStream: 40, readsPerEvent: 1 };

export interface LiveEventFigures {
  streams: number;
  // null without --expose-gc: the figure would be noise.
  kbPerStream: number | null;
  sent: number;
  delivered: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  reconnects: number;
  reconnectEvents: number;
  missed: number;
  greedyAsked: number;
  greedyOpen: number;
  readsPerEvent: number;
  greedyDeliveryMs: number;
}

// The app's database module reads DATA_DIR once, when first imported: call this once per process.
export async function measureLiveEvents({ log = console.log } = {}): Promise<LiveEventFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "live-bench-"));
  process.env.DATA_DIR = dataDir;
  const { db, migrateToLatest } = await import("../app/platform/db.server");
  const { eventStreamFor, openStreamCount } = await import("../app/platform/events/stream.server");
  const { latestEventId, recordEvents } = await import("../app/platform/events/events.server");
  const { ensureConversation, sendMessage } = await import("../app/features/messages/messages.server");

  await migrateToLatest();
  const at = new Date().toISOString();
  const people = Array.from({ length: STREAMS }, () => randomUUID());
  await db.transaction().execute(async (trx) => {
    for (const id of people) {
      await trx
        .insertInto("users")
        .values({ id, email: `${id}@example.com`, password_hash: "x", email_verified_at: at, name: "P", phone: "600", city: "Madrid", postal_code: "1", role: "owner", bio: "", created_at: at, updated_at: at })
        .execute();
    }
  });
  const pairs: [string, string, string][] = [];
  for (let i = 0; i < STREAMS; i += 2) pairs.push([people[i]!, people[i + 1]!, await ensureConversation(people[i]!, people[i + 1]!)]);

  function openStream(userId: string, lastEventId: number, onEvent: (id: number, data: string) => void) {
    const abort = new AbortController();
    const response = eventStreamFor(new Request("http://bench/events", { signal: abort.signal }), userId, { lastEventId, stillSignedIn: async () => true });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value);
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (\d+)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (id && data) onEvent(Number(id), data);
        }
      }
    })();
    return abort;
  }

  try {
    // 1. Memory of idle streams.
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const sentAt = new Map<number, number>();
    const recipientOf = new Map<number, string>();
    const latencies: number[] = [];
    const streams = people.map((userId) =>
      openStream(userId, 0, (_id, data) => {
        const { messageId } = JSON.parse(data) as { messageId?: number };
        const started = messageId === undefined ? undefined : sentAt.get(messageId);
        if (started !== undefined && userId === recipientOf.get(messageId!)) latencies.push(performance.now() - started);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    global.gc?.();
    const perStream = (process.memoryUsage().heapUsed - heapBefore) / STREAMS;
    const kbPerStream = global.gc ? perStream / 1024 : null;
    log(`${STREAMS} open streams: about ${(perStream / 1024).toFixed(1)} KB of heap each${global.gc ? "" : " (run with node --expose-gc for a steadier figure)"}`);

    // 2. Delivery latency at 50 messages a second.
    const total = RATE * SECONDS;
    const started = performance.now();
    for (let n = 0; n < total; n += 1) {
      const [a, b, conversation] = pairs[n % pairs.length]!;
      const due = started + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t0 = performance.now();
      const result = await sendMessage(a, conversation, `hello ${n}`, null, { image: "", video: "" });
      if (result.status === "sent") {
        sentAt.set(result.id, t0);
        recipientOf.set(result.id, b);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    latencies.sort((x, y) => x - y);
    const [p50Ms, p95Ms, p99Ms] = [0.5, 0.95, 0.99].map((q) => percentile(latencies, q)) as [number, number, number];
    log(`${total} messages at ${RATE}/s: ${latencies.length} delivered; latency p50 ${p50Ms.toFixed(1)} ms, p95 ${p95Ms.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms (target p99 < ${LIVE_TARGETS.p99Ms} ms)`);
    for (const abort of streams) abort.abort();

    // 3. A client that drops and reconnects 100 times while events keep coming.
    const [flaky] = people;
    const seen = new Set<number>();
    const expected: number[] = [];
    let lastId = 0;
    const reconnects = 100;
    for (let round = 0; round < reconnects; round += 1) {
      const abort = openStream(flaky!, lastId, (id) => {
        seen.add(id);
        lastId = Math.max(lastId, id);
      });
      for (const event of await recordEvents([{ userId: flaky!, type: "message", payload: { round } }])) expected.push(event.id);
      await new Promise((resolve) => setTimeout(resolve, 2));
      abort.abort();
      for (const event of await recordEvents([{ userId: flaky!, type: "notification", payload: { round } }])) expected.push(event.id);
    }
    const last = openStream(flaky!, lastId, (id) => seen.add(id));
    await new Promise((resolve) => setTimeout(resolve, 300));
    last.abort();
    const missed = expected.filter((id) => !seen.has(id)).length;
    log(`${reconnects} reconnects: ${expected.length} events sent, ${missed} missed`);

    // 4. One person asks for 2,000 streams (one session): the oldest make way; each event is read once for all that stay.
    const greedy = people[1]!;
    const openBefore = openStreamCount();
    const greedyFrom = await latestEventId(greedy);
    const received = new Map<number, number>();
    const greedyStreams = Array.from({ length: STREAMS }, () =>
      openStream(greedy, greedyFrom, (id) => {
        received.set(id, (received.get(id) ?? 0) + 1);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const greedyOpen = openStreamCount() - openBefore;
    const executor = db.getExecutor();
    const execute = executor.executeQuery.bind(executor);
    let reads = 0;
    executor.executeQuery = ((query, ...rest) => {
      if (/^select\b/i.test(query.sql) && query.sql.includes('"live_events"') && query.parameters.includes(greedy)) reads += 1;
      return execute(query, ...rest);
    }) as typeof executor.executeQuery;
    const events = 20;
    const deliveries: number[] = [];
    for (let n = 0; n < events; n += 1) {
      const t0 = performance.now();
      const [event] = await recordEvents([{ userId: greedy, type: "notification", payload: { n } }]);
      while ((received.get(event!.id) ?? 0) < greedyOpen) await new Promise((resolve) => setImmediate(resolve));
      deliveries.push(performance.now() - t0);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    executor.executeQuery = execute;
    for (const abort of greedyStreams) abort.abort();
    const readsPerEvent = reads / events;
    const greedyDeliveryMs = percentile(deliveries.sort((x, y) => x - y), 0.5);
    log(
      `One person asks for ${STREAMS} streams: ${greedyOpen} stay open; ${events} events for them: ${readsPerEvent} database reads per event (target ${LIVE_TARGETS.readsPerEvent}), delivered to all in ${greedyDeliveryMs.toFixed(1)} ms (p50)`,
    );
    return {
      streams: STREAMS,
      kbPerStream,
      sent: total,
      delivered: latencies.length,
      p50Ms,
      p95Ms,
      p99Ms,
      reconnects,
      reconnectEvents: expected.length,
      missed,
      greedyAsked: STREAMS,
      greedyOpen,
      readsPerEvent,
      greedyDeliveryMs,
    };
  } finally {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (runsAlone(import.meta.url)) {
  await measureLiveEvents();
  // Aborted streams may leave timers behind; the figures are printed.
  process.exit(0);
}
