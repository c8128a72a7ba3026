import { isDatabaseHealthy } from "~/platform/db.server";

export async function loader() {
  const healthy = await isDatabaseHealthy();
  return Response.json(
    { status: healthy ? "ok" : "unavailable", database: healthy },
    { status: healthy ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
