import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "~db/schema";
import { busDeliverySeconds, NOTIFY_CHANNEL, PostgresBus, type BusNews, type PersonNews } from "./bus.server";

// Two buses on one database stand for two app instances. Runs when TEST_DATABASE_URL names a PostgreSQL database.
const url = process.env.TEST_DATABASE_URL;

/** Resolves with the first `count` news a subscription hears, or what it had when `ms` ran out. */
function collect(subscribe: (listener: (news: PersonNews) => void) => () => void, count = 1, ms = 2000) {
  const heard: { news: PersonNews; at: number }[] = [];
  return new Promise<{ news: PersonNews; at: number }[]>((resolve) => {
    const stop = subscribe((news) => {
      heard.push({ news, at: performance.now() });
      if (heard.length >= count) finish();
    });
    const timer = setTimeout(() => finish(), ms);
    function finish() {
      clearTimeout(timer);
      stop();
      resolve(heard);
    }
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!url)("live events across instances over PostgreSQL LISTEN/NOTIFY (TEST_DATABASE_URL)", () => {
  const databases: Kysely<Database>[] = [];
  const buses: PostgresBus[] = [];
  const connect = () =>
    new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 3 }) }),
    });
  const instance = (heartbeatMs?: number) => {
    const database = connect();
    const bus = new PostgresBus(url!, () => database, heartbeatMs);
    databases.push(database);
    buses.push(bus);
    return { database, bus };
  };
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    for (const database of databases) await database.destroy();
  });

  it("news published by one instance reaches the person's listeners on another within 250 ms, and no one else's", async () => {
    const [a, b] = [instance(), instance()];
    await b.bus.listening();
    const forOther = collect((listener) => b.bus.subscribe("someone-else", listener), 1, 500);
    const heard = collect((listener) => b.bus.subscribe("person-1", listener));
    const sentAt = performance.now();
    await a.bus.publish({ kind: "events", userId: "person-1", eventId: 42 });
    const [first] = await heard;
    expect(first?.news).toEqual({ kind: "events", userId: "person-1", eventId: 42 });
    expect(first!.at - sentAt).toBeLessThan(250);
    expect(await forOther).toEqual([]);
  });

  it("the sender hears its own news too, and news of ended streams travels the same way", async () => {
    const { bus } = instance();
    await bus.listening();
    const heard = collect((listener) => bus.subscribe("person-2", listener), 2);
    await bus.publish({ kind: "events", userId: "person-2", eventId: 7 });
    await bus.publish({ kind: "end", userId: "person-2" });
    expect((await heard).map(({ news }) => news)).toEqual([
      { kind: "events", userId: "person-2", eventId: 7 },
      { kind: "end", userId: "person-2" },
    ]);
  });

  it("news for many people goes in one statement and arrives in order", async () => {
    const [a, b] = [instance(), instance()];
    await b.bus.listening();
    const people = Array.from({ length: 50 }, (_, i) => `many-${i}`);
    const heard: PersonNews[] = [];
    const stops = people.map((userId) => b.bus.subscribe(userId, (news) => heard.push(news)));
    await a.bus.publish(people.map((userId, i) => ({ kind: "events", userId, eventId: i + 1 })));
    const until = Date.now() + 2000;
    while (heard.length < people.length && Date.now() < until) await pause(10);
    for (const stop of stops) stop();
    expect(heard).toEqual(people.map((userId, i) => ({ kind: "events", userId, eventId: i + 1 })));
  });

  it("news for everyone (a new profile) reaches every instance's listeners", async () => {
    const [a, b] = [instance(), instance()];
    b.bus.subscribe("keeps-b-listening", () => undefined);
    await b.bus.listening();
    const heard = new Promise<BusNews>((resolve) => {
      const stop = b.bus.subscribeEveryone((news) => {
        stop();
        resolve(news);
      });
    });
    await a.bus.publish({ kind: "deck", authorId: "author-1", seenBy: "owners" });
    expect(await heard).toEqual({ kind: "deck", authorId: "author-1", seenBy: "owners" });
  });

  it("news published inside a transaction is heard once it commits, and never if it rolls back", async () => {
    const [a, b] = [instance(), instance()];
    await b.bus.listening();
    const heard = collect((listener) => b.bus.subscribe("person-3", listener), 2, 1500);
    let committedAt = 0;
    await a.database.transaction().execute(async (trx) => {
      await a.bus.publish({ kind: "events", userId: "person-3", eventId: 1 }, trx);
      await pause(300);
      committedAt = performance.now();
    });
    await a.database
      .transaction()
      .execute(async (trx) => {
        await a.bus.publish({ kind: "events", userId: "person-3", eventId: 2 }, trx);
        throw new Error("roll back");
      })
      .catch(() => undefined);
    const news = await heard;
    expect(news.map(({ news }) => news)).toEqual([{ kind: "events", userId: "person-3", eventId: 1 }]);
    expect(news[0]!.at).toBeGreaterThanOrEqual(committedAt);
  });

  it("payloads that are not the app's news on its channel are ignored", async () => {
    const [a, b] = [instance(), instance()];
    await b.bus.listening();
    const heard = collect((listener) => b.bus.subscribe("person-4", listener), 2, 1000);
    for (const payload of [
      "not json",
      '{"k":"e","u":"person-4","i":"1; drop table users"}',
      '{"k":"x"}',
      '{"k":"e","u":"person-4","i":1.5}',
    ]) {
      await sql`select pg_notify(${NOTIFY_CHANNEL}, ${payload})`.execute(a.database);
    }
    await a.bus.publish({ kind: "events", userId: "person-4", eventId: 9 });
    expect((await heard).map(({ news }) => news)).toEqual([{ kind: "events", userId: "person-4", eventId: 9 }]);
  });

  it("a listening connection that the server drops comes back by itself, asks every listener to read again, and hears later news", async () => {
    const [a, b] = [instance(), instance()];
    await b.bus.listening();
    const heard: PersonNews[] = [];
    const stop = b.bus.subscribe("person-5", (news) => heard.push(news));
    // Ends b's listening connection from the server's side, as a failover or a network cut would.
    const { rows } = await sql<{ ended: boolean }>`
      select pg_terminate_backend(pid) as ended from pg_stat_activity
      where datname = current_database() and application_name = 'trusted-sitters live events' and query ilike 'listen%'`.execute(
      a.database,
    );
    expect(rows.length).toBeGreaterThan(0);
    // While it was away it could have missed news: once back, its listeners read again (any event id).
    const until = Date.now() + 5000;
    while (heard.length === 0 && Date.now() < until) await pause(20);
    expect(heard).toEqual([{ kind: "events", userId: "person-5", eventId: Number.MAX_SAFE_INTEGER }]);
    await a.bus.publish({ kind: "events", userId: "person-5", eventId: 11 });
    while (heard.length < 2 && Date.now() < until + 2000) await pause(20);
    stop();
    expect(heard[1]).toEqual({ kind: "events", userId: "person-5", eventId: 11 });
  });

  it("a message crossing from one instance to another is timed into the delivery histogram", async () => {
    // Only these two instances from here on, and no heartbeat during the test: each delivery is this one.
    for (const bus of buses.splice(0)) await bus.close();
    const [a, b] = [instance(60_000), instance(60_000)];
    await b.bus.listening();
    await pause(200); // b's first heartbeat, sent as it starts listening, is back
    const delivered = async () => {
      const values = (await busDeliverySeconds.get()).values;
      const count = values.find((one) => one.metricName?.endsWith("_count"))?.value ?? 0;
      const sum = values.find((one) => one.metricName?.endsWith("_sum"))?.value ?? 0;
      return { count, sum };
    };
    const before = await delivered();
    const heard = collect((listener) => b.bus.subscribe("person-6", listener));
    await a.bus.publish({ kind: "events", userId: "person-6", eventId: 12 });
    expect((await heard).map(({ news }) => news)).toEqual([{ kind: "events", userId: "person-6", eventId: 12 }]);
    const after = await delivered();
    expect(after.count).toBe(before.count + 1);
    expect(after.sum - before.sum).toBeGreaterThanOrEqual(0);
    expect(after.sum - before.sum).toBeLessThan(0.25);
  });

  it("an instance's lag is its own heartbeat's round trip, and it grows while heartbeats do not come back", async () => {
    const working = connect();
    // Nothing listens on port 1: every heartbeat sent through it fails at once.
    const broken = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: "postgres://postgres@127.0.0.1:1/postgres", max: 1 }),
      }),
    });
    databases.push(working, broken);
    let sendThrough = working;
    const bus = new PostgresBus(url!, () => sendThrough, 50);
    buses.push(bus);
    expect(bus.lagSeconds()).toBe(0); // not listening yet
    await bus.listening();
    await pause(300);
    expect(bus.lagSeconds()).toBeLessThan(0.25);

    // Heartbeats can no longer be sent (a saturated or unreachable pool): the oldest one out ages.
    sendThrough = broken;
    await pause(600);
    expect(bus.lagSeconds()).toBeGreaterThanOrEqual(0.5);
    expect(bus.connection()).toBe("connected");

    sendThrough = working;
    await pause(300);
    expect(bus.lagSeconds()).toBeLessThan(0.25);
  });
});
