// Live events under load in one process: 10,000 streams, 50 messages a second for 10 s; latency, memory per
// idle stream, reconnects, and one person opening 2,000 streams. Streams are served in-process (no TCP):
// each is read by an `eventsource` client whose fetch calls the stream's handler directly.
// Run: `node --expose-gc --import tsx bench/live-events.ts`.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { EventSource, type FetchLike } from "eventsource";
import { percentile, runsAlone } from "./support";

const STREAMS = Number(process.env.LIVE_STREAMS ?? 10_000);
const GREEDY_STREAMS = 2000;
const RATE = 50;
const SECONDS = 10;
export const LIVE_TARGETS = { p99Ms: 250, kbPerStream: 10, readsPerEvent: 1 };

export interface LiveEventFigures {
  streams: number;
  // null without --expose-gc: the figure would be noise.
  kbPerStream: number | null;
  kbPerClient: number | null;
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

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The app's database module reads DATA_DIR once, when first imported: call this once per process.
export async function measureLiveEvents({ log = console.log } = {}): Promise<LiveEventFigures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "live-bench-"));
  process.env.DATA_DIR = dataDir;
  const { db, migrateToLatest } = await import("../app/platform/db.server");
  const { eventStreamFor, openStreamCount } = await import("../app/platform/events/stream.server");
  const { latestEventId, recordEvents } = await import("../app/platform/events/events.server");
  const { ensureConversation } = await import("../app/features/messages/conversations.server");
  const { sendMessage } = await import("../app/features/messages/messages.server");

  await migrateToLatest();
  const at = new Date().toISOString();
  const people = Array.from({ length: STREAMS }, () => randomUUID());
  await db.transaction().execute(async (trx) => {
    for (const id of people) {
      await trx
        .insertInto("users")
        .values({
          id,
          email: `${id}@example.com`,
          password_hash: "x",
          email_verified_at: at,
          name: "P",
          phone: "600",
          city: "Madrid",
          postal_code: "1",
          role: "owner",
          bio: "",
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
  });
  const pairs: [string, string, string][] = [];
  for (let i = 0; i < STREAMS; i += 2)
    pairs.push([people[i]!, people[i + 1]!, await ensureConversation(people[i]!, people[i + 1]!)]);

  /** What the HTTP adapter does with a stream: pull its chunks and hand them on (here: drop them). */
  function drain(userId: string) {
    const abort = new AbortController();
    const response = eventStreamFor(new Request("http://bench/events", { signal: abort.signal }), userId, {
      lastEventId: 0,
      stillSignedIn: async () => true,
    });
    const reader = response.body!.getReader();
    const pull = (): unknown =>
      reader.read().then(
        ({ done }) => done || pull(),
        () => undefined,
      );
    pull();
    return abort;
  }

  /** The /events route's reading of Last-Event-ID (header on a reconnect, query on a first connection), in-process. */
  const inProcessFetch =
    (userId: string): FetchLike =>
    async (url, init) => {
      const asked = init.headers["Last-Event-ID"] ?? new URL(url).searchParams.get("lastEventId") ?? "0";
      return eventStreamFor(new Request(url, { signal: init.signal as AbortSignal }), userId, {
        lastEventId: Number(asked),
        stillSignedIn: async () => true,
      });
    };

  function connect(userId: string, lastEventId: number, onEvent: (event: MessageEvent) => void) {
    const source = new EventSource(`http://bench/events?lastEventId=${lastEventId}`, { fetch: inProcessFetch(userId) });
    for (const type of ["message", "notification"]) source.addEventListener(type, onEvent);
    // As the app's tabs do: a displaced stream does not come back.
    source.addEventListener("displaced", () => source.close());
    return source;
  }

  /** Heap per item after `open` made `count` of them, garbage collected before and after. */
  async function heapPer<T>(count: number, open: () => T): Promise<{ kb: number | null; opened: T[] }> {
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const opened = Array.from({ length: count }, open);
    await pause(1000);
    global.gc?.();
    const kb = (process.memoryUsage().heapUsed - before) / count / 1024;
    return { kb: global.gc ? kb : null, opened };
  }

  try {
    // 1. Memory of idle streams on the server's side: each drained as the HTTP adapter does, no client.
    let next = 0;
    const idle = await heapPer(STREAMS, () => drain(people[next++]!));
    const kbPerStream = idle.kb;
    log(
      `${STREAMS} open streams: ${kbPerStream === null ? "run with node --expose-gc for the heap figure" : `${kbPerStream.toFixed(2)} KB of heap each (server side)`}`,
    );
    for (const abort of idle.opened) abort.abort();
    await pause(200);

    // 2. Delivery latency at 50 messages a second, every person reading with an eventsource client.
    const sentAt = new Map<number, number>();
    const recipientOf = new Map<number, string>();
    const latencies: number[] = [];
    next = 0;
    const clients = await heapPer(STREAMS, () => {
      const userId = people[next++]!;
      return connect(userId, 0, (event) => {
        const { messageId } = JSON.parse(event.data as string) as { messageId?: number };
        const started = messageId === undefined ? undefined : sentAt.get(messageId);
        if (started !== undefined && userId === recipientOf.get(messageId!))
          latencies.push(performance.now() - started);
      });
    });
    const kbPerClient = clients.kb;
    if (kbPerClient !== null)
      log(`${STREAMS} eventsource clients and their streams: ${kbPerClient.toFixed(2)} KB of heap each`);
    if (openStreamCount() !== STREAMS) throw new Error(`${openStreamCount()} streams open instead of ${STREAMS}`);
    const total = RATE * SECONDS;
    const started = performance.now();
    for (let n = 0; n < total; n += 1) {
      const [a, b, conversation] = pairs[n % pairs.length]!;
      const due = started + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await pause(wait);
      const t0 = performance.now();
      const result = await sendMessage(a, conversation, `hello ${n}`, null, { image: "", video: "" });
      if (result.status === "sent") {
        sentAt.set(result.id, t0);
        recipientOf.set(result.id, b);
      }
    }
    await pause(1000);
    latencies.sort((x, y) => x - y);
    const [p50Ms, p95Ms, p99Ms] = [0.5, 0.95, 0.99].map((q) => percentile(latencies, q)) as [number, number, number];
    log(
      `${total} messages at ${RATE}/s to ${STREAMS} streams: ${latencies.length} delivered; latency p50 ${p50Ms.toFixed(1)} ms, p95 ${p95Ms.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms (target p99 < ${LIVE_TARGETS.p99Ms} ms)`,
    );
    for (const source of clients.opened) source.close();
    await pause(200);

    // 3. A client that drops and reconnects 100 times while events keep coming: each comes back from the last id it saw.
    const [flaky] = people;
    const seen = new Set<number>();
    const expected: number[] = [];
    let lastId = 0;
    const reconnects = 100;
    const onFlakyEvent = (event: MessageEvent) => {
      const id = Number(event.lastEventId);
      seen.add(id);
      lastId = Math.max(lastId, id);
    };
    for (let round = 0; round < reconnects; round += 1) {
      const source = connect(flaky!, lastId, onFlakyEvent);
      for (const event of await recordEvents([{ userId: flaky!, type: "message", payload: { round } }]))
        expected.push(event.id);
      await pause(2);
      source.close();
      for (const event of await recordEvents([{ userId: flaky!, type: "notification", payload: { round } }]))
        expected.push(event.id);
    }
    const last = connect(flaky!, lastId, onFlakyEvent);
    await pause(300);
    last.close();
    const missed = expected.filter((id) => !seen.has(id)).length;
    log(`${reconnects} reconnects: ${expected.length} events sent, ${missed} missed`);

    // 4. One person asks for 2,000 streams (one session): the oldest make way; each event is read once for all that stay.
    const greedy = people[1]!;
    const openBefore = openStreamCount();
    const greedyFrom = await latestEventId(greedy);
    const received = new Map<number, number>();
    const greedyStreams = Array.from({ length: GREEDY_STREAMS }, () =>
      connect(greedy, greedyFrom, (event) => {
        const id = Number(event.lastEventId);
        received.set(id, (received.get(id) ?? 0) + 1);
      }),
    );
    await pause(500);
    const greedyOpen = openStreamCount() - openBefore;
    const executor = db.getExecutor();
    const execute = executor.executeQuery.bind(executor);
    let reads = 0;
    executor.executeQuery = ((query, ...rest) => {
      if (/^select\b/i.test(query.sql) && query.sql.includes('"live_events"') && query.parameters.includes(greedy))
        reads += 1;
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
    await pause(50);
    executor.executeQuery = execute;
    for (const source of greedyStreams) source.close();
    const readsPerEvent = reads / events;
    const greedyDeliveryMs = percentile(
      deliveries.sort((x, y) => x - y),
      0.5,
    );
    log(
      `One person asks for ${GREEDY_STREAMS} streams: ${greedyOpen} stay open; ${events} events for them: ${readsPerEvent} database reads per event (target ${LIVE_TARGETS.readsPerEvent}), delivered to all in ${greedyDeliveryMs.toFixed(1)} ms (p50)`,
    );
    return {
      streams: STREAMS,
      kbPerStream,
      kbPerClient,
      sent: total,
      delivered: latencies.length,
      p50Ms,
      p95Ms,
      p99Ms,
      reconnects,
      reconnectEvents: expected.length,
      missed,
      greedyAsked: GREEDY_STREAMS,
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
  // Closed clients may leave timers behind; the figures are printed.
  process.exit(0);
}
