import type { Kysely } from "kysely";
import type { Database, LiveEventType } from "~db/schema";
import { db, json } from "~/platform/db.server";
import { now, nowIso } from "~/platform/clock.server";
import { bus } from "./bus.server";

// Stored first, so a reconnecting tab can ask for what it missed. Announcing inside the transaction is
// safe: on SQLite the database has one connection, so a stream's read waits for the commit; on
// PostgreSQL the NOTIFY is sent within the transaction, and so heard only once it commits.

export interface LiveEvent {
  userId: string;
  type: LiveEventType;
  payload?: Record<string, string | number | null>;
}

export interface RecordedEvent {
  id: number;
  userId: string;
  type: LiveEventType;
  payload: string;
}

export async function recordEvents(events: LiveEvent[], database: Kysely<Database> = db): Promise<RecordedEvent[]> {
  const recorded: RecordedEvent[] = [];
  for (const event of events) {
    const payload = json<unknown>().write(event.payload ?? {});
    const row = await database
      .insertInto("live_events")
      .values({ user_id: event.userId, type: event.type, payload, created_at: nowIso() })
      .returning("id")
      .executeTakeFirstOrThrow();
    recorded.push({ id: row.id, userId: event.userId, type: event.type, payload });
  }
  const newest = new Map<string, number>();
  for (const event of recorded) newest.set(event.userId, Math.max(event.id, newest.get(event.userId) ?? 0));
  await bus.publish(
    [...newest].map(([userId, eventId]) => ({ kind: "events" as const, userId, eventId })),
    database,
  );
  return recorded;
}

export async function missedEvents(userId: string, afterId: number, limit = 500) {
  return db
    .selectFrom("live_events")
    .select(["id", "type", "payload"])
    .where("user_id", "=", userId)
    .where("id", ">", afterId)
    .orderBy("id")
    .limit(limit)
    .execute();
}

export async function latestEventId(userId: string): Promise<number> {
  const row = await db
    .selectFrom("live_events")
    .select("id")
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? 0;
}

export async function pruneEvents(): Promise<void> {
  const dayAgo = new Date(now().getTime() - 24 * 3600_000).toISOString();
  await db.deleteFrom("live_events").where("created_at", "<", dayAgo).execute();
}

/** An erased person's stored live events. */
export async function eraseEventsOf(userId: string, trx: Kysely<Database>): Promise<void> {
  await trx.deleteFrom("live_events").where("user_id", "=", userId).execute();
}
