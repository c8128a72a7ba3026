import { env } from "~/platform/env.server";
import { joinHub, type StreamLimits } from "./hub.server";

// Keeps proxies from closing an idle stream.
export const HEARTBEAT_MS = 25_000;
export const RETRY_MS = 3_000;
// A day: a tab whose script does not close the stream on `displaced` still does not come back to push out another.
export const DISPLACED_RETRY_MS = 86_400_000;

const openStreams = new Set<() => void>();

const configuredLimits = (): StreamLimits => ({ perSession: env.MAX_STREAMS_PER_SESSION, perPerson: env.MAX_STREAMS_PER_PERSON });

export function eventStreamFor(
  request: Request,
  userId: string,
  {
    lastEventId,
    stillSignedIn,
    sessionKey = "",
    heartbeatMs = HEARTBEAT_MS,
    limits = configuredLimits(),
  }: { lastEventId: number; stillSignedIn: () => Promise<boolean>; sessionKey?: string; heartbeatMs?: number; limits?: StreamLimits },
): Response {
  const encoder = new TextEncoder();
  let close = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const write = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const heartbeat = setInterval(() => {
        write(`: heartbeat\n\n`);
        stillSignedIn().then((signedIn) => signedIn || close(), () => undefined);
      }, heartbeatMs);
      let leaveHub = () => {};
      close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        leaveHub();
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
      if (request.signal.aborted) return close();
      write(`retry: ${RETRY_MS}\n\n`);
      leaveHub = joinHub(
        userId,
        {
          sessionKey,
          sentUpTo: lastEventId,
          write,
          displace() {
            write(`retry: ${DISPLACED_RETRY_MS}\nevent: displaced\ndata: {}\n\n`);
            close();
          },
        },
        limits,
      );
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
