// Starts the built server for end-to-end tests on a fresh database of its own.
import { rmSync } from "node:fs";
import path from "node:path";

const dataDir = path.resolve("tests/.tmp/e2e-data");
rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "test";
// Many sign-ups and reset requests come from one address during a run.
process.env.AUTH_RATE_LIMIT ??= "10000";
process.env.AUTH_RESET_RATE_LIMIT ??= "10000";
// A wait long enough that "the next try right after the free failures is refused" holds however busy the machine is.
process.env.AUTH_SIGNIN_FIRST_DELAY_SECONDS ??= "60";
await import("../../server.js");
