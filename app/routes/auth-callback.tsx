import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { checkConfirmationToken, confirmEmail, rememberDevice } from "~/features/auth/index.server";
import { formDataOf } from "~/platform/forms.server";
import { titleFrom } from "~/platform/page-title";
import { startSession } from "~/platform/session.server";
import { PawLogo } from "~/platform/ui/logo";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["auth"],
  title: titleFrom<typeof loader>(({ state }, t) =>
    t(state === "error" ? "auth:callback.errorTitle" : "auth:callback.confirmTitle"),
  ),
};

type CallbackState =
  { state: "ready"; token: string } | { state: "success"; next: string } | { state: "error"; message: string };

/** Reading the link changes nothing (mail scanners open links too); confirming is a POST. */
export async function loader({ request }: LoaderFunctionArgs): Promise<CallbackState> {
  const params = new URL(request.url).searchParams;
  const error = params.get("error");
  if (error) {
    const description = params.get("error_description") ?? "";
    if (error === "access_denied") {
      return {
        state: "error",
        message: /expired/i.test(description) ? "callback.emailExpired" : "callback.accessDenied",
      };
    }
    return { state: "error", message: "callback.confirmationError" };
  }
  const token = params.get("token") ?? "";
  const type = params.get("type");
  if (type === "recovery" && token) throw redirect(`/reset-password?token=${encodeURIComponent(token)}`);
  if (type !== "signup" || !token) return { state: "error", message: "callback.confirmationError" };
  const check = await checkConfirmationToken(token);
  if (check.status === "expired") return { state: "error", message: "callback.emailExpired" };
  if (check.status === "invalid") return { state: "error", message: "callback.linkUsed" };
  return { state: "ready", token };
}

export async function action({ request }: ActionFunctionArgs) {
  const token = String((await formDataOf(request)).get("token") ?? "");
  const result = await confirmEmail(token);
  if (result.status === "confirmed") {
    // The emailed link proves the address: this browser is signed in, and known to the account from now on.
    const headers = new Headers();
    headers.append("Set-Cookie", await startSession(result.user.id));
    headers.append("Set-Cookie", await rememberDevice(request, result.user.id));
    return data<CallbackState>({ state: "success", next: "/auth?confirmed=true" }, { headers });
  }
  return data<CallbackState>(
    { state: "error", message: result.status === "expired" ? "callback.emailExpired" : "callback.linkUsed" },
    { status: 400 },
  );
}

export default function AuthCallback() {
  const { t } = useTranslation("auth");
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const current: CallbackState = acted ?? loaded;
  const navigate = useNavigate();
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (current.state === "ready" && formRef.current) submit(formRef.current);
    if (current.state === "success") {
      const timer = setTimeout(() => navigate(current.next), 1500);
      return () => clearTimeout(timer);
    }
    if (current.state === "error") {
      const timer = setTimeout(() => navigate("/"), 3000);
      return () => clearTimeout(timer);
    }
  }, [current, navigate, submit]);

  return (
    <main
      id="main"
      className="mx-auto flex min-h-[70dvh] max-w-md flex-col items-center justify-center gap-5 px-6 text-center"
    >
      <PawLogo className="size-16" />
      {current.state === "ready" ? (
        <>
          <h1 className="text-2xl font-bold">{t("callback.confirmTitle")}</h1>
          <p className="text-stone-700" role="status">
            {t("callback.loading")}
          </p>
          <Form method="post" ref={formRef}>
            <input type="hidden" name="token" value={current.token} />
            <SubmitButton>{t("callback.confirmButton")}</SubmitButton>
          </Form>
        </>
      ) : current.state === "success" ? (
        <>
          <h1 className="text-2xl font-bold">{t("callback.successTitle")}</h1>
          <p role="status" className="text-stone-700">
            {t("callback.successBody")}
          </p>
          <Link to={current.next} className="btn btn-primary">
            {t("callback.continue")}
          </Link>
        </>
      ) : (
        <>
          <h1 className="text-2xl font-bold">{t("callback.errorTitle")}</h1>
          <p role="alert" className="text-stone-700">
            {t(current.message)}
          </p>
          <div className="flex flex-col gap-3">
            <Link to="/auth?mode=login" className="btn btn-primary">
              {t("login.submit")}
            </Link>
            <Link to="/" className="link">
              {t("callback.home")}
            </Link>
          </div>
        </>
      )}
    </main>
  );
}
