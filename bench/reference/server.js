// Serves the reference page's build (bench/reference/build) the way server.js serves the app: Express,
// the same compression, Remix's request handler. PORT selects the port.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const root = path.dirname(fileURLToPath(import.meta.url));
const build = await import(path.join(root, "build/server/index.js"));
const server = express();
server.disable("x-powered-by");
server.use(
  compression({
    filter: (req, res) =>
      !String(res.getHeader("Content-Type") ?? "").includes("text/event-stream") && compression.filter(req, res),
    level: 3,
  }),
);
server.use("/assets", express.static(path.join(root, "build/client/assets"), { immutable: true, maxAge: "1y" }));
server.get("/healthz", (_req, res) => res.type("text/plain").send("ok"));
server.all("*", createRequestHandler({ build, mode: "production" }));
const listener = server.listen(Number(process.env.PORT ?? 3000));
process.on("SIGTERM", () => listener.close(() => process.exit(0)));
