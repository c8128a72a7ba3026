import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileStorage, isMediaKey } from "~/features/media/storage.server";
import { requireUser } from "~/platform/session.server";

/** Serves a stored photo to signed-in people. Keys are random and never reused, so a copy may be kept forever. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const key = params.key ?? "";
  const data = isMediaKey(key) ? await fileStorage.read(key) : null;
  if (!data) throw new Response("Not found", { status: 404 });
  // readFile's buffer owns a plain ArrayBuffer; the cast only narrows the type Node declares.
  return new Response(new Uint8Array(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength), {
    headers: {
      "Content-Type": "image/webp",
      "Content-Length": String(data.byteLength),
      // private: the photo is behind sign-in, so shared caches must not keep it.
      "Cache-Control": "private, max-age=31536000, immutable",
      // X-Content-Type-Options: nosniff comes with every response (server.js).
    },
  });
}
