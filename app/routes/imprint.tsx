import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ImprintPage } from "~/features/legal";
import { imprintPage } from "~/features/legal/index.server";
import { languageOf } from "~/platform/i18n.server";

/** The operator's details come from OPERATOR_* settings (.env.example); public, signed in or out. */
export const handle = { i18n: ["legal"], title: "legal:titles.imprint" };

export async function loader({ request }: LoaderFunctionArgs) {
  return imprintPage(await languageOf(request));
}

export default function Imprint() {
  return <ImprintPage {...useLoaderData<typeof loader>()} />;
}
