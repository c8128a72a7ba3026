import { randomUUID } from "node:crypto";
import { sql, type QueryExecutorProvider } from "kysely";
import pg from "pg";
import { Histogram } from "prom-client";
import { databaseEngine, db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { logger } from "~/platform/log.server";

// News only says "something new for this person" (and up to which event id); streams read what from
// the live_events table, which stays the one source of truth, so a replay with Last-Event-ID works on
// any instance. One process: the news is passed in memory. Several instances on PostgreSQL: it travels
// as NOTIFY and every instance, the sender included, hears it through its one LISTEN connection.

/** Events up to `eventId` are stored for the person, or every stream of theirs must end (suspension, erasure). */
export type PersonNews = { kind: "events"; userId: string; eventId: number } | { kind: "end"; userId: string };
/** News for whoever is connected anywhere (a new profile for open decks): each instance finds its own audience. */
export type EveryoneNews = { kind: "deck"; authorId: string; seenBy: "owners" | "sitters" };
export type BusNews = PersonNews | EveryoneNews;

type Listener<T> = (news: T) => unknown;

export type BusConnection = "connected" | "idle" | "disconnected";

export interface EventBus {
  /**
   * Every instance hears it, this one included. Given a transaction, it is heard once that commits (and
   * not at all if it rolls back). In one process, it resolves once the listeners' own work has.
   */
  publish(news: BusNews | BusNews[], database?: QueryExecutorProvider): Promise<void>;
  subscribe(userId: string, listener: Listener<PersonNews>): () => void;
  subscribeEveryone(listener: Listener<EveryoneNews>): () => void;
  /** Resolves once news from other instances can arrive (at once in one process). */
  listening(): Promise<void>;
  /**
   * connected: news from other instances arrives; idle: not listening yet (no stream has asked);
   * disconnected: listening was asked for and the connection is down (it is being made again).
   */
  connection(): BusConnection;
  /**
   * How far behind news from other instances runs, in seconds: the time this instance's newest heartbeat
   * took to come back through the database, or, while one is still on its way, how long it has been. 0 in
   * one process, and while not listening (see connection()).
   */
  lagSeconds(): number;
  close(): Promise<void>;
}

/**
 * Time from a NOTIFY being sent to its being heard here. Registered by metrics.server (which imports this
 * module). Across instances it includes their clocks' difference; an instance's own heartbeats do not.
 */
export const busDeliverySeconds = new Histogram({
  name: "trusted_sitters_event_bus_delivery_seconds",
  help: "Time from a live-events NOTIFY being sent (news or heartbeat) to its being heard by this instance's PostgreSQL listener.",
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [],
});

/** The listeners of one process, whichever way the news came. */
class Listeners {
  readonly people = new Map<string, Set<Listener<PersonNews>>>();
  readonly everyone = new Set<Listener<EveryoneNews>>();

  subscribe(userId: string, listener: Listener<PersonNews>) {
    const set = this.people.get(userId) ?? new Set();
    set.add(listener);
    this.people.set(userId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.people.get(userId) === set) this.people.delete(userId);
    };
  }

  subscribeEveryone(listener: Listener<EveryoneNews>) {
    this.everyone.add(listener);
    return () => void this.everyone.delete(listener);
  }

  dispatch(news: BusNews): unknown[] {
    const results: unknown[] = [];
    if (news.kind === "deck") for (const listener of [...this.everyone]) results.push(listener(news));
    else for (const listener of [...(this.people.get(news.userId) ?? [])]) results.push(listener(news));
    return results;
  }
}

export class InProcessBus implements EventBus {
  private readonly listeners = new Listeners();

  async publish(news: BusNews | BusNews[]) {
    // Called in the same turn: SQLite has one connection, so a stream's read waits for the writer's commit.
    await Promise.all([news].flat().flatMap((one) => this.listeners.dispatch(one)));
  }

  subscribe(userId: string, listener: Listener<PersonNews>) {
    return this.listeners.subscribe(userId, listener);
  }

  subscribeEveryone(listener: Listener<EveryoneNews>) {
    return this.listeners.subscribeEveryone(listener);
  }

  async listening() {}

  connection(): BusConnection {
    return "connected";
  }

  lagSeconds() {
    return 0;
  }

  async close() {}
}

export const NOTIFY_CHANNEL = "trusted_sitters_live";
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;
export const HEARTBEAT_MS = 5_000;
const HEARTBEATS_OUT_MAX = 100;

/** The NOTIFY payload: short, and checked when heard (anyone with database access could NOTIFY). */
function encodeNews(news: BusNews, sentAt: number): string {
  if (news.kind === "events") return JSON.stringify({ k: "e", u: news.userId, i: news.eventId, t: sentAt });
  if (news.kind === "end") return JSON.stringify({ k: "x", u: news.userId, t: sentAt });
  return JSON.stringify({ k: "d", a: news.authorId, s: news.seenBy, t: sentAt });
}

/** What one NOTIFY said: news, or an instance's heartbeat; `sentAt` (ms since the epoch) when it carried one. */
export type Heard = { news: BusNews; sentAt: number | null } | { heartbeatOf: string; sentAt: number };

export function decodePayload(payload: string | undefined): Heard | null {
  try {
    const value = JSON.parse(payload ?? "") as Record<string, unknown>;
    // Payloads from an instance still on the previous release carry no time.
    const sentAt = Number.isSafeInteger(value.t) && (value.t as number) > 0 ? (value.t as number) : null;
    const heard = (news: BusNews) => ({ news, sentAt });
    if (value.k === "e" && typeof value.u === "string" && Number.isSafeInteger(value.i))
      return heard({ kind: "events", userId: value.u, eventId: value.i as number });
    if (value.k === "x" && typeof value.u === "string") return heard({ kind: "end", userId: value.u });
    if (value.k === "d" && typeof value.a === "string" && (value.s === "owners" || value.s === "sitters"))
      return heard({ kind: "deck", authorId: value.a, seenBy: value.s });
    if (value.k === "h" && typeof value.o === "string" && sentAt !== null) return { heartbeatOf: value.o, sentAt };
  } catch {
    // Not ours.
  }
  return null;
}

export function decodeNews(payload: string | undefined): BusNews | null {
  const heard = decodePayload(payload);
  return heard && "news" in heard ? heard.news : null;
}

/**
 * LISTEN/NOTIFY: one dedicated connection per process listens (opened with the first subscription),
 * and comes back with a growing pause when it drops. Whatever was said while it was away is not lost:
 * once listening again, every person with open streams here reads the table again.
 *
 * While listening, each instance NOTIFYs a heartbeat every few seconds through its ordinary pool and
 * times its own heartbeats' return (one clock, so no skew between machines): a busy database, a
 * saturated pool or a listener that has stopped hearing shows as a lag that grows (lagSeconds).
 */
export class PostgresBus implements EventBus {
  private readonly listeners = new Listeners();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | undefined;
  private pauseMs = RECONNECT_MIN_MS;
  private closed = false;
  private readyWaiters: (() => void)[] = [];
  /** Tells this instance's heartbeats from the others' (never a metric label). */
  private readonly origin = randomUUID();
  private heartbeat: NodeJS.Timeout | undefined;
  /** Sent times (ms) of the heartbeats not heard back yet, oldest first. */
  private heartbeatsOut: number[] = [];
  private lastRoundTripMs = 0;

  constructor(
    private readonly url: string,
    private readonly database: () => QueryExecutorProvider,
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {}

  async publish(news: BusNews | BusNews[], database: QueryExecutorProvider = this.database()) {
    const sentAt = Date.now();
    const payloads = [news].flat().map((one) => encodeNews(one, sentAt));
    if (payloads.length === 0) return;
    // One statement for any number of people (a new profile's news to everyone connected).
    await sql`select pg_notify(${NOTIFY_CHANNEL}, payload) from unnest(${payloads}::text[]) with ordinality as news(payload, n) order by n`.execute(
      database,
    );
  }

  subscribe(userId: string, listener: Listener<PersonNews>) {
    this.listen();
    return this.listeners.subscribe(userId, listener);
  }

  // Listening starts with the first person's stream: news for everyone concerns connected people only.
  subscribeEveryone(listener: Listener<EveryoneNews>) {
    return this.listeners.subscribeEveryone(listener);
  }

  /** Resolves once the listening connection is up (tests, and a start-up that wants to wait). */
  listening(): Promise<void> {
    this.listen();
    if (this.client) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  connection(): BusConnection {
    if (this.client) return "connected";
    return this.connecting || this.retry || this.closed ? "disconnected" : "idle";
  }

  lagSeconds() {
    if (!this.client) return 0;
    const waiting = this.heartbeatsOut.length === 0 ? 0 : Date.now() - this.heartbeatsOut[0]!;
    return Math.max(this.lastRoundTripMs, waiting) / 1000;
  }

  /** Sends one heartbeat now (the timer does it every few seconds; tests call it directly). */
  async sendHeartbeat() {
    const sentAt = Date.now();
    // Bounded: past the cap the oldest one left out stays, and so does the lag it shows.
    if (this.heartbeatsOut.length < HEARTBEATS_OUT_MAX) this.heartbeatsOut.push(sentAt);
    try {
      const payload = JSON.stringify({ k: "h", o: this.origin, t: sentAt });
      await sql`select pg_notify(${NOTIFY_CHANNEL}, ${payload})`.execute(this.database());
    } catch (error) {
      // The lag keeps growing from the pending heartbeat, which is what an operator should see.
      logger.warn(
        { event: "bus.heartbeat-failed", error: error instanceof Error ? error.message : String(error) },
        "Live events: could not send a heartbeat through PostgreSQL",
      );
    }
  }

  /** Drops the listening connection as a network failure would (tests). */
  dropConnection() {
    this.client?.emit("error", new Error("connection dropped"));
  }

  async close() {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.heartbeat);
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private listen() {
    if (this.client || this.connecting || this.closed || this.retry) return;
    this.connecting = this.connect().finally(() => {
      this.connecting = null;
    });
  }

  private async connect() {
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      application_name: "trusted-sitters live events",
    });
    let lost = false;
    const drop = () => {
      if (lost) return;
      lost = true;
      void client.end().catch(() => undefined);
      if (this.client === client) {
        this.client = null;
        this.stopHeartbeat();
        if (!this.closed) logger.warn({ event: "bus.disconnected" }, "Live events: the PostgreSQL listener dropped");
      }
      this.reconnectLater();
    };
    client.on("error", drop);
    client.on("end", drop);
    client.on("notification", (message) => {
      if (message.channel !== NOTIFY_CHANNEL) return;
      const heard = decodePayload(message.payload);
      if (!heard) return;
      const heardAt = Date.now();
      if (heard.sentAt !== null) busDeliverySeconds.observe(Math.max(0, heardAt - heard.sentAt) / 1000);
      if ("news" in heard) this.listeners.dispatch(heard.news);
      else if (heard.heartbeatOf === this.origin) this.heardOwnHeartbeat(heard.sentAt, heardAt);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      if (!this.closed)
        logger.error(
          { event: "bus.disconnected", error: error instanceof Error ? error.message : String(error) },
          "Live events: could not listen on PostgreSQL, trying again",
        );
      drop();
      return;
    }
    if (lost || this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.pauseMs = RECONNECT_MIN_MS;
    this.startHeartbeat();
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    for (const userId of [...this.listeners.people.keys()])
      this.listeners.dispatch({ kind: "events", userId, eventId: Number.MAX_SAFE_INTEGER });
  }

  private startHeartbeat() {
    this.stopHeartbeat();
    this.heartbeat = setInterval(() => void this.sendHeartbeat(), this.heartbeatMs);
    this.heartbeat.unref();
    void this.sendHeartbeat();
  }

  private stopHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.heartbeatsOut = [];
    this.lastRoundTripMs = 0;
  }

  private heardOwnHeartbeat(sentAt: number, heardAt: number) {
    this.lastRoundTripMs = Math.max(0, heardAt - sentAt);
    // Heard in the order sent: every heartbeat up to this one is back (or lost for good).
    this.heartbeatsOut = this.heartbeatsOut.filter((out) => out > sentAt);
  }

  private reconnectLater() {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.listen();
    }, this.pauseMs);
    this.retry.unref();
    this.pauseMs = Math.min(RECONNECT_MAX_MS, this.pauseMs * 2);
  }
}

export const bus: EventBus =
  databaseEngine === "postgres" ? new PostgresBus(env.DATABASE_URL!, () => db) : new InProcessBus();
