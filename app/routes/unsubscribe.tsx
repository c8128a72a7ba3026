import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { UnsubscribeLanding, type UnsubscribeLandingState as State } from "~/features/account";
import { checkUnsubscribeToken, unsubscribe } from "~/features/account/index.server";
import { formDataOf } from "~/platform/forms.server";

export const handle = { i18n: ["settings"], title: "settings:unsubscribe.title" };

/** Opening the link shows a button (link scanners must not unsubscribe anyone); the POST sets the preference. */
export async function loader({ request }: LoaderFunctionArgs): Promise<State> {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await checkUnsubscribeToken(token);
  return check.status === "valid"
    ? { state: "ready", token, kind: check.kind }
    : { state: "invalid", message: "unsubscribe.invalid" };
}

/**
 * The page's button posts the token as a field; a mail client's one-click button (RFC 8058) posts
 * "List-Unsubscribe=One-Click" to the address, token in the query. No session is needed: the
 * signature is the credential.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await formDataOf(request);
  const token = form.get("token") ?? new URL(request.url).searchParams.get("token");
  const result = await unsubscribe(token);
  if (result.status !== "valid")
    return data<State>({ state: "invalid", message: "unsubscribe.invalid" }, { status: 400 });
  return data<State>({ state: "done", kind: result.kind });
}

export default function Unsubscribe() {
  const loaded = useLoaderData<typeof loader>();
  return <UnsubscribeLanding current={useActionData<typeof action>() ?? loaded} />;
}
