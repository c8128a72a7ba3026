// Starts the built server for end-to-end tests on a fresh database of its own.
import { rmSync } from "node:fs";
import path from "node:path";

const dataDir = path.resolve("tests/.tmp/e2e-data");
rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "test";
// Many sign-ups come from one address during a run.
process.env.AUTH_RATE_LIMIT ??= "10000";
await import("../../server.js");
