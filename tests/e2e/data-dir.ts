import path from "node:path";

/**
 * The end-to-end server's data folder (start-server.js): tests/.tmp/e2e-data, or E2E_DATA_DIR for a run
 * with a server of its own beside another (scripts/test.sh runs the clock tests so).
 */
export const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? "tests/.tmp/e2e-data");

/** The server's SQLite database, for what a test cannot reasonably click through. */
export const databaseFile = path.join(dataDir, "trusted-sitters.db");
