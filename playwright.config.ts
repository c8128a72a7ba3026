import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;

/**
 * Debian's Chromium headless shell (or CHROME_PATH), quiet: shared with playwright.scale.config.ts. The
 * shell is Chromium without its windowing layer, what Playwright itself runs headless: the browser was
 * most of the machine's work in a run (figures in the README).
 */
export const chromium = {
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium-headless-shell",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

/** The full Chromium, for what the shell lacks: it denies notifications, so push cannot be turned on. */
export const fullChromium = { ...chromium, executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium" };

const phone = { ...devices["Pixel 5"], launchOptions: chromium };

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: process.env.E2E_JSON
    ? [["list"], ["json", { outputFile: process.env.E2E_JSON }]]
    : process.env.CI
      ? [["list"]]
      : [["list"], ["html", { open: "never" }]],
  // The service worker is tested on its own (offline.spec.ts); elsewhere it would only add a
  // second, timing-dependent actor to every page.
  // A trace records every step of every test and costs a tenth of the run: a failure keeps a screenshot,
  // and `--trace retain-on-failure` records traces when a failure needs one.
  use: { baseURL, trace: "off", screenshot: "only-on-failure", locale: "en-GB", serviceWorkers: "block" },
  projects: [
    { name: "js", use: { ...phone }, testIgnore: /\.clock\.spec\.ts$/, teardown: "log-redaction" },
    {
      name: "no-js",
      use: { ...phone, javaScriptEnabled: false },
      testIgnore: /\.clock\.spec\.ts$/,
      teardown: "log-redaction",
    },
    // After them (and the clock projects, which depend on js): greps the server's log of the run.
    { name: "log-redaction", testMatch: /log-redaction\.teardown\.ts$/ },
    // These move the server's one clock: scripts/test.sh runs them after the rest with one worker.
    { name: "clock-js", use: { ...phone }, testMatch: /\.clock\.spec\.ts$/, dependencies: ["js", "no-js"] },
    {
      name: "clock-no-js",
      use: { ...phone, javaScriptEnabled: false },
      testMatch: /\.clock\.spec\.ts$/,
      dependencies: ["clock-js"],
    },
  ],
  webServer: {
    command: "node tests/e2e/start-server.js",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(port) },
    stdout: "ignore",
    stderr: "pipe",
  },
});
