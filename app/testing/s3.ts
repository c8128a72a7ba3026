import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Bucket } from "~/platform/env.server";

export interface S3StandIn {
  settings: S3Bucket;
  /** The same settings as MEDIA_STORAGE=s3 environment variables. */
  variables: Record<string, string>;
  stop(): Promise<void>;
}

/** An S3-compatible server in this process, on a free loopback port, keeping its objects in a temp folder. */
export async function startS3StandIn(bucket = "trusted-sitters-media"): Promise<S3StandIn> {
  const directory = mkdtempSync(path.join(tmpdir(), "s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  // s3rver accepts any request signed with its own pair of keys.
  const settings: S3Bucket = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  };
  return {
    settings,
    variables: {
      MEDIA_STORAGE: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: settings.endpoint ?? "",
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
