import { defineConfig, devices } from "@playwright/test";
import { chromium } from "./playwright.config";

// Two instances of the production build on one PostgreSQL database and one S3-compatible bucket
// (tests/scale/start-instances.js). Tests browse instance 1 by default (baseURL) and reach instance 2
// by its address (tests/scale/instances.ts). Needs TEST_DATABASE_URL, an admin URL: scripts/test.sh
// starts a throwaway cluster for it.
const ports = (process.env.SCALE_PORTS ?? "4311,4312").split(",").map(Number);

export default defineConfig({
  testDir: "tests/scale",
  // Not test-results/ itself, which Playwright empties when it starts: the end-to-end groups' failures stay.
  outputDir: "test-results/scale",
  // The specs move both instances' clocks (the scheduler's spec): one at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    ...devices["Pixel 5"],
    launchOptions: chromium,
    baseURL: `http://localhost:${ports[0]}`,
    trace: "retain-on-failure",
    locale: "en-GB",
    serviceWorkers: "block",
  },
  projects: [{ name: "scale-js", use: { javaScriptEnabled: true } }],
  webServer: {
    // exec: the launcher is the runner's own child, so it sees the runner go away (start-instances.js).
    command: "exec node tests/scale/start-instances.js",
    // The launcher prints this once both instances answer /healthz; the URL reaches the tests as
    // process.env.SCALE_DATABASE_URL, for the checks no page shows (payment records).
    wait: { stdout: /Both instances are ready on (?<scale_database_url>\S+)/ },
    reuseExistingServer: false,
    timeout: 120_000,
    env: { SCALE_PORTS: ports.join(",") },
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
  },
});
