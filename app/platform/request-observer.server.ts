import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { logger, runWithRequestLog, type RequestLog } from "./log.server";
import { observeRequest } from "./metrics.server";
import { remixPathOf, routeMatcher } from "./route-matches.server";

// Answered by the server itself, before the app: named as they are (they take no parameters).
const SERVER_PATHS = new Set(["/readyz"]);
// Polled by machines every few seconds: their lines are debug, not info.
const QUIET_ROUTES = new Set(["/healthz", "/readyz", "/metrics", "/assets/*"]);

/**
 * The pattern of the route that answers an address (`/bookings/:bookingId`, `/*` for a page not found),
 * as the app's routes declare it: what metrics and logs name a request by, so ids never become labels.
 */
export function routePatterns(routes: ServerBuild["routes"]): (url: string) => string {
  const matchesOf = routeMatcher(routes);
  return (url) => {
    const pathname = remixPathOf(url);
    if (pathname === null) return "unparsable";
    if (pathname.startsWith("/assets/")) return "/assets/*";
    if (SERVER_PATHS.has(pathname)) return pathname;
    const matches = matchesOf(pathname);
    if (!matches) return "unmatched";
    const parts = matches.map((match) => match.path).filter((part): part is string => Boolean(part));
    return `/${parts.join("/")}`.replace(/\/+/g, "/");
  };
}

const requestLogs = new WeakMap<ServerResponse, RequestLog>();

/** The log context of the request `response` answers (server.js enters it again around the app). */
export const requestLogOf = (response: ServerResponse): RequestLog | undefined => requestLogs.get(response);

type Next = (error?: unknown) => void;

/**
 * Gives each request an id (sent back as X-Request-Id and carried into every line it causes), and once
 * it is answered counts it (route pattern, method, status class, duration) and logs one line for it:
 * never its address (a query may hold a token) nor anything it sent.
 */
export function createRequestObserver({ routes }: { routes: ServerBuild["routes"] }) {
  const patternOf = routePatterns(routes);
  return function observe(request: IncomingMessage, response: ServerResponse, next: Next) {
    const startedAt = process.hrtime.bigint();
    const log: RequestLog = { requestId: randomUUID() };
    requestLogs.set(response, log);
    response.setHeader("X-Request-Id", log.requestId);
    response.once("close", () => {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const route = patternOf(request.url ?? "/");
      const method = request.method ?? "GET";
      const status = response.headersSent ? response.statusCode : 499;
      const stream = String(response.getHeader("Content-Type") ?? "").includes("text/event-stream");
      observeRequest(route, method, status, stream ? null : seconds);
      const line = {
        event: "request",
        reqId: log.requestId,
        ...(log.personId ? { personId: log.personId } : {}),
        method,
        route,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        ...(response.writableFinished ? {} : { aborted: true }),
      };
      if (QUIET_ROUTES.has(route)) logger.debug(line, "request");
      else if (status >= 500) logger.error(line, "request");
      else logger.info(line, "request");
    });
    runWithRequestLog(log, next);
  };
}
