import { withDatabaseLock } from "./db.server";

// For outside calls that cannot sit inside a transaction, such as a double-clicked Pay. Within one
// process a queue per key; across instances (PostgreSQL) the queue's head also holds the database's
// lock for the key, so only one waiter per process ever sits on a database connection.
const queues = new Map<string, Promise<unknown>>();

export async function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const locked = () => withDatabaseLock(`serialized:${key}`, work);
  const run = before.then(locked, locked);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}
