import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { i18nServer, translatorFor } from "./i18n.server";
import type { Language } from "./i18n";
import { FORM_BODY_MAX_BYTES, type RequestBodyHandle } from "./request-limits";
import { remixPathOf, routeMatcher } from "./route-matches.server";
import { uploaderOf as signedInUploader } from "./upload-gate.server";

export interface ServerTimeouts {
  // 20 s is ample on a poor mobile network, and bounds a client that trickles headers (slowloris).
  headersTimeout: number;
  // 10 minutes, for six photos from a phone on a slow network; other bodies get RECEIVE_TIMEOUT_MS.
  requestTimeout: number;
  // Longer than the usual proxies' idle timeout (60 s), so they close it, never we while they send on it.
  // Node 18+ counts headersTimeout from a request's first byte, so it need not exceed this.
  keepAliveTimeout: number;
  // Node checks the timeouts this often; at its default (30 s) a 20 s limit could last 50 s.
  connectionsCheckingInterval: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersTimeout: 20_000,
  requestTimeout: 10 * 60_000,
  keepAliveTimeout: 65_000,
  connectionsCheckingInterval: 5_000,
};

// Our forms are a few KB: a minute is generous on any network.
export const RECEIVE_TIMEOUT_MS = 60_000;

// Closing while the client still sends would reset the connection, and the client could lose our answer.
export const LINGER_MS = 2_000;

export function createHttpServer(listener: RequestListener, timeouts: ServerTimeouts = SERVER_TIMEOUTS): http.Server {
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersTimeout,
      requestTimeout: timeouts.requestTimeout,
      connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
    },
    listener,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  // No inactivity timeout on a socket: an event stream may stay quiet between heartbeats.
  server.timeout = 0;
  return server;
}

export type BodyLimit = number | "upload";

// On the path as Remix reads it (remixPathOf): the innermost route that says its limit decides.
export function requestBodyLimits(
  routes: ServerBuild["routes"],
): (url: string, contentType: string | undefined) => BodyLimit {
  const matchesOf = routeMatcher(routes);
  return (url, contentType) => {
    const pathname = remixPathOf(url);
    if (pathname === null) return FORM_BODY_MAX_BYTES;
    const matches = matchesOf(pathname) ?? [];
    for (let i = matches.length - 1; i >= 0; i--) {
      const handle = routes[matches[i]!.id]?.module.handle as RequestBodyHandle | undefined;
      if (handle?.uploads && /^multipart\/form-data\s*;/i.test(contentType ?? "")) return "upload";
      if (handle?.bodyMaxBytes) return handle.bodyMaxBytes;
    }
    return FORM_BODY_MAX_BYTES;
  };
}

export interface UploadLimits {
  /** Uploads one person may have in flight at once; more wait for none, they are refused (429). */
  perPerson: number;
  /** Uploads in flight in this process, everyone together: each may hold a few files in memory. */
  perProcess: number;
  /** After the first graceMs, every window of windowMs must bring at least this many bytes a second. */
  minBytesPerSecond: number;
  graceMs: number;
  windowMs: number;
}

// 2 KB/s is a poor 2G connection; a client trickling a byte every two seconds is cut after 10 s.
export const UPLOAD_LIMITS: UploadLimits = {
  perPerson: 3,
  perProcess: 12,
  minBytesPerSecond: 2048,
  graceMs: 10_000,
  windowMs: 10_000,
};

export interface RequestGuardOptions {
  limitOf: (url: string, contentType: string | undefined) => BodyLimit;
  receiveTimeoutMs?: number;
  lingerMs?: number;
  /** Who sends an upload (signed in, not suspended), from its headers alone; null refuses it unread. */
  uploaderOf?: (headers: IncomingHttpHeaders) => Promise<string | null>;
  uploadLimits?: UploadLimits;
}

type Next = (error?: unknown) => void;

// Held until the body is complete, so the app never sees a refused request.
export function createRequestGuard({
  limitOf,
  receiveTimeoutMs = RECEIVE_TIMEOUT_MS,
  lingerMs = LINGER_MS,
  uploaderOf = signedInUploader,
  uploadLimits = UPLOAD_LIMITS,
}: RequestGuardOptions) {
  const guardUpload = createUploadGuard(uploaderOf, uploadLimits, lingerMs);
  return function guardRequestBody(request: IncomingMessage, response: ServerResponse, next: Next) {
    const declaredLength = request.headers["content-length"];
    const hasBody = request.headers["transfer-encoding"] !== undefined || Number(declaredLength ?? 0) > 0;
    if (!hasBody) return next();
    const limit = limitOf(request.url ?? "/", request.headers["content-type"]);
    if (limit === "upload") return guardUpload(request, response, next);

    const refuse = (status: 408 | 413) => {
      void sendRefusal(request, response, status).finally(() => lingerThenClose(request, response, lingerMs));
    };
    if (declaredLength !== undefined && Number(declaredLength) > limit) return refuse(413);

    let state: "receiving" | "refused" | "passed" = "receiving";
    const held: Buffer[] = [];
    let received = request.readableLength;
    const push = request.push;
    const timer = setTimeout(() => {
      if (state !== "receiving") return;
      state = "refused";
      held.length = 0;
      refuse(408);
    }, receiveTimeoutMs);
    timer.unref();
    request.once("close", () => clearTimeout(timer));

    request.push = function (chunk: unknown, encoding?: BufferEncoding): boolean {
      if (chunk === null) {
        clearTimeout(timer);
        delete (request as { push?: unknown }).push;
        if (state === "refused") return push.call(this, null);
        state = "passed";
        for (const part of held.splice(0)) push.call(this, part);
        push.call(this, null);
        next();
        return false;
      }
      if (state === "refused") return true;
      const part = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, encoding);
      received += part.byteLength;
      if (received > limit) {
        state = "refused";
        held.length = 0;
        clearTimeout(timer);
        refuse(413);
        return true;
      }
      held.push(part);
      return true;
    };
  };
}

/**
 * Uploads are streamed to their route, so they are watched instead of held: refused unread from a
 * client that is not signed in (401) or that already has perPerson uploads in flight, or when the
 * process has perProcess (429); cut once they arrive slower than minBytesPerSecond after graceMs.
 * A cut upload is answered 408 and its connection closed soon after, which ends the route's wait.
 */
function createUploadGuard(
  uploaderOf: (headers: IncomingHttpHeaders) => Promise<string | null>,
  limits: UploadLimits,
  lingerMs: number,
) {
  const inFlight = new Map<string, number>();
  let total = 0;
  return function guardUpload(request: IncomingMessage, response: ServerResponse, next: Next) {
    const refuse = (status: 401 | 429) => {
      void sendRefusal(request, response, status).finally(() => lingerThenClose(request, response, lingerMs));
    };
    // Nothing reads the body until next(): meanwhile the socket's buffer fills and the client waits.
    void uploaderOf(request.headers)
      .catch(() => null)
      .then((personId) => {
        if (!personId) return refuse(401);
        const mine = inFlight.get(personId) ?? 0;
        if (mine >= limits.perPerson || total >= limits.perProcess) return refuse(429);
        inFlight.set(personId, mine + 1);
        total += 1;
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          total -= 1;
          const left = (inFlight.get(personId) ?? 1) - 1;
          if (left > 0) inFlight.set(personId, left);
          else inFlight.delete(personId);
        };
        response.once("close", release);
        watchUploadRate(request, response, limits, lingerMs);
        next();
      });
  };
}

function watchUploadRate(request: IncomingMessage, response: ServerResponse, limits: UploadLimits, lingerMs: number) {
  const startedAt = Date.now();
  let received = request.readableLength;
  let cut = false;
  // Bytes received by the end of each second so far: the window's start is looked up here.
  const seconds: number[] = [];
  const push = request.push;
  request.push = function (chunk: unknown, encoding?: BufferEncoding): boolean {
    if (cut) return true;
    if (chunk !== null)
      received += Buffer.isBuffer(chunk) ? chunk.byteLength : Buffer.byteLength(String(chunk), encoding);
    else stop();
    return push.call(this, chunk as Buffer, encoding);
  };
  const timer = setInterval(() => {
    seconds.push(received);
    const elapsed = Date.now() - startedAt;
    if (elapsed < limits.graceMs) return;
    const windowSeconds = Math.round(limits.windowMs / 1000);
    const before = seconds.length > windowSeconds ? seconds[seconds.length - 1 - windowSeconds]! : 0;
    if (received - before >= (limits.minBytesPerSecond * limits.windowMs) / 1000) return;
    cut = true;
    stop();
    // The route is still waiting for the body: it gets no more of it, the client gets a 408 (unless
    // the route has answered already), and the connection closes a moment later, ending the route's wait.
    const close = () => setTimeout(() => request.socket?.destroy(), lingerMs).unref();
    if (response.headersSent || response.destroyed) return close();
    // The route's own answer, which comes later, is then dropped (server.js) rather than logged as an error.
    (response as ServerResponse & { uploadCut?: true }).uploadCut = true;
    void sendRefusal(request, response, 408).finally(close);
  }, 1000);
  timer.unref();
  function stop() {
    clearInterval(timer);
    if (!cut) delete (request as { push?: unknown }).push;
  }
  request.once("close", stop);
}

async function sendRefusal(request: IncomingMessage, response: ServerResponse, status: 401 | 408 | 413 | 429) {
  const kind =
    status === 413 ? "tooLarge" : status === 408 ? "timeout" : status === 401 ? "uploadSignedOut" : "uploadBusy";
  let title = {
    tooLarge: "Too much was sent",
    timeout: "That took too long",
    uploadSignedOut: "Sign in to send files",
    uploadBusy: "Too many uploads at once",
  }[kind];
  let body = {
    tooLarge: "What was sent is larger than this page accepts, so it was not read and nothing was saved.",
    timeout: "What was sent did not arrive in time, so nothing was saved.",
    uploadSignedOut: "Your session has ended, so the files were not read. Sign in and send them again.",
    uploadBusy:
      "Other uploads of yours are still on their way, so these files were not read. Wait for them to finish, then try again.",
  }[kind];
  let home = "Home";
  let language: Language = "en";
  try {
    language = (await i18nServer.getLocale(
      new Request(`http://localhost${request.url ?? "/"}`, { headers: headersOf(request) }),
    )) as Language;
    const t = await translatorFor(language);
    title = t(`errors.${kind}Title`);
    body = t(`errors.${kind}Body`);
    home = t("notFound.home");
  } catch {
    // The English words above.
  }
  if (response.headersSent || response.destroyed) return;
  const html = /\btext\/html\b/.test(request.headers.accept ?? "");
  const text = html
    ? `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>` +
      `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p><p><a href="/">${escapeHtml(home)}</a></p></main></body></html>`
    : `${title}\n${body}\n`;
  response.writeHead(status, {
    "Content-Type": html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
  });
  response.end(text);
}

function lingerThenClose(request: IncomingMessage, response: ServerResponse, lingerMs: number) {
  let lingering = false;
  const close = () => {
    if (lingering || request.complete) return;
    lingering = true;
    request.resume();
    setTimeout(() => {
      if (!request.complete) request.socket.destroy();
    }, lingerMs).unref();
  };
  if (response.writableFinished || response.destroyed) close();
  else response.once("finish", close).once("close", close);
}

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const name of ["cookie", "accept-language"]) {
    const value = request.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return headers;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
