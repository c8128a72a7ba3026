import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { checkUnsubscribeToken, unsubscribe } from "~/features/account/index.server";
import { formDataOf } from "~/platform/forms.server";
import { PawLogo } from "~/platform/ui/logo";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["settings"], title: "settings:unsubscribe.title" };

type State = { state: "ready"; token: string; kind: string } | { state: "done"; kind: string } | { state: "invalid"; message: string };

/** Opening the link shows a button (link scanners must not unsubscribe anyone); the POST sets the preference. */
export async function loader({ request }: LoaderFunctionArgs): Promise<State> {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await checkUnsubscribeToken(token);
  return check.status === "valid" ? { state: "ready", token, kind: check.kind } : { state: "invalid", message: "unsubscribe.invalid" };
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
  if (result.status !== "valid") return data<State>({ state: "invalid", message: "unsubscribe.invalid" }, { status: 400 });
  return data<State>({ state: "done", kind: result.kind });
}

export default function Unsubscribe() {
  const { t } = useTranslation("settings");
  const loaded = useLoaderData<typeof loader>();
  const current: State = useActionData<typeof action>() ?? loaded;
  return (
    <main id="main" className="mx-auto flex min-h-[70dvh] max-w-md flex-col items-center justify-center gap-5 px-6 text-center">
      <PawLogo className="size-16" />
      <h1 className="text-2xl font-bold">{t("unsubscribe.title")}</h1>
      {current.state === "ready" ? (
        <Form method="post" className="w-full space-y-4">
          <p>{t("unsubscribe.question", { kind: t(`notifications.kinds.${current.kind}`) })}</p>
          <input type="hidden" name="token" value={current.token} />
          <SubmitButton className="w-full">{t("unsubscribe.submit")}</SubmitButton>
        </Form>
      ) : current.state === "done" ? (
        <p role="status">{t("unsubscribe.done", { kind: t(`notifications.kinds.${current.kind}`) })}</p>
      ) : (
        <p role="alert">{t(current.message)}</p>
      )}
      <Link to="/settings" className="link">
        {t("unsubscribe.manage")}
      </Link>
    </main>
  );
}
