// The HTTP server: Express around the Remix app. Development runs Vite in middleware mode;
// production and tests serve the built app from ./build.
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const mode = process.env.NODE_ENV ?? "development";
const development = mode === "development";
const port = Number(process.env.PORT ?? 3000);

const viteDevServer = development
  ? await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }))
  : undefined;

const loadBuild = () =>
  viteDevServer
    ? viteDevServer.ssrLoadModule("virtual:remix/server-build")
    : import("./build/server/index.js");

const build = await loadBuild();
/** entry.server.tsx exports the app's start, stop and security helpers. */
const app = build.entry.module;
await app.startApp();

const server = express();
server.disable("x-powered-by");
server.set("trust proxy", false);

// Never compress (and so never buffer) an event stream.
server.use(
  compression({
    filter: (req, res) =>
      !String(res.getHeader("Content-Type") ?? "").includes("text/event-stream") && compression.filter(req, res),
  }),
);

const https = (process.env.APP_URL ?? "").startsWith("https:");
server.use((req, res, next) => {
  res.locals.cspNonce = app.createNonce();
  res.set(app.securityHeaders({ nonce: res.locals.cspNonce, https, development }));
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
  server.use(express.static("build/client", { maxAge: "1h" }));
}

// A page may send a Content-Security-Policy of its own (the card form widens it for Stripe's origins):
// it replaces the default one set above instead of being added as a second policy, which browsers
// would enforce as well (and so keep the narrower one).
function ownPolicyReplacesDefault(req, res, next) {
  const append = res.append;
  res.append = function (field, value) {
    return String(field).toLowerCase() === "content-security-policy" ? this.set(field, value) : append.call(this, field, value);
  };
  next();
}

server.all(
  "*",
  ownPolicyReplacesDefault,
  createRequestHandler({
    build: viteDevServer ? loadBuild : build,
    mode,
    getLoadContext: (req, res) => ({
      cspNonce: res.locals.cspNonce,
      clientAddress: app.clientAddressOf(req.headers, req.socket.remoteAddress),
    }),
  }),
);

const listener = server.listen(port, () => {
  console.log(`Trusted Sitters is listening on http://localhost:${port}`);
});

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received: closing.`);
  const forceExit = setTimeout(() => process.exit(1), 10_000);
  forceExit.unref();
  await new Promise((resolve) => {
    listener.close(resolve);
    // Event streams never go idle on their own: end them so the server can finish.
    app.closeAllStreams();
    listener.closeIdleConnections();
  });
  await app.stopApp();
  await viteDevServer?.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
