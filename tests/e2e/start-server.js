// Starts the built server for end-to-end tests on a fresh database of its own.
import { rmSync } from "node:fs";
import path from "node:path";

const dataDir = path.resolve("tests/.tmp/e2e-data");
rmSync(dataDir, { recursive: true, force: true });
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
await import("../../server.js");
