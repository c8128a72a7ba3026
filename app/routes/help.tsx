import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalDocumentPage } from "~/features/legal";
import { legalPage } from "~/features/legal/index.server";
import { languageOf } from "~/platform/i18n.server";

/** Public, signed in or out; the text is rendered from the loader, not from the translations every page loads. */
export const handle = { i18n: ["legal"], title: "legal:titles.help" };

export async function loader({ request }: LoaderFunctionArgs) {
  return legalPage("help", await languageOf(request));
}

export default function Help() {
  return <LegalDocumentPage {...useLoaderData<typeof loader>()} />;
}
