import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { hasControlCharacters } from "~/platform/forms.server";
import { IMAGE_MAX_BYTES } from "./images.server";

export type UploadProblem = "media.tooLarge" | "media.tooMany" | "media.notAnImage" | "media.badRequest";

export interface ImageUploadOptions {
  field: string;
  maxFiles: number;
  maxFileBytes?: number;
}

// Our forms send a few short fields (ids, a redirect path): this bounds what a crafted request can make us hold.
const TEXT_FIELD_MAX_CHARS = 10_000;
const TEXT_FIELDS_MAX = 50;
const FORM_OVERHEAD_BYTES = 1024 * 1024;

class UploadRefused extends Error {
  constructor(readonly problem: UploadProblem) {
    super(problem);
  }
}

async function readTextField(data: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of data) {
    text += decoder.decode(chunk, { stream: true });
    if (text.length > TEXT_FIELD_MAX_CHARS) throw new UploadRefused("media.badRequest");
  }
  text += decoder.decode();
  if (text.length > TEXT_FIELD_MAX_CHARS || hasControlCharacters(text)) throw new UploadRefused("media.badRequest");
  return text;
}

// Counts the whole body, so a request without Content-Length (or with a false one) stops at the same limit.
// The parser leaves its reader locked when it gives up, so only erroring the counter reaches the source.
function limitBody(body: ReadableStream<Uint8Array>, maxBytes: number) {
  let seen = 0;
  let counterController: TransformStreamDefaultController<Uint8Array> | undefined;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      counterController = controller;
    },
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) controller.error(new UploadRefused("media.tooLarge"));
      else controller.enqueue(chunk);
    },
  });
  const stream = body.pipeThrough(counter);
  const stop = () => counterController?.error(new UploadRefused("media.badRequest"));
  return { stream, stop };
}

// Streams, and stops as soon as a limit is passed. The declared type is a hint to check against, never to trust.
export async function readImageUpload(
  request: Request,
  options: ImageUploadOptions,
): Promise<{ formData: FormData; images: Buffer[]; declaredTypes: string[] } | { error: UploadProblem }> {
  const maxFileBytes = options.maxFileBytes ?? IMAGE_MAX_BYTES;
  const maxBodyBytes = options.maxFiles * maxFileBytes + FORM_OVERHEAD_BYTES;
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) return { error: "media.badRequest" };
  const declaredLength = Number(request.headers.get("Content-Length") ?? "0");
  if (declaredLength > maxBodyBytes) return { error: "media.tooLarge" };

  const images: Buffer[] = [];
  const declaredTypes: string[] = [];
  let textFields = 0;
  // A refused file is read to its end rather than cutting the connection: a browser cut off while still sending
  // shows a network error instead of our message. limitBody still cuts off a request larger than any valid one.
  let refusal: UploadProblem | null = null;
  const drain = async (data: AsyncIterable<Uint8Array>) => {
    for await (const chunk of data) void chunk;
    return null;
  };
  const handler: UploadHandler = async ({ name, filename, contentType, data }) => {
    if (refusal) return drain(data);
    if (filename === undefined) {
      if (hasControlCharacters(name)) throw new UploadRefused("media.badRequest");
      if (++textFields > TEXT_FIELDS_MAX) throw new UploadRefused("media.badRequest");
      const text = await readTextField(data);
      if (name !== options.field) return text;
      // Some clients (Node's FormData among them) send an empty file input without a filename.
      if (text === "") return null;
      throw new UploadRefused("media.badRequest");
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of data) {
      if (refusal) continue;
      if (chunk.byteLength === 0) continue;
      if (size === 0 && name !== options.field) refusal = "media.badRequest";
      else if (size === 0 && images.length >= options.maxFiles) refusal = "media.tooMany";
      size += chunk.byteLength;
      if (size > maxFileBytes) refusal = "media.tooLarge";
      if (!refusal) chunks.push(chunk);
    }
    if (refusal) return null;
    // Browsers send a nameless empty part for a file input left empty.
    if (size === 0 && filename === "") return null;
    if (size === 0 && name !== options.field) refusal = "media.badRequest";
    else if (size === 0 && images.length >= options.maxFiles) refusal = "media.tooMany";
    else {
      images.push(Buffer.concat(chunks, size));
      declaredTypes.push(contentType.slice(0, 100).toLowerCase());
    }
    return null;
  };

  const body = limitBody(request.body, maxBodyBytes);
  const limited = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: body.stream,
    duplex: "half",
  } as RequestInit & { duplex: "half" });
  try {
    const formData = await unstable_parseMultipartFormData(limited, handler);
    return refusal ? { error: refusal } : { formData, images, declaredTypes };
  } catch (error) {
    body.stop();
    return { error: refusal ?? (error instanceof UploadRefused ? error.problem : "media.badRequest") };
  }
}
