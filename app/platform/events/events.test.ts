import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { recordEvents } from "./events.server";
import { closeAllStreams, eventStreamFor, openStreamCount } from "./stream.server";

async function person() {
  const id = randomUUID();
  const at = new Date().toISOString();
  await db
    .insertInto("users")
    .values({ id, email: `${id}@example.com`, password_hash: "x", email_verified_at: at, name: "P", phone: "600", city: "Madrid", postal_code: "1", role: "owner", bio: "", created_at: at, updated_at: at })
    .execute();
  return id;
}

/** Opens a stream and collects its text until `until` is seen or the time runs out. */
function open(userId: string, options: { lastEventId: number; heartbeatMs?: number; stillSignedIn?: () => Promise<boolean> }) {
  const abort = new AbortController();
  const response = eventStreamFor(new Request("http://test/events", { signal: abort.signal }), userId, {
    lastEventId: options.lastEventId,
    heartbeatMs: options.heartbeatMs ?? 60_000,
    stillSignedIn: options.stillSignedIn ?? (async () => true),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let ended = false;
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        return;
      }
      text += decoder.decode(value);
    }
  })();
  return {
    response,
    abort,
    text: () => text,
    ended: () => ended,
    async waitFor(predicate: (text: string) => boolean, ms = 2000) {
      const until = Date.now() + ms;
      while (!predicate(text) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      return predicate(text);
    },
    pump,
  };
}

const ids = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

describe("live event streams", () => {
  it("sends a retry hint, then new events live with their ids", async () => {
    const userId = await person();
    const stream = open(userId, { lastEventId: 0 });
    expect(stream.response.headers.get("Content-Type")).toContain("text/event-stream");
    expect(await stream.waitFor((text) => text.includes("retry: "))).toBe(true);
    const [event] = await recordEvents([{ userId, type: "notification", payload: { type: "welcome" } }]);
    expect(await stream.waitFor((text) => text.includes(`id: ${event!.id}\nevent: notification\ndata: {"type":"welcome"}`))).toBe(true);
    stream.abort.abort();
  });

  it("a reconnect with Last-Event-ID gets exactly what it missed, in order, and nobody else's", async () => {
    const userId = await person();
    const other = await person();
    const before = await recordEvents([{ userId, type: "message" }]);
    const missed = await recordEvents([
      { userId, type: "message" },
      { userId: other, type: "message" },
      { userId, type: "booking" },
    ]);
    const stream = open(userId, { lastEventId: before[0]!.id });
    const expected = missed.filter((event) => event.userId === userId).map((event) => event.id);
    expect(await stream.waitFor((text) => ids(text).length >= 2)).toBe(true);
    expect(ids(stream.text())).toEqual(expected);
    stream.abort.abort();
  });

  it("never sends an event twice when events arrive while it catches up", async () => {
    const userId = await person();
    const stream = open(userId, { lastEventId: 0 });
    const recorded = [];
    for (let i = 0; i < 30; i += 1) recorded.push(...(await recordEvents([{ userId, type: "message", payload: { i } }])));
    expect(await stream.waitFor((text) => ids(text).length >= 30)).toBe(true);
    expect(ids(stream.text())).toEqual(recorded.map((event) => event.id));
    stream.abort.abort();
  });

  it("beats with a comment line and ends when the session does", async () => {
    const userId = await person();
    let signedIn = true;
    const stream = open(userId, { lastEventId: 0, heartbeatMs: 20, stillSignedIn: async () => signedIn });
    expect(await stream.waitFor((text) => text.includes(": heartbeat\n\n"))).toBe(true);
    signedIn = false;
    await stream.pump;
    expect(stream.ended()).toBe(true);
  });

  it("shutting down closes every open stream", async () => {
    const userId = await person();
    const streams = [open(userId, { lastEventId: 0 }), open(userId, { lastEventId: 0 })];
    expect(await streams[0]!.waitFor((text) => text.includes("retry:"))).toBe(true);
    expect(openStreamCount()).toBeGreaterThanOrEqual(2);
    closeAllStreams();
    await Promise.all(streams.map((stream) => stream.pump));
    expect(streams.every((stream) => stream.ended())).toBe(true);
    expect(openStreamCount()).toBe(0);
  });
});
