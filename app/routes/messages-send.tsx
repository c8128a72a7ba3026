import type { ActionFunctionArgs } from "@remix-run/node";
import { sendFromForm } from "~/features/messages/index.server";
import { CHAT_FILE_MAX_BYTES } from "~/features/media";
import { readImageUpload } from "~/features/media/index.server";
import { requireUser } from "~/platform/session.server";

// The chat's upload with a progress bar posts here and reads a short JSON answer; without JavaScript the
// same form posts to /messages. Same rules, same function.
export const handle = { uploads: true };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const multipart = /^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "");
  const upload = multipart
    ? await readImageUpload(request, { field: "attachment", maxFiles: 1, maxFileBytes: CHAT_FILE_MAX_BYTES })
    : null;
  const sent = await sendFromForm(user.id, request, upload);
  if (sent.status === "not-found") return Response.json({ error: "messages:errors.send" }, { status: 404 });
  if (sent.status === "refused") return Response.json({ error: sent.error }, { status: 400 });
  return Response.json({ sent: true });
}
