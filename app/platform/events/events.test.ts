import { EventSource } from "eventsource";
import type { CompiledQuery } from "kysely";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { person } from "~/testing/people";
import { bus } from "./bus.server";
import { latestEventId, recordEvents } from "./events.server";
import { LIVE_EVENT_TYPES } from "./live-connection";
import { endStreamsOf, type StreamLimits } from "./hub.server";
import { closeAllStreams, DISPLACED_RETRY_MS, eventStreamFor, openStreamCount } from "./stream.server";

/**
 * Opens a stream read by an `eventsource` client whose fetch calls the /events handler in-process, as
 * the app's tabs read it. The events are the client's; the raw text (a copy of the same bytes) is kept
 * for what a client hides on purpose: heartbeat comments and retry hints. These streams never
 * reconnect: the client closes when the server ends the stream or displaces it.
 */
function open(
  userId: string,
  options: {
    lastEventId: number;
    heartbeatMs?: number;
    stillSignedIn?: () => Promise<boolean>;
    sessionKey?: string;
    limits?: StreamLimits;
  },
) {
  const events: { id: number; type: string; data: string }[] = [];
  let text = "";
  let ended = false;
  let response: Response | undefined;
  let markFinished = () => {};
  const finished = new Promise<void>((resolve) => (markFinished = resolve));
  const source = new EventSource("http://test/events", {
    fetch: async (url, init) => {
      const served = eventStreamFor(new Request(url, { signal: init.signal as AbortSignal }), userId, {
        lastEventId: options.lastEventId,
        heartbeatMs: options.heartbeatMs ?? 60_000,
        stillSignedIn: options.stillSignedIn ?? (async () => true),
        sessionKey: options.sessionKey,
        limits: options.limits,
      });
      response = served;
      const [forClient, copy] = served.body!.tee();
      void (async () => {
        const reader = copy.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
          if (done) break;
          text += decoder.decode(value);
        }
        ended = true;
        markFinished();
      })();
      return new Response(forClient, { headers: served.headers });
    },
  });
  for (const type of [...LIVE_EVENT_TYPES, "displaced"]) {
    source.addEventListener(type, (event) => {
      events.push({ id: Number(event.lastEventId), type, data: event.data as string });
      if (type === "displaced") source.close();
    });
  }
  source.addEventListener("error", () => source.close());
  return {
    response: () => response!,
    abort: { abort: () => source.close() },
    text: () => text,
    ended: () => ended,
    finished,
    events: () => events,
    /** The ids of the events the client received, in order (a displaced notice has none). */
    ids: () => events.filter((event) => event.type !== "displaced").map((event) => event.id),
    /** Waits until `predicate` holds (given the raw text so far), or the time runs out. */
    async waitFor(predicate: (text: string) => boolean, ms = 2000) {
      const until = Date.now() + ms;
      while (!predicate(text) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      return predicate(text);
    },
  };
}

type Stream = ReturnType<typeof open>;

/** Lets every pending database read and write finish (better-sqlite3 answers within the same turn). */
async function settled() {
  for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Counts the reads of one person's live events that reach the database. */
function countLiveEventReads(userId: string) {
  const executor = db.getExecutor();
  const spy = vi.spyOn(executor, "executeQuery");
  const reads = () =>
    spy.mock.calls.filter(([query]) => {
      const { sql, parameters } = query as CompiledQuery;
      return /^select\b/i.test(sql) && sql.includes('"live_events"') && parameters.includes(userId);
    }).length;
  return { reads, restore: () => spy.mockRestore() };
}

async function ended(stream: Stream) {
  return stream.waitFor(() => stream.ended());
}

const displaced = (text: string) => text.endsWith(`retry: ${DISPLACED_RETRY_MS}\nevent: displaced\ndata: {}\n\n`);

// On PostgreSQL news comes over NOTIFY: listen before the first test, so none of its news is missed.
beforeAll(() => bus.listening());

describe("live event streams", () => {
  it("sends a retry hint, then new events live with their ids", async () => {
    const { id: userId } = await person("owner");
    const stream = open(userId, { lastEventId: 0 });
    expect(await stream.waitFor((text) => text.includes("retry: "))).toBe(true);
    expect(stream.response().headers.get("Content-Type")).toContain("text/event-stream");
    const [event] = await recordEvents([{ userId, type: "notification", payload: { type: "welcome" } }]);
    expect(await stream.waitFor(() => stream.ids().includes(event!.id))).toBe(true);
    expect(stream.events()).toEqual([{ id: event!.id, type: "notification", data: '{"type":"welcome"}' }]);
    stream.abort.abort();
  });

  it("a reconnect with Last-Event-ID gets exactly what it missed, in order, and nobody else's", async () => {
    const { id: userId } = await person("owner");
    const { id: other } = await person("owner");
    const before = await recordEvents([{ userId, type: "message" }]);
    const missed = await recordEvents([
      { userId, type: "message" },
      { userId: other, type: "message" },
      { userId, type: "booking" },
    ]);
    const stream = open(userId, { lastEventId: before[0]!.id });
    const expected = missed.filter((event) => event.userId === userId).map((event) => event.id);
    expect(await stream.waitFor(() => stream.ids().length >= 2)).toBe(true);
    expect(stream.ids()).toEqual(expected);
    stream.abort.abort();
  });

  it("never sends an event twice when events arrive while it catches up", async () => {
    const { id: userId } = await person("owner");
    const stream = open(userId, { lastEventId: 0 });
    const recorded = [];
    for (let i = 0; i < 30; i += 1)
      recorded.push(...(await recordEvents([{ userId, type: "message", payload: { i } }])));
    expect(await stream.waitFor(() => stream.ids().length >= 30)).toBe(true);
    expect(stream.ids()).toEqual(recorded.map((event) => event.id));
    stream.abort.abort();
  });

  it("an eventsource client whose stream the server ends comes back by itself with Last-Event-ID and gets what it missed", async () => {
    const { id: userId } = await person("owner");
    const asked: (string | undefined)[] = [];
    const received: number[] = [];
    const source = new EventSource("http://test/events", {
      fetch: async (url, init) => {
        const lastEventId = init.headers["Last-Event-ID"];
        asked.push(lastEventId);
        // As the /events route reads it: the header of a reconnect, else the person's latest event.
        const from = lastEventId === undefined ? await latestEventId(userId) : Number(lastEventId);
        return eventStreamFor(new Request(url, { signal: init.signal as AbortSignal }), userId, {
          lastEventId: from,
          stillSignedIn: async () => true,
        });
      },
    });
    source.addEventListener("message", (event) => received.push(Number(event.lastEventId)));
    try {
      const until = Date.now() + 10_000;
      while (openStreamCount() === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      const [first] = await recordEvents([{ userId, type: "message" }]);
      while (!received.includes(first!.id) && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, 10));
      // The instance goes away (a deploy): its streams end; events keep being stored meanwhile.
      closeAllStreams();
      const missed = await recordEvents([
        { userId, type: "message" },
        { userId, type: "message" },
      ]);
      while (received.length < 3 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(received).toEqual([first!.id, ...missed.map((event) => event.id)]);
      expect(asked).toEqual([undefined, String(first!.id)]);
    } finally {
      source.close();
    }
  });

  it("beats with a comment line and ends when the session does", async () => {
    const { id: userId } = await person("owner");
    let signedIn = true;
    const stream = open(userId, { lastEventId: 0, heartbeatMs: 20, stillSignedIn: async () => signedIn });
    expect(await stream.waitFor((text) => text.includes(": heartbeat\n\n"))).toBe(true);
    signedIn = false;
    await stream.finished;
    expect(stream.ended()).toBe(true);
  });

  it("shutting down closes every open stream", async () => {
    const { id: userId } = await person("owner");
    const streams = [open(userId, { lastEventId: 0 }), open(userId, { lastEventId: 0 })];
    expect(await streams[0]!.waitFor((text) => text.includes("retry:"))).toBe(true);
    expect(openStreamCount()).toBeGreaterThanOrEqual(2);
    closeAllStreams();
    await Promise.all(streams.map((stream) => stream.finished));
    expect(streams.every((stream) => stream.ended())).toBe(true);
    expect(openStreamCount()).toBe(0);
  });
});

describe("how many streams a session and a person hold", () => {
  it("one stream more than a person may hold ends the oldest, which is told not to come back; the others stay live", async () => {
    const { id: userId } = await person("owner");
    const cap = env.MAX_STREAMS_PER_PERSON;
    expect(cap).toBe(5);
    const latest = await latestEventId(userId);
    const streams: Stream[] = [];
    for (let i = 0; i < cap; i += 1) streams.push(open(userId, { lastEventId: latest, sessionKey: "tab-session" }));
    expect(await streams[0]!.waitFor((text) => text.includes("retry:"))).toBe(true);
    const newest = open(userId, { lastEventId: latest, sessionKey: "tab-session" });
    expect(await ended(streams[0]!)).toBe(true);
    expect(displaced(streams[0]!.text())).toBe(true);

    const [event] = await recordEvents([{ userId, type: "message" }]);
    const live = [...streams.slice(1), newest];
    for (const stream of live) expect(await stream.waitFor(() => stream.ids().includes(event!.id))).toBe(true);
    expect(live.some((stream) => stream.ended())).toBe(false);
    expect(streams[0]!.ids()).toEqual([]);
    for (const stream of live) stream.abort.abort();
  });

  it("caps each session on its own and all of the person's sessions together, oldest out first", async () => {
    const { id: userId } = await person("owner");
    const limits = { perSession: 2, perPerson: 3 };
    const latest = await latestEventId(userId);
    const at = (sessionKey: string) => open(userId, { lastEventId: latest, sessionKey, limits });
    const [a1, a2, a3] = [at("a"), at("a"), at("a")];
    expect(await ended(a1!)).toBe(true);
    expect(displaced(a1!.text())).toBe(true);
    const b1 = at("b");
    // Session a holds 2, session b 1: within both limits.
    const b2 = at("b");
    // The person would hold 4: their oldest stream (a2, of the other session) ends.
    expect(await ended(a2!)).toBe(true);
    expect(displaced(a2!.text())).toBe(true);
    const b3 = at("b");
    // Session b would hold 3: its oldest ends, session a keeps its one.
    expect(await ended(b1)).toBe(true);
    expect(displaced(b1.text())).toBe(true);

    const [event] = await recordEvents([{ userId, type: "booking" }]);
    const live = [a3!, b2, b3];
    for (const stream of live) expect(await stream.waitFor(() => stream.ids().includes(event!.id))).toBe(true);
    expect(live.some((stream) => stream.ended() || displaced(stream.text()))).toBe(false);
    for (const stream of live) stream.abort.abort();
  });

  it("ends every stream of one person at once (suspension, deletion), told not to come back, and no one else's", async () => {
    const [{ id: leaving }, { id: staying }] = [await person("owner"), await person("owner")];
    const theirs = [
      open(leaving, { lastEventId: await latestEventId(leaving), sessionKey: "a" }),
      open(leaving, { lastEventId: await latestEventId(leaving), sessionKey: "b" }),
    ];
    const other = open(staying, { lastEventId: await latestEventId(staying) });
    endStreamsOf(leaving);
    for (const stream of theirs) {
      expect(await ended(stream)).toBe(true);
      expect(displaced(stream.text())).toBe(true);
    }
    expect(other.ended() || displaced(other.text())).toBe(false);
    other.abort.abort();
  });

  it("one event for a person with five open streams is read from the database once and reaches all five", async () => {
    const { id: userId } = await person("owner");
    const { id: other } = await person("owner");
    const latest = await latestEventId(userId);
    const streams = Array.from({ length: 5 }, (_, i) =>
      open(userId, { lastEventId: latest, sessionKey: `session-${i % 2}` }),
    );
    const otherStream = open(other, { lastEventId: await latestEventId(other) });
    await settled();
    const counter = countLiveEventReads(userId);
    try {
      const [event] = await recordEvents([{ userId, type: "notification", payload: { type: "welcome" } }]);
      for (const stream of streams) expect(await stream.waitFor(() => stream.ids().includes(event!.id))).toBe(true);
      await settled();
      expect(counter.reads()).toBe(1);
      expect(streams.map((stream) => stream.ids())).toEqual(streams.map(() => [event!.id]));
      expect(otherStream.ids()).toEqual([]);
    } finally {
      counter.restore();
      for (const stream of [...streams, otherStream]) stream.abort.abort();
    }
  });

  it("news of an event that every stream of the person has already sent needs no read", async () => {
    const { id: userId } = await person("owner");
    const streams = [
      open(userId, { lastEventId: 0, sessionKey: "a" }),
      open(userId, { lastEventId: 0, sessionKey: "b" }),
    ];
    const [event] = await recordEvents([{ userId, type: "message" }]);
    for (const stream of streams) expect(await stream.waitFor(() => stream.ids().includes(event!.id))).toBe(true);
    await settled();
    const counter = countLiveEventReads(userId);
    try {
      // Heard again, as another instance's NOTIFY of the same event would be.
      // News arrives in the order sent (at once in one process, over NOTIFY on PostgreSQL): once the
      // newer id has been read, the older one has been heard, and it must have cost nothing.
      await bus.publish({ kind: "events", userId, eventId: event!.id });
      await bus.publish({ kind: "events", userId, eventId: event!.id + 1 });
      await expect.poll(() => counter.reads()).toBeGreaterThanOrEqual(1);
      await settled();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(counter.reads()).toBe(1);
    } finally {
      counter.restore();
      for (const stream of streams) stream.abort.abort();
    }
  });

  it("a stream that opens while the others' read is under way still gets everything it missed, in order", async () => {
    const { id: userId } = await person("owner");
    const earlier = await recordEvents([
      { userId, type: "message" },
      { userId, type: "message" },
    ]);
    const current = open(userId, { lastEventId: earlier[1]!.id });
    await settled();
    let behind: Stream | undefined;
    // Runs right after the hub has started reading for the news.
    const stopListening = bus.subscribe(userId, () => {
      behind ??= open(userId, { lastEventId: 0 });
    });
    await bus.listening();
    const news = await recordEvents([{ userId, type: "booking" }]);
    // At once in one process; a NOTIFY round trip later on PostgreSQL.
    await expect.poll(() => behind).toBeDefined();
    stopListening();
    const all = [...earlier, ...news].map((event) => event.id);
    expect(await behind!.waitFor(() => behind!.ids().length >= 3)).toBe(true);
    expect(await current.waitFor(() => current.ids().length >= 1)).toBe(true);
    await settled();
    expect(behind!.ids()).toEqual(all);
    expect(current.ids()).toEqual([news[0]!.id]);
    behind!.abort.abort();
    current.abort.abort();
  });
});
