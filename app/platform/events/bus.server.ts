import { sql, type QueryExecutorProvider } from "kysely";
import pg from "pg";
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
  close(): Promise<void>;
}

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

  async close() {}
}

export const NOTIFY_CHANNEL = "trusted_sitters_live";
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/** The NOTIFY payload: short, and checked when heard (anyone with database access could NOTIFY). */
function encodeNews(news: BusNews): string {
  if (news.kind === "events") return JSON.stringify({ k: "e", u: news.userId, i: news.eventId });
  if (news.kind === "end") return JSON.stringify({ k: "x", u: news.userId });
  return JSON.stringify({ k: "d", a: news.authorId, s: news.seenBy });
}

export function decodeNews(payload: string | undefined): BusNews | null {
  try {
    const value = JSON.parse(payload ?? "") as Record<string, unknown>;
    if (value.k === "e" && typeof value.u === "string" && Number.isSafeInteger(value.i))
      return { kind: "events", userId: value.u, eventId: value.i as number };
    if (value.k === "x" && typeof value.u === "string") return { kind: "end", userId: value.u };
    if (value.k === "d" && typeof value.a === "string" && (value.s === "owners" || value.s === "sitters"))
      return { kind: "deck", authorId: value.a, seenBy: value.s };
  } catch {
    // Not ours.
  }
  return null;
}

/**
 * LISTEN/NOTIFY: one dedicated connection per process listens (opened with the first subscription),
 * and comes back with a growing pause when it drops. Whatever was said while it was away is not lost:
 * once listening again, every person with open streams here reads the table again.
 */
export class PostgresBus implements EventBus {
  private readonly listeners = new Listeners();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private retry: NodeJS.Timeout | undefined;
  private pauseMs = RECONNECT_MIN_MS;
  private closed = false;
  private readyWaiters: (() => void)[] = [];

  constructor(
    private readonly url: string,
    private readonly database: () => QueryExecutorProvider,
  ) {}

  async publish(news: BusNews | BusNews[], database: QueryExecutorProvider = this.database()) {
    const payloads = [news].flat().map(encodeNews);
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

  /** Drops the listening connection as a network failure would (tests). */
  dropConnection() {
    this.client?.emit("error", new Error("connection dropped"));
  }

  async close() {
    this.closed = true;
    clearTimeout(this.retry);
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
        if (!this.closed) logger.warn({ event: "bus.disconnected" }, "Live events: the PostgreSQL listener dropped");
      }
      this.reconnectLater();
    };
    client.on("error", drop);
    client.on("end", drop);
    client.on("notification", (message) => {
      if (message.channel !== NOTIFY_CHANNEL) return;
      const news = decodeNews(message.payload);
      if (news) this.listeners.dispatch(news);
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
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    for (const userId of [...this.listeners.people.keys()])
      this.listeners.dispatch({ kind: "events", userId, eventId: Number.MAX_SAFE_INTEGER });
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
