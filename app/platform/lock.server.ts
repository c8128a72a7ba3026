// Per process (the app runs as one, next to its SQLite file). For outside calls that cannot sit inside a
// transaction, such as the payment provider: a double-clicked Pay waits for the first click's answer.
const queues = new Map<string, Promise<unknown>>();

export async function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}
