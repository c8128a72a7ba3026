import type { LoaderFunctionArgs } from "@remix-run/node";
import { calendarFile } from "~/features/calendar/index.server";

// A person's calendar, read by their phone's calendar app with the secret address alone (no session).
// Any other address, a reset one included, does not exist.
export async function loader({ params }: LoaderFunctionArgs) {
  const file = await calendarFile(params.file ?? "");
  if (file === null)
    return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(file, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="trusted-sitters.ics"',
      "Cache-Control": "private, no-store",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex",
    },
  });
}
