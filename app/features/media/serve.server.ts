import type { ByteRange } from "./file-storage.server";
import { contentTypeOf, fileStorage } from "./storage.server";

/** The range a `Range: bytes=…` header asks for in a file of `size` bytes; null for the whole file (absent, malformed or several ranges). */
export function byteRange(header: string | null, size: number): ByteRange | null | "unsatisfiable" {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === "" && match[2] === "")) return null;
  const [, from = "", to = ""] = match;
  const start = from === "" ? Math.max(0, size - Number(to)) : Number(from);
  const end = from === "" || to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

/**
 * The answer to a request for a stored file that the asker may see (the caller checks that), or null
 * when there is none. The bytes are streamed from either store, never read whole, so a 10 MB video
 * costs one chunk of memory per client; a byte range lets a video player seek.
 * `whenWritable` (from the server) holds each read until the client's connection has room, and
 * stops reading from the store when the client has gone.
 */
export async function mediaResponse(
  key: string,
  rangeHeader: string | null,
  whenWritable?: () => Promise<boolean>,
): Promise<Response | null> {
  const headers = {
    "Content-Type": contentTypeOf(key),
    "Accept-Ranges": "bytes",
    // Keys are random and never reused, so a copy may be kept forever; private: the file is behind
    // sign-in, so shared caches must not keep it. (X-Content-Type-Options: nosniff comes with every response, server.js.)
    "Cache-Control": "private, max-age=31536000, immutable",
  };
  const wantsRange = rangeHeader !== null && /^bytes=\d*-\d*$/.test(rangeHeader);
  if (!wantsRange) {
    const whole = await fileStorage.stream(key);
    if (!whole) return null;
    return new Response(paced(whole.body, whenWritable), {
      status: 200,
      headers: { ...headers, "Content-Length": String(whole.size) },
    });
  }
  const size = await fileStorage.size(key);
  if (size === null) return null;
  const range = byteRange(rangeHeader, size);
  if (range === "unsatisfiable")
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` } });
  const part = await fileStorage.stream(key, range ?? undefined);
  if (!part) return null;
  const length = range ? range.end - range.start + 1 : part.size;
  return new Response(paced(part.body, whenWritable), {
    status: range ? 206 : 200,
    headers: {
      ...headers,
      "Content-Length": String(length),
      ...(range ? { "Content-Range": `bytes ${range.start}-${range.end}/${part.size}` } : {}),
    },
  });
}

function paced(
  body: ReadableStream<Uint8Array>,
  whenWritable: (() => Promise<boolean>) | undefined,
): ReadableStream<Uint8Array> {
  if (!whenWritable) return body;
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!(await whenWritable())) {
          await reader.cancel();
          controller.close();
          return;
        }
        const next = await reader.read();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
