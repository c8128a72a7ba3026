/**
 * Publish/subscribe between the code that changes things and the open event streams. A message
 * only says "there is something new for this person"; the streams read what from the database.
 * This bus lives in the server process; a multi-node deployment can put PostgreSQL LISTEN/NOTIFY
 * or Redis behind the same interface without touching callers.
 */
export interface EventBus {
  publish(userId: string): void;
  /** Listens for one person's news; returns the function that stops listening. */
  subscribe(userId: string, listener: () => void): () => void;
}

class InProcessBus implements EventBus {
  private listeners = new Map<string, Set<() => void>>();

  publish(userId: string) {
    for (const listener of this.listeners.get(userId) ?? []) listener();
  }

  subscribe(userId: string, listener: () => void) {
    const set = this.listeners.get(userId) ?? new Set();
    set.add(listener);
    this.listeners.set(userId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }
}

export const bus: EventBus = new InProcessBus();
