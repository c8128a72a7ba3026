import { env } from "~/platform/env.server";
import { encodeFrame } from "./frames.server";
import { joinHub, type HubStream, type StreamLimits } from "./hub.server";

// Keeps proxies from closing an idle stream.
export const HEARTBEAT_MS = 25_000;
export const RETRY_MS = 3_000;
// A day: a tab whose script does not close the stream on `displaced` still does not come back to push out another.
export const DISPLACED_RETRY_MS = 86_400_000;

// A process may hold 10,000 streams: each is one object with its methods on the prototype (no closures),
// the bytes it sends are encoded once and shared, and one timer per heartbeat interval serves them all.
const RETRY_FRAME = encodeFrame(`retry: ${RETRY_MS}\n\n`);
const HEARTBEAT_FRAME = encodeFrame(`: heartbeat\n\n`);
const DISPLACED_FRAME = encodeFrame(`retry: ${DISPLACED_RETRY_MS}\nevent: displaced\ndata: {}\n\n`);

const openStreams = new Set<LiveStream>();

/**
 * Streams sharing a heartbeat interval beat from one timer, spread over SLOTS ticks: each stream still
 * beats once per interval, and the session checks that follow a beat come a slice at a time rather
 * than all at once.
 */
class HeartbeatWheel {
  static readonly SLOTS = 25;
  private readonly slots: Set<LiveStream>[] = Array.from({ length: HeartbeatWheel.SLOTS }, () => new Set());
  private next = 0;
  private placed = 0;
  private size = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly intervalMs: number) {}

  add(stream: LiveStream): number {
    const slot = this.placed++ % HeartbeatWheel.SLOTS;
    this.slots[slot]!.add(stream);
    this.size += 1;
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), Math.max(1, this.intervalMs / HeartbeatWheel.SLOTS));
      this.timer.unref();
    }
    return slot;
  }

  remove(stream: LiveStream, slot: number) {
    if (!this.slots[slot]!.delete(stream)) return;
    this.size -= 1;
    if (this.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      wheels.delete(this.intervalMs);
    }
  }

  private tick() {
    const slot = this.slots[this.next]!;
    this.next = (this.next + 1) % HeartbeatWheel.SLOTS;
    for (const stream of [...slot]) stream.beat();
  }
}

const wheels = new Map<number, HeartbeatWheel>();

function wheelFor(intervalMs: number): HeartbeatWheel {
  let wheel = wheels.get(intervalMs);
  if (!wheel) {
    wheel = new HeartbeatWheel(intervalMs);
    wheels.set(intervalMs, wheel);
  }
  return wheel;
}

class LiveStream implements HubStream, UnderlyingDefaultSource<Uint8Array> {
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private closed = false;
  private leaveHub: (() => void) | undefined;
  private wheel: HeartbeatWheel | undefined;
  private slot = 0;

  constructor(
    private readonly request: Request,
    private readonly userId: string,
    readonly sessionKey: string,
    public sentUpTo: number,
    private readonly stillSignedIn: () => Promise<boolean>,
    private readonly heartbeatMs: number,
    private readonly limits: StreamLimits,
  ) {}

  start(controller: ReadableStreamDefaultController<Uint8Array>) {
    this.controller = controller;
    if (this.request.signal.aborted) return this.close();
    openStreams.add(this);
    // An object with handleEvent is a listener too: no closure per stream.
    this.request.signal.addEventListener("abort", this);
    this.wheel = wheelFor(this.heartbeatMs);
    this.slot = this.wheel.add(this);
    this.write(RETRY_FRAME);
    this.leaveHub = joinHub(this.userId, this, this.limits);
  }

  cancel() {
    this.close();
  }

  handleEvent() {
    this.close();
  }

  write(bytes: Uint8Array) {
    if (!this.closed) this.controller!.enqueue(bytes);
  }

  beat() {
    this.write(HEARTBEAT_FRAME);
    this.stillSignedIn().then(
      (signedIn) => signedIn || this.close(),
      () => undefined,
    );
  }

  displace() {
    this.write(DISPLACED_FRAME);
    this.close();
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.wheel?.remove(this, this.slot);
    this.leaveHub?.();
    openStreams.delete(this);
    this.request.signal.removeEventListener("abort", this);
    try {
      this.controller?.close();
    } catch {
      // Already closed by the client.
    }
  }
}

const configuredLimits = (): StreamLimits => ({
  perSession: env.MAX_STREAMS_PER_SESSION,
  perPerson: env.MAX_STREAMS_PER_PERSON,
});

const STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
};

export function eventStreamFor(
  request: Request,
  userId: string,
  {
    lastEventId,
    stillSignedIn,
    sessionKey = "",
    heartbeatMs = HEARTBEAT_MS,
    limits = configuredLimits(),
  }: {
    lastEventId: number;
    stillSignedIn: () => Promise<boolean>;
    sessionKey?: string;
    heartbeatMs?: number;
    limits?: StreamLimits;
  },
): Response {
  const stream = new LiveStream(request, userId, sessionKey, lastEventId, stillSignedIn, heartbeatMs, limits);
  return new Response(new ReadableStream<Uint8Array>(stream), { headers: STREAM_HEADERS });
}

export function closeAllStreams(): void {
  for (const stream of [...openStreams]) stream.close();
}

export const openStreamCount = () => openStreams.size;
