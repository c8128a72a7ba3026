import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { emailChangeTokenSchema } from "~/features/account";
import { checkEmailChangeToken, confirmEmailChange } from "~/features/account/index.server";
import { formDataOf } from "~/platform/forms.server";
import { getUser } from "~/platform/session.server";
import { PawLogo } from "~/platform/ui/logo";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["settings"], title: "settings:confirmEmail.title" };

type State = { state: "ready"; token: string; newEmail: string } | { state: "done"; newEmail: string; signedIn: boolean } | { state: "error"; message: string };

const messageOf = (status: "expired" | "invalid" | "taken") =>
  status === "expired" ? "confirmEmail.expired" : status === "taken" ? "confirmEmail.taken" : "confirmEmail.invalid";

/** Opening the link changes nothing (mail scanners open links too); the button's POST does. */
export async function loader({ request }: LoaderFunctionArgs): Promise<State> {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await checkEmailChangeToken(token);
  if (check.status !== "valid") return { state: "error", message: messageOf(check.status) };
  return { state: "ready", token, newEmail: check.newEmail };
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await formDataOf(request), { schema: emailChangeTokenSchema });
  if (submission.status !== "success") return data<State>({ state: "error", message: "confirmEmail.invalid" }, { status: 400 });
  const result = await confirmEmailChange(submission.value.token);
  if (result.status !== "changed") return data<State>({ state: "error", message: messageOf(result.status) }, { status: 400 });
  const user = await getUser(request);
  return data<State>({ state: "done", newEmail: result.newEmail, signedIn: user?.id === result.userId });
}

export default function ConfirmEmailChange() {
  const { t } = useTranslation("settings");
  const loaded = useLoaderData<typeof loader>();
  const current: State = useActionData<typeof action>() ?? loaded;
  return (
    <main id="main" className="mx-auto flex min-h-[70dvh] max-w-md flex-col items-center justify-center gap-5 px-6 text-center">
      <PawLogo className="size-16" />
      <h1 className="text-2xl font-bold">{t("confirmEmail.title")}</h1>
      {current.state === "ready" ? (
        <Form method="post" className="w-full space-y-4">
          <p>{t("confirmEmail.question", { email: current.newEmail })}</p>
          <input type="hidden" name="token" value={current.token} />
          <SubmitButton className="w-full">{t("confirmEmail.submit")}</SubmitButton>
        </Form>
      ) : current.state === "done" ? (
        <>
          <p role="status">{t("confirmEmail.done", { email: current.newEmail })}</p>
          <Link to={current.signedIn ? "/settings" : "/auth?mode=login"} className="btn btn-primary w-full">
            {t(current.signedIn ? "confirmEmail.toSettings" : "confirmEmail.toSignIn")}
          </Link>
        </>
      ) : (
        <>
          <p role="alert">{t(current.message)}</p>
          <Link to="/" className="btn btn-secondary w-full">
            {t("confirmEmail.home")}
          </Link>
        </>
      )}
    </main>
  );
}
