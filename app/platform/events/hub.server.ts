import { bus, type PersonNews } from "./bus.server";
import { missedEvents } from "./events.server";
import { encodeFrame } from "./frames.server";
import { logger } from "~/platform/log.server";

export interface HubStream {
  readonly sessionKey: string;
  sentUpTo: number;
  /** Bytes shared by every stream they go to: never changed once written. */
  write(bytes: Uint8Array): void;
  displace(): void;
}

export interface StreamLimits {
  perSession: number;
  perPerson: number;
}

const PAGE = 500;

// One database read per news for all of a person's tabs, from the lowest id any of their streams has sent.
class PersonHub {
  readonly streams = new Set<HubStream>();
  private reading = false;
  private again = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly userId: string) {
    this.unsubscribe = bus.subscribe(userId, (news) => this.heard(news));
  }

  private heard(news: PersonNews) {
    if (news.kind === "end") return this.end();
    // News of events every stream here has already sent (read for other news meanwhile) needs no read.
    for (const stream of this.streams) if (stream.sentUpTo < news.eventId) return this.deliver();
  }

  end() {
    for (const stream of [...this.streams]) stream.displace();
  }

  join(stream: HubStream, limits: StreamLimits) {
    const open = [...this.streams];
    const ofSession = open.filter((other) => other.sessionKey === stream.sessionKey);
    const leaving = new Set(ofSession.slice(0, Math.max(0, ofSession.length + 1 - limits.perSession)));
    const staying = open.filter((other) => !leaving.has(other));
    for (const oldest of staying.slice(0, Math.max(0, staying.length + 1 - limits.perPerson))) leaving.add(oldest);
    this.streams.add(stream);
    for (const oldest of leaving) {
      this.streams.delete(oldest);
      oldest.displace();
    }
    this.deliver();
  }

  leave(stream: HubStream): boolean {
    this.streams.delete(stream);
    if (this.streams.size > 0) return false;
    this.unsubscribe();
    return true;
  }

  private deliver() {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void (async () => {
      try {
        do {
          this.again = false;
          if (this.streams.size === 0) break;
          const after = Math.min(...[...this.streams].map((stream) => stream.sentUpTo));
          const events = await missedEvents(this.userId, after, PAGE);
          // Encoded once for all of the person's streams.
          const frames = events.map((event) =>
            encodeFrame(`id: ${event.id}\nevent: ${event.type}\ndata: ${event.payload}\n\n`),
          );
          // The rows are every event after `after` up to the last one read: a stream that had sent
          // less than that (it opened during the read) waits for the next round, so its events stay in order.
          for (const stream of this.streams) {
            if (stream.sentUpTo < after) continue;
            for (const [index, event] of events.entries()) {
              if (event.id <= stream.sentUpTo) continue;
              stream.sentUpTo = event.id;
              stream.write(frames[index]!);
            }
          }
          if (events.length === PAGE) this.again = true;
        } while (this.again);
      } catch {
        // The database is going away (shutdown); the next news reads again.
      }
      // In the same turn as the last check of `again`, so no news can slip in between.
      this.reading = false;
    })();
  }
}

// This instance's streams: caps count per instance, news from the others arrives through the bus.
const hubs = new Map<string, PersonHub>();

export function joinHub(userId: string, stream: HubStream, limits: StreamLimits): () => void {
  let hub = hubs.get(userId);
  if (!hub) {
    hub = new PersonHub(userId);
    hubs.set(userId, hub);
  }
  const joined = hub;
  joined.join(stream, limits);
  return () => {
    if (joined.leave(stream) && hubs.get(userId) === joined) hubs.delete(userId);
  };
}

/** The people with a stream open on this instance (not on the others). */
export const connectedUserIds = (): string[] => [...hubs.keys()];

/**
 * Ends every open stream of a person at once (suspension or account deletion), on every instance:
 * each is told not to reconnect, as a displaced stream is. The one way to end a person's live streams.
 */
export function endStreamsOf(userId: string): void {
  // In one process this ends them before it returns.
  bus
    .publish({ kind: "end", userId })
    .catch((error: unknown) => logger.error({ event: "streams.end-failed", err: error }, "Could not end live streams"));
}
