import type { LoaderFunctionArgs } from "@remix-run/node";
import { isLanguage, namespaces } from "~/platform/i18n";
import { resources, resourcesVersion } from "~/platform/i18n.server";

// Addressed by version, so they may be cached for good.
export function loader({ params, request }: LoaderFunctionArgs) {
  const { lng, ns } = params;
  if (!isLanguage(lng) || !ns || !namespaces.includes(ns)) throw new Response("Not found", { status: 404 });
  const current = new URL(request.url).searchParams.get("v") === resourcesVersion;
  return Response.json(resources[lng]?.[ns] ?? {}, {
    headers: { "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, max-age=300" },
  });
}
