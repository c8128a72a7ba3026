import type { LoaderFunctionArgs } from "@remix-run/node";
import { latestEventId } from "~/platform/events/events.server";
import { eventStreamFor } from "~/platform/events/stream.server";
import { isSignedIn, requireUser, sessionIdHash } from "~/platform/session.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const asked = Number(
    request.headers.get("Last-Event-ID") ?? new URL(request.url).searchParams.get("lastEventId") ?? Number.NaN,
  );
  const lastEventId = Number.isSafeInteger(asked) && asked >= 0 ? asked : await latestEventId(user.id);
  const sessionKey = (await sessionIdHash(request)) ?? "";
  return eventStreamFor(request, user.id, { lastEventId, sessionKey, stillSignedIn: () => isSignedIn(request) });
}
