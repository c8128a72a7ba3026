import type { LoaderFunctionArgs } from "@remix-run/node";
import { queueFigures } from "~/features/admin/index.server";
import { METRICS_CONTENT_TYPE, metricsAllowed, metricsText } from "~/platform/metrics.server";

// Prometheus scrapes this instance's figures with `Authorization: Bearer $METRICS_TOKEN`. Without the
// token set, or with another one, the address does not exist (404), as for anyone guessing it.
export async function loader({ request }: LoaderFunctionArgs) {
  if (!metricsAllowed(request.headers.get("Authorization"))) {
    return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return new Response(await metricsText(await queueFigures()), {
    headers: { "Content-Type": METRICS_CONTENT_TYPE, "Cache-Control": "no-store" },
  });
}
