// A message only says "something new for this person"; streams read what from the database. A
// multi-node deployment can put PostgreSQL LISTEN/NOTIFY or Redis behind the same interface.
export interface EventBus {
  publish(userId: string): void;
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
