import { Readable } from "node:stream";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportArchive } from "~/features/account/index.server";
import { requireUser } from "~/platform/session.server";

/** The archive of the asker's own export, streamed; anyone else's, or an expired one, is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = params.exportId ?? "";
  const archive = id.length <= 64 ? await exportArchive(user.id, id) : null;
  if (!archive) throw new Response("Not found", { status: 404 });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(Readable.toWeb(archive) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="trusted-sitters-my-data-${day}.zip"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
