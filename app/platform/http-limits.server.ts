import http, { type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import { i18nServer, translatorFor } from "./i18n.server";
import type { Language } from "./i18n";
import { FORM_BODY_MAX_BYTES, type RequestBodyHandle } from "./request-limits";

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
    { headersTimeout: timeouts.headersTimeout, requestTimeout: timeouts.requestTimeout, connectionsCheckingInterval: timeouts.connectionsCheckingInterval },
    listener,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  // No inactivity timeout on a socket: an event stream may stay quiet between heartbeats.
  server.timeout = 0;
  return server;
}

export type BodyLimit = number | "upload";

type RouteNode = { id: string; path?: string; caseSensitive?: boolean } & ({ index: true } | { index?: false; children: RouteNode[] });

// On the path as Remix reads it: a `.data` suffix is a JavaScript request to the route without it.
export function requestBodyLimits(routes: ServerBuild["routes"]): (url: string, contentType: string | undefined) => BodyLimit {
  const nodesUnder = (parentId: string | undefined): RouteNode[] =>
    Object.values(routes)
      .filter((route) => route?.parentId === parentId)
      .map((route) => route!)
      .map((route) =>
        route.index
          ? { id: route.id, path: route.path, caseSensitive: route.caseSensitive, index: true as const }
          : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: nodesUnder(route.id) },
      );
  const tree = nodesUnder(undefined);
  return (url, contentType) => {
    let pathname: string;
    try {
      // As the Remix adapter builds it, so the same route matches.
      pathname = new URL(`http://localhost${url}`).pathname;
    } catch {
      return FORM_BODY_MAX_BYTES;
    }
    if (pathname.endsWith(".data")) pathname = pathname.slice(0, -".data".length).replace(/^\/_root$/, "/");
    const matches = matchRoutes(tree, pathname) ?? [];
    for (const match of matches.reverse()) {
      const handle = routes[match.route.id]?.module.handle as RequestBodyHandle | undefined;
      if (handle?.uploads && /^multipart\/form-data\s*;/i.test(contentType ?? "")) return "upload";
      if (handle?.bodyMaxBytes) return handle.bodyMaxBytes;
    }
    return FORM_BODY_MAX_BYTES;
  };
}

export interface RequestGuardOptions {
  limitOf: (url: string, contentType: string | undefined) => BodyLimit;
  receiveTimeoutMs?: number;
  lingerMs?: number;
}

type Next = (error?: unknown) => void;

// Held until the body is complete, so the app never sees a refused request.
export function createRequestGuard({ limitOf, receiveTimeoutMs = RECEIVE_TIMEOUT_MS, lingerMs = LINGER_MS }: RequestGuardOptions) {
  return function guardRequestBody(request: IncomingMessage, response: ServerResponse, next: Next) {
    const declaredLength = request.headers["content-length"];
    const hasBody = request.headers["transfer-encoding"] !== undefined || Number(declaredLength ?? 0) > 0;
    if (!hasBody) return next();
    const limit = limitOf(request.url ?? "/", request.headers["content-type"]);
    if (limit === "upload") return next();

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

async function sendRefusal(request: IncomingMessage, response: ServerResponse, status: 408 | 413) {
  let title = status === 413 ? "Too much was sent" : "That took too long";
  let body = "";
  let home = "Home";
  let language: Language = "en";
  try {
    language = (await i18nServer.getLocale(new Request(`http://localhost${request.url ?? "/"}`, { headers: headersOf(request) }))) as Language;
    const t = await translatorFor(language);
    const kind = status === 413 ? "tooLarge" : "timeout";
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
