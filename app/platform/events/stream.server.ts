import { bus } from "./bus.server";
import { missedEvents } from "./events.server";

/** A comment line at least this often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 25_000;
/** What EventSource waits before reconnecting. */
export const RETRY_MS = 3_000;

const openStreams = new Set<() => void>();

/**
 * One signed-in tab's server-sent event stream: what it missed since Last-Event-ID first, then
 * each new event of the person as the bus announces it. Each heartbeat also checks `stillSignedIn`, so the stream
 * ends when the session does. `closeAllStreams` ends them all when the server shuts down.
 */
export function eventStreamFor(
  request: Request,
  userId: string,
  { lastEventId, stillSignedIn, heartbeatMs = HEARTBEAT_MS }: { lastEventId: number; stillSignedIn: () => Promise<boolean>; heartbeatMs?: number },
): Response {
  const encoder = new TextEncoder();
  let close = () => {};
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let sentUpTo = lastEventId;
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      // Sends every stored event after the last one sent; news arriving meanwhile runs it again.
      let reading: Promise<void> | null = null;
      let again = false;
      const catchUp = () => {
        if (reading) {
          again = true;
          return;
        }
        reading = (async () => {
          do {
            again = false;
            for (const event of await missedEvents(userId, sentUpTo)) {
              sentUpTo = event.id;
              write(`id: ${event.id}\nevent: ${event.type}\ndata: ${event.payload}\n\n`);
            }
          } while (again && !closed);
        })()
          .catch(() => undefined)
          .finally(() => {
            reading = null;
          });
      };
      const unsubscribe = bus.subscribe(userId, catchUp);
      const heartbeat = setInterval(() => {
        write(`: heartbeat\n\n`);
        stillSignedIn().then((signedIn) => signedIn || close(), () => undefined);
      }, heartbeatMs);
      close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        openStreams.delete(close);
        request.signal.removeEventListener("abort", close);
        try {
          controller.close();
        } catch {
          // Already closed by the client.
        }
      };
      openStreams.add(close);
      request.signal.addEventListener("abort", close);
      write(`retry: ${RETRY_MS}\n\n`);
      catchUp();
    },
    cancel() {
      close();
    },
  });
  return new Response(body, {
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" },
  });
}

export function closeAllStreams(): void {
  for (const close of [...openStreams]) close();
}

export const openStreamCount = () => openStreams.size;
