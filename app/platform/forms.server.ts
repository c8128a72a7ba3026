import { getZodConstraint } from "@conform-to/zod/v4";
import type { ConstraintOf } from "./forms";
import { FORM_BODY_MAX_BYTES } from "./request-limits";
import type { z } from "./validation";

// Nobody types these, and stored they break emails and other people's screens (tab, LF and CR are text).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const hasControlCharacters = (text: string) => CONTROL_CHARACTER.test(text);

const tooLarge = () =>
  new Response("The request is too large.", { status: 413, headers: { "Content-Type": "text/plain; charset=utf-8" } });

// server.js refuses such bodies first; this holds wherever a request comes from.
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get("Content-Length")) > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = request.body.getReader();
  } catch {
    throw new Response("The request has no readable body.", { status: 400 });
  }
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch {
      throw new Response("The request has no readable body.", { status: 400 });
    }
    if (read.done) break;
    size += read.value.byteLength;
    // Released, not cancelled: cancelling would destroy the connection before the 413 is sent.
    if (size > maxBytes) {
      reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

// A body that is not a readable form is the sender's mistake: a 400, never a server error.
export async function formDataOf(request: Request): Promise<FormData> {
  const body = await readBody(request, FORM_BODY_MAX_BYTES);
  let formData: FormData;
  try {
    const contentType = request.headers.get("Content-Type");
    formData = await new Response(body, contentType ? { headers: { "Content-Type": contentType } } : {}).formData();
  } catch {
    throw new Response("The request has no readable form.", { status: 400 });
  }
  for (const [name, value] of formData) {
    if (hasControlCharacters(name) || (typeof value === "string" && hasControlCharacters(value))) {
      throw new Response("The form contains control characters.", { status: 400 });
    }
  }
  return formData;
}

/** A form's HTML constraints (required, maxLength, min…) from its schema, for the loader to send to the page. */
export function constraintOf<Schema extends z.core.$ZodType>(schema: Schema) {
  return getZodConstraint(schema) as ConstraintOf<Schema>;
}
