import type { LoaderFunctionArgs } from "@remix-run/node";
import { mayViewMedia } from "~/features/messages/index.server";
import { mayViewDisputeMedia } from "~/features/disputes/index.server";
import { mayViewVisitMedia } from "~/features/visits/index.server";
import { contentTypeOf, fileStorage, isMediaKey, mayViewPendingUpload } from "~/features/media/index.server";
import { requireUser } from "~/platform/session.server";

// Keys are random and never reused, so a copy may be kept forever.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const key = params.key ?? "";
  if (
    !isMediaKey(key) ||
    !(await mayViewMedia(user, key)) ||
    !(await mayViewPendingUpload(user.id, key)) ||
    !(await mayViewDisputeMedia(user.id, key, user.is_admin === 1)) ||
    !(await mayViewVisitMedia(user.id, key))
  )
    throw new Response("Not found", { status: 404 });
  const data = await fileStorage.read(key);
  if (!data) throw new Response("Not found", { status: 404 });
  const headers = {
    "Content-Type": contentTypeOf(key),
    "Accept-Ranges": "bytes",
    // private: the file is behind sign-in, so shared caches must not keep it.
    "Cache-Control": "private, max-age=31536000, immutable",
    // X-Content-Type-Options: nosniff comes with every response (server.js).
  };
  const range = byteRange(request.headers.get("Range"), data.byteLength);
  if (range === "unsatisfiable") return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${data.byteLength}` } });
  const [start, end] = range ?? [0, data.byteLength - 1];
  // readFile's buffer owns a plain ArrayBuffer; the cast only narrows the type Node declares.
  const body = new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset + start, end - start + 1);
  return new Response(body, {
    status: range ? 206 : 200,
    headers: { ...headers, "Content-Length": String(body.byteLength), ...(range ? { "Content-Range": `bytes ${start}-${end}/${data.byteLength}` } : {}) },
  });
}

function byteRange(header: string | null, size: number): [number, number] | null | "unsatisfiable" {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === "" && match[2] === "")) return null;
  const [, from = "", to = ""] = match;
  const start = from === "" ? Math.max(0, size - Number(to)) : Number(from);
  const end = from === "" || to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || start > end) return "unsatisfiable";
  return [start, end];
}
