// Per process (the app runs as one): for outside calls that cannot sit inside a transaction, such as a double-clicked Pay.
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
