import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { S3Bucket } from "~/platform/env.server";
import { assertMediaKey, assertRangeWithin, contentTypeOf, pullStream, type FileStorage } from "./file-storage.server";

export type S3Settings = S3Bucket;

function isMissingObject(error: unknown): boolean {
  // GET names a missing key NoSuchKey (a missing bucket is NoSuchBucket, a configuration error that must
  // surface); HEAD answers have no body, so only the status tells.
  return (
    error instanceof S3ServiceException &&
    (error.name === "NoSuchKey" || (error.name === "NotFound" && error.$metadata.httpStatusCode === 404))
  );
}

/** The whole object's size from `Content-Range: bytes 0-99/1234`. */
function totalSize(contentRange: string | undefined): number {
  const total = Number(contentRange?.split("/")[1]);
  if (!Number.isSafeInteger(total)) throw new Error(`Unexpected Content-Range from the bucket: ${contentRange}`);
  return total;
}

/**
 * Media in an S3-compatible bucket, private: nothing is ever given a public URL, the app streams
 * each file to the people allowed to see it (routes/media.$key.ts).
 */
export function s3FileStorage(settings: S3Settings): FileStorage {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums only where S3 demands them: several S3-compatible stores refuse or mangle the
    // newer default ones, and the app checks every file's content itself.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
  const Bucket = settings.bucket;

  async function getObject(key: string, range?: string) {
    try {
      return await client.send(new GetObjectCommand({ Bucket, Key: key, Range: range }));
    } catch (error) {
      if (isMissingObject(error)) return null;
      if (error instanceof S3ServiceException && error.name === "InvalidRange")
        throw new RangeError(`Byte range ${range} is outside ${key}`);
      throw error;
    }
  }

  return {
    kind: "s3",
    async put(key, data) {
      assertMediaKey(key);
      // A PUT replaces an object whole or not at all: a failed upload never leaves half a file.
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: data,
          ContentLength: data.byteLength,
          ContentType: contentTypeOf(key),
        }),
      );
    },
    async read(key) {
      assertMediaKey(key);
      const object = await getObject(key);
      if (!object?.Body) return null;
      const bytes = await object.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async remove(key) {
      assertMediaKey(key);
      // S3 answers a delete of a missing key with success, like the local store.
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async size(key) {
      assertMediaKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? null;
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw error;
      }
    },
    async stream(key, range) {
      assertMediaKey(key);
      if (range) assertRangeWithin(range, Number.MAX_SAFE_INTEGER);
      const object = await getObject(key, range && `bytes=${range.start}-${range.end}`);
      if (!object?.Body) return null;
      const size = range ? totalSize(object.ContentRange) : (object.ContentLength ?? 0);
      const body = object.Body as unknown as AsyncIterable<Uint8Array>;
      if (range && range.end >= size) {
        await pullStream(body).cancel();
        assertRangeWithin(range, size);
      }
      return { body: pullStream(body), size };
    },
  };
}
