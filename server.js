// The HTTP server: Express around the Remix app. Development runs Vite in middleware mode;
// production and tests serve the built app from ./build.
import "./scripts/load-env.js";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import { readdirSync } from "node:fs";
import net from "node:net";

const mode = process.env.NODE_ENV ?? "development";
const development = mode === "development";
const port = Number(process.env.PORT ?? 3000);

const viteDevServer = development
  ? await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }))
  : undefined;

const loadBuild = () =>
  viteDevServer ? viteDevServer.ssrLoadModule("virtual:remix/server-build") : import("./build/server/index.js");

const build = await loadBuild();
/** entry.server.tsx exports the app's start, stop, security and operations helpers. */
const app = build.entry.module;
const { logger } = app;

const server = express();
server.disable("x-powered-by");
server.set("trust proxy", false);

// Each request gets an id (X-Request-Id), one log line and its place in /metrics (see request-observer.server.ts).
server.use(app.createRequestObserver({ routes: build.routes }));

// Never compress (and so never buffer) an event stream. Pages are made for each request, so they are
// compressed at level 3 (a few more bytes for much less CPU); built files, kept a year, at the default.
const compressible = (req, res) =>
  !String(res.getHeader("Content-Type") ?? "").includes("text/event-stream") && compression.filter(req, res);
const compressFile = compression({ filter: compressible });
const compressPage = compression({ filter: compressible, level: 3 });
server.use((req, res, next) => (req.path.startsWith("/assets/") ? compressFile : compressPage)(req, res, next));

// Remix flushes the compressor after every chunk it writes, and each flush ends a deflate block early:
// more CPU and more bytes. One flush per turn of the event loop sends a page's chunks written together
// in one block, and still sends each part of a stream as soon as it is written.
server.use((req, res, next) => {
  const flush = res.flush;
  if (typeof flush === "function") {
    let scheduled = false;
    res.flush = function flushOncePerTurn() {
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        if (!res.writableEnded) flush.call(res);
      });
    };
  }
  next();
});

const https = (process.env.APP_URL ?? "").startsWith("https:");
let requestsInFlight = 0;
let lastRequestEndedAt = Date.now();
server.use((req, res, next) => {
  requestsInFlight += 1;
  res.on("close", () => {
    requestsInFlight -= 1;
    lastRequestEndedAt = Date.now();
  });
  // While stopping, every answer closes its connection.
  if (stopping) res.set("Connection", "close");
  res.locals.cspNonce = app.createNonce();
  res.set(app.securityHeaders({ nonce: res.locals.cspNonce, https, development }));
  next();
});

// Readiness, answered while the app starts (migrations) and stops too; /healthz stays the liveness check.
server.get("/readyz", app.readyzHandler());
// The server listens from the start so /readyz can say why it is not ready; the app answers once started.
let started = false;
server.use((req, res, next) => {
  if (started) return next();
  res.status(503).set("Retry-After", "5").type("text/plain").send("Starting, try again in a moment.");
});

// Every body but an upload is received whole, and only up to its route's limit (413 past it, 408
// when it comes too slowly), before anything reads it.
server.use(app.createRequestGuard({ limitOf: app.requestBodyLimits(build.routes) }));

server.use((req, res, next) => {
  if (app.isCrossSiteWrite(req.method, req.headers)) {
    res.status(403).type("text/plain").send("Cross-site requests are not allowed.");
    return;
  }
  next();
});

if (viteDevServer) {
  server.use(viteDevServer.middlewares);
} else {
  server.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  // The other public files (icons, manifest, service worker) are looked for on disk only when the
  // address starts with one of their names: a page's request costs no file lookup.
  const publicFiles = express.static("build/client", { maxAge: "1h" });
  const publicNames = new Set(readdirSync("build/client").filter((name) => name !== "assets"));
  server.use((req, res, next) => (publicNames.has(req.path.split("/")[1]) ? publicFiles(req, res, next) : next()));
}

// A page may send a Content-Security-Policy of its own (the card form widens it for Stripe's origins):
// it replaces the default one set above instead of being added as a second policy, which browsers
// would enforce as well (and so keep the narrower one).
function ownPolicyReplacesDefault(req, res, next) {
  const append = res.append;
  res.append = function (field, value) {
    return String(field).toLowerCase() === "content-security-policy"
      ? this.set(field, value)
      : append.call(this, field, value);
  };
  next();
}

/** true once `res` can take more bytes, false when the client has gone. */
function whenWritable(res) {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  if (!res.writableNeedDrain) return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (writable) => () => {
      res.off("drain", drained);
      res.off("close", closed);
      resolve(writable);
    };
    const drained = settle(true);
    const closed = settle(false);
    res.on("drain", drained);
    res.on("close", closed);
  });
}

const handleWithRemix = createRequestHandler({
  build: viteDevServer ? loadBuild : build,
  mode,
  getLoadContext: (req, res) => res.locals.loadContext,
});
// The load context is made first and stays the current one while the request is answered, so that
// what every loader of a page needs (the signed-in person) is looked up once.
server.all("*", ownPolicyReplacesDefault, (req, res, next) => {
  res.locals.loadContext = app.createLoadContext({
    cspNonce: res.locals.cspNonce,
    clientAddress: app.clientAddressOf(req.headers, req.socket.remoteAddress),
    whenWritable: () => whenWritable(res),
  });
  // Entered again here: a body read before this point may have left the request's log context.
  return app.runWithRequestLog(app.requestLogOf(res), () =>
    app.runWithLoadContext(res.locals.loadContext, () => handleWithRemix(req, res, next)),
  );
});

// An upload the request guard cut off for arriving too slowly was answered there (408): its route's
// own answer, which fails for that, is dropped instead of logged.
server.use((error, req, res, next) => (res.uploadCut ? res.destroy() : next(error)));
// Anything else that escaped the app: one log line with the request's id, a plain 500.
server.use((error, _req, res, _next) => {
  logger.error({ event: "request.failed", reqId: app.requestLogOf(res)?.requestId, err: error }, "A request failed");
  if (res.headersSent) return res.destroy();
  res.status(500).type("text/plain").send("Internal Server Error");
});

// Headers, request and keep-alive timeouts: see SERVER_TIMEOUTS in app/platform/http-limits.server.ts.
const listener = app.createHttpServer(server).listen(port, () => {
  logger.info({ event: "listening", port }, `Trusted Sitters is listening on http://localhost:${port}`);
});
app.startApp().then(
  () => {
    started = true;
    logger.info({ event: "started" }, "Ready");
  },
  (error) => {
    logger.fatal({ event: "start.failed", err: error }, "Could not start");
    logger.flush?.();
    setTimeout(() => process.exit(1), 100);
  },
);
let lastConnectionAt = Date.now();
let connectionsAccepted = 0;
listener.on("connection", () => {
  connectionsAccepted += 1;
  lastConnectionAt = Date.now();
});

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  app.setAppPhase("stopping");
  logger.info({ event: "stopping", signal }, `${signal} received: closing.`);
  const forceExit = setTimeout(() => process.exit(1), 10_000);
  forceExit.unref();
  // Connections a busy server has not accepted yet wait in the kernel's queue, and closing the
  // listener would reset them: keep accepting until the queue has been quiet for a moment (at most 3 s).
  // A busy event loop accepts late, so "quiet" is judged after a turn's poll phase (where Node
  // accepts whatever waits) has found nothing new, not by the clock alone.
  const startedAt = Date.now();
  const afterNextPoll = () => new Promise((resolve) => setTimeout(() => setImmediate(resolve), 25));
  for (;;) {
    const seen = connectionsAccepted;
    await afterNextPoll();
    const quiet = connectionsAccepted === seen && Date.now() - lastConnectionAt >= 200 && Date.now() - startedAt >= 300;
    if (quiet || Date.now() - startedAt >= 3000) break;
  }
  await new Promise((resolve) => {
    // net's close, not http's: http's also cuts every connection without a request under way,
    // and that includes ones whose request has arrived but not been read yet.
    net.Server.prototype.close.call(listener, resolve);
    // Event streams never go idle on their own: end them so the server can finish.
    app.closeAllStreams();
    // Keep-alive connections left idle are closed once nothing has been under way for a moment:
    // by then every request that had arrived has been read (a busy server reads late).
    setInterval(() => {
      if (requestsInFlight === 0 && Date.now() - lastRequestEndedAt >= 150) listener.closeIdleConnections();
    }, 50).unref();
  });
  await app.stopApp();
  await viteDevServer?.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
