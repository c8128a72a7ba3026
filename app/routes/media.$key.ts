import type { LoaderFunctionArgs } from "@remix-run/node";
import { mayViewMedia } from "~/features/messages/index.server";
import { mayViewDisputeMedia } from "~/features/disputes/index.server";
import { mayViewVisitMedia } from "~/features/visits/index.server";
import { isMediaKey, mayViewPendingUpload, mediaResponse } from "~/features/media/index.server";
import { requireUser } from "~/platform/session.server";
import { flag } from "~/platform/db.server";

// Served only through here, from either store (no public bucket URLs), to the people allowed to see the file.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const key = params.key ?? "";
  if (
    !isMediaKey(key) ||
    !(await mayViewMedia(user, key)) ||
    !(await mayViewPendingUpload(user.id, key)) ||
    !(await mayViewDisputeMedia(user.id, key, flag.read(user.is_admin))) ||
    !(await mayViewVisitMedia(user.id, key))
  )
    throw new Response("Not found", { status: 404 });
  const response = await mediaResponse(key, request.headers.get("Range"), context.whenWritable);
  if (!response) throw new Response("Not found", { status: 404 });
  return response;
}
