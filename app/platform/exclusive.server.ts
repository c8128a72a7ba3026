import { sql, type Kysely } from "kysely";
import type { Database } from "~db/schema";
import { databaseEngine, db } from "./db.server";

// Work that several app instances must not do at the same time (a scheduler round, an email batch).
// SQLite: the app runs as one process (the database is a file of that machine), so the caller's own
// guard is enough. PostgreSQL: a session advisory lock, held on one reserved connection of the pool
// while the work runs on the others; PostgreSQL lets it go by itself if that connection dies.

/** The first half of every key: other advisory locks of the app (lock.server) use other spaces. */
export const JOB_LOCK_SPACE = 0x54534a42;

export type Outcome<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` while holding the lock named `name` on PostgreSQL. Without `wait`, gives up at once
 * (`ran: false`) when another instance holds it; with `wait`, runs once it is free.
 */
export async function withAdvisoryLock<T>(
  database: Kysely<Database>,
  name: string,
  work: () => Promise<T>,
  { wait = false } = {},
): Promise<Outcome<T>> {
  return database.connection().execute(async (connection) => {
    if (wait) {
      await sql`select pg_advisory_lock(${JOB_LOCK_SPACE}::int4, hashtext(${name}))`.execute(connection);
    } else {
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_lock(${JOB_LOCK_SPACE}::int4, hashtext(${name})) as locked`.execute(connection);
      if (!rows[0]?.locked) return { ran: false };
    }
    try {
      return { ran: true, value: await work() };
    } finally {
      await sql`select pg_advisory_unlock(${JOB_LOCK_SPACE}::int4, hashtext(${name}))`
        .execute(connection)
        .catch(() => undefined);
    }
  });
}

/** One instance at a time does `work`: see withAdvisoryLock. */
export async function acrossInstances<T>(
  name: string,
  work: () => Promise<T>,
  options: { wait?: boolean } = {},
): Promise<Outcome<T>> {
  if (databaseEngine === "sqlite") return { ran: true, value: await work() };
  return withAdvisoryLock(db, name, work, options);
}

/**
 * A delivery run (emails, pushes) that happens once at a time, across instances too: a call during a run asks
 * for one more run after it, since the running batch may have been read before the caller's row was stored.
 * So nothing is sent twice and nothing waits for the next scheduler round.
 */
export function oneDeliveryAtATime(name: string, deliverBatch: () => Promise<void>): () => Promise<void> {
  let delivering: Promise<void> | null = null;
  let deliverAgain = false;
  return () => {
    if (delivering) {
      deliverAgain = true;
      return delivering;
    }
    delivering = (async () => {
      try {
        do {
          deliverAgain = false;
          await acrossInstances(name, deliverBatch, { wait: true });
        } while (deliverAgain);
      } finally {
        delivering = null;
      }
    })();
    return delivering;
  };
}

/** The wait before retry number `attempts`: doubling from the first delay, up to the longest. */
export const backoffDelayMs = (
  attempts: number,
  { firstDelayMs, maxDelayMs }: { firstDelayMs: number; maxDelayMs: number },
) => Math.min(firstDelayMs * 2 ** Math.max(attempts - 1, 0), maxDelayMs);
