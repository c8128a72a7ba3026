import type { LoaderFunctionArgs } from "@remix-run/node";
import { isLanguage, namespaces } from "~/platform/i18n";
import { resources, resourcesVersion } from "~/platform/i18n.server";

// Every namespace the pages use, for one language, in one response (not the legal pages' long texts:
// only their own pages read them, on the server). Made once per language.
const bodies = new Map<string, string>();
function bodyOf(language: string): string {
  let body = bodies.get(language);
  if (body === undefined) {
    body = JSON.stringify(
      Object.fromEntries(namespaces.map((namespace) => [namespace, resources[language]?.[namespace] ?? {}])),
    );
    bodies.set(language, body);
  }
  return body;
}

// Addressed by version, so they may be cached for good.
export function loader({ params, request }: LoaderFunctionArgs) {
  const { lng } = params;
  if (!isLanguage(lng)) throw new Response("Not found", { status: 404 });
  const current = new URL(request.url).searchParams.get("v") === resourcesVersion;
  return new Response(bodyOf(lng), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, max-age=300",
    },
  });
}
