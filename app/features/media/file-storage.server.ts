import { randomUUID } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/** Bytes `start` to `end`, both included, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface MediaStream {
  /** The requested bytes, read as the consumer pulls them. */
  body: ReadableStream<Uint8Array>;
  /** The size of the whole file, whatever range was asked for. */
  size: number;
}

/**
 * Where photos, pet photos and chat files live: a folder (the default) or an S3-compatible bucket.
 * Both behave alike: a missing key reads as null and removes quietly; a key the server did not
 * choose is refused before any file or request is touched.
 */
export interface FileStorage {
  readonly kind: "local" | "s3";
  put(key: string, data: Buffer): Promise<void>;
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
  /** The size in bytes, or null when there is no such file. */
  size(key: string): Promise<number | null>;
  /** The file (or one range of it, which must lie inside it) as a stream; null when there is no such file. */
  stream(key: string, range?: ByteRange): Promise<MediaStream | null>;
}

// Keys are chosen by the server; anything else (a path, a dot-dot, another extension) is refused.
const MEDIA_KEY = /^[a-z0-9-]{1,100}\.(webp|mp4|webm)$/;

const CONTENT_TYPES = { webp: "image/webp", mp4: "video/mp4", webm: "video/webm" } as const;

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf(".") + 1) as keyof typeof CONTENT_TYPES] ?? "application/octet-stream";
}

export function isMediaKey(key: string): boolean {
  return MEDIA_KEY.test(key);
}

export function assertMediaKey(key: string): void {
  if (!isMediaKey(key)) throw new Error(`Invalid media key: ${JSON.stringify(key.slice(0, 100))}`);
}

export function assertRangeWithin(range: ByteRange | undefined, size: number): void {
  if (
    range &&
    !(
      Number.isSafeInteger(range.start) &&
      Number.isSafeInteger(range.end) &&
      range.start >= 0 &&
      range.start <= range.end &&
      range.end < size
    )
  ) {
    throw new RangeError(`Byte range ${range.start}-${range.end} is outside a file of ${size} bytes`);
  }
}

/**
 * A web stream that reads its source only when its consumer asks for more (highWaterMark 0), so a
 * slow client holds one chunk in memory, never the file; cancelling it ends the source.
 */
export function pullStream(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel() {
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

const CHUNK_BYTES = 64 * 1024;

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}

export function localFileStorage(directory: string): FileStorage {
  const fileOf = (key: string) => {
    assertMediaKey(key);
    return path.join(directory, key);
  };
  return {
    kind: "local",
    async put(key, data) {
      const file = fileOf(key);
      await mkdir(directory, { recursive: true });
      // Written aside then renamed, so a crash mid-write never leaves a half file under the real key.
      const partial = `${file}.${randomUUID()}.partial`;
      try {
        await writeFile(partial, data);
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async read(key) {
      const file = fileOf(key);
      try {
        return await readFile(file);
      } catch (error) {
        if (isMissingFile(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
    async size(key) {
      try {
        return (await stat(fileOf(key))).size;
      } catch (error) {
        if (isMissingFile(error)) return null;
        throw error;
      }
    },
    async stream(key, range) {
      const file = fileOf(key);
      let handle;
      try {
        handle = await open(file, "r");
      } catch (error) {
        if (isMissingFile(error)) return null;
        throw error;
      }
      try {
        // Sized on the open file, so a removal after this point cannot change what is sent.
        const { size } = await handle.stat();
        assertRangeWithin(range, size);
        const reader = handle.createReadStream({
          start: range?.start ?? 0,
          end: range?.end ?? Math.max(0, size - 1),
          highWaterMark: CHUNK_BYTES,
          autoClose: true,
        });
        return { body: pullStream(reader), size };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
  };
}
