// Starts the built server for end-to-end tests on a fresh database of its own. Its log (standard
// output) is also kept in tests/.tmp/e2e-data/server.log, which log-redaction.teardown.ts reads after the run.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// E2E_DATA_DIR: a run with a server of its own beside another (tests/e2e/data-dir.ts).
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? "tests/.tmp/e2e-data");
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
process.env.DATA_DIR = dataDir;
// The production build as people get it (React's production renderer), with the tests' doors open.
process.env.NODE_ENV = "production";
process.env.TEST_MODE = "true";
// Many sign-ups and reset requests come from one address during a run.
process.env.AUTH_RATE_LIMIT ??= "10000";
process.env.AUTH_RESET_RATE_LIMIT ??= "10000";
// A wait long enough that "the next try right after the free failures is refused" holds however busy the machine is.
process.env.AUTH_SIGNIN_FIRST_DELAY_SECONDS ??= "60";
// push-device.spec.ts runs a stand-in for the browsers' push service on this loopback port.
process.env.PUSH_TEST_SERVICE_ORIGIN ??= `http://127.0.0.1:${Number(process.env.PORT) + 7}`;
// operations.spec.ts scrapes /metrics with it.
process.env.METRICS_TOKEN ??= "e2e-metrics-token-0123456789";
// E2E_MEDIA_STORAGE=s3: the same run with photos and chat files in the bucket of an S3-compatible
// server (s3rver) started here on a loopback port, instead of DATA_DIR/media.
if (process.env.E2E_MEDIA_STORAGE === "s3") {
  const { default: S3rver } = await import("s3rver");
  const bucket = "e2e-media";
  const s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: path.join(dataDir, "s3"),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await s3.run();
  Object.assign(process.env, {
    MEDIA_STORAGE: "s3",
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_FORCE_PATH_STYLE: "true",
  });
}
// The server runs as a child of this process (Playwright stops the whole process group), so that what
// its logger writes to file descriptor 1 passes through here on its way to the file.
const log = createWriteStream(path.join(dataDir, "server.log"));
const server = spawn(process.execPath, [fileURLToPath(new URL("../../server.js", import.meta.url))], {
  stdio: ["ignore", "pipe", "inherit"],
});
server.stdout.on("data", (chunk) => {
  log.write(chunk);
  process.stdout.write(chunk);
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => {
  log.end(() => process.exit(code ?? (signal ? 1 : 0)));
});
