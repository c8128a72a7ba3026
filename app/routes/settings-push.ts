import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { handlePushAction } from "~/features/push/index.server";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";

// Posted by the settings page's push code (JavaScript only): turn on, turn off, send a test.
export const loader = () => redirect("/settings");

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const answer = await handlePushAction(user.id, await formDataOf(request), request.headers.get("User-Agent"));
  // A real Response: the page reads it with fetch, not through Remix.
  return Response.json(answer.body, { status: answer.status });
}
