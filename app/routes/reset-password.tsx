import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { changePassword, checkResetToken, passwordProblem, resetPassword } from "~/features/auth/accounts.server";
import { resetPasswordSchema } from "~/features/auth/schema";
import { formDataOf } from "~/platform/forms.server";
import { db } from "~/platform/db.server";
import { getUser, startSession } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FormError, TextField, useEmptyPasswordsOnReply } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["auth"], title: "auth:reset.title" };

type ResetState = { state: "form"; token: string | null } | { state: "done" } | { state: "invalid"; message: string };

export async function loader({ request }: LoaderFunctionArgs): Promise<ResetState> {
  const params = new URL(request.url).searchParams;
  if (params.get("done") === "1") return { state: "done" };
  const token = params.get("token");
  if (token) {
    const check = await checkResetToken(token);
    if (check.status === "valid") return { state: "form", token };
    return { state: "invalid", message: check.status === "expired" ? "reset.expired" : "reset.invalid" };
  }
  if (await getUser(request)) return { state: "form", token: null };
  throw await redirectWithToast("/auth?mode=login", { type: "error", title: "errors.title", description: "auth:reset.noSession" });
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await formDataOf(request);
  const submission = parseWithZod(formData, { schema: resetPasswordSchema });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  const { token, password } = submission.value;

  const owner = token ? await checkResetToken(token) : null;
  const user = owner
    ? owner.status === "valid"
      ? await db.selectFrom("users").select(["id", "email"]).where("id", "=", owner.userId).executeTakeFirst()
      : undefined
    : await getUser(request);
  if (!user) return data(submission.reply({ formErrors: ["auth:reset.invalid"], hideFields }), { status: 400 });

  const problem = passwordProblem(password, user.email);
  if (problem) return data(submission.reply({ fieldErrors: { password: [problem] }, hideFields }), { status: 400 });

  if (token) {
    const result = await resetPassword(token, password);
    if (result.status !== "changed") {
      const message = result.status === "expired" ? "auth:reset.expired" : "auth:reset.invalid";
      return data(submission.reply({ formErrors: [message], hideFields }), { status: 400 });
    }
  } else {
    await changePassword(user.id, password);
  }
  // Every other session has ended; this device stays signed in with a new one.
  const path = new URL(request.url).pathname;
  return redirect(`${path}?done=1`, { headers: { "Set-Cookie": await startSession(user.id) } });
}

export default function ResetPassword() {
  const { t } = useTranslation("auth");
  const loaded = useLoaderData<typeof loader>();
  return (
    <main id="main" className="mx-auto max-w-md pb-10">
      <PageHeader title={t("reset.title")} backTo="/auth?mode=login" />
      <div className="space-y-4 px-4">
        {loaded.state === "form" ? <NewPasswordForm token={loaded.token} /> : null}
        {loaded.state === "done" ? <Done /> : null}
        {loaded.state === "invalid" ? (
          <div className="card space-y-3">
            <p role="alert">{t(loaded.message)}</p>
            <Link to="/forgot-password" className="btn btn-primary w-full">
              {t("reset.requestNew")}
            </Link>
          </div>
        ) : null}
      </div>
    </main>
  );
}

function NewPasswordForm({ token }: { token: string | null }) {
  const { t } = useTranslation("auth");
  const lastResult = useActionData<typeof action>();
  const location = useLocation();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult,
    constraint: getZodConstraint(resetPasswordSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
    shouldRevalidate: "onInput",
  });
  useEmptyPasswordsOnReply(lastResult, fields.password, fields.confirmPassword);
  return (
    <Form method="post" action={`${location.pathname}${location.search}`} {...getFormProps(form)} noValidate className="space-y-4">
      <FormError form={form} />
      {token ? <input type="hidden" name="token" value={token} /> : null}
      <TextField meta={fields.password} type="password" label={t("reset.newPassword")} autoComplete="new-password" hint={t("fields.passwordHint")} />
      <TextField meta={fields.confirmPassword} type="password" label={t("reset.confirmPassword")} autoComplete="new-password" />
      <SubmitButton className="w-full">{t("reset.submit")}</SubmitButton>
    </Form>
  );
}

function Done() {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate("/"), 3000);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <div className="card space-y-3">
      <p role="status" className="font-semibold">
        {t("reset.success")}
      </p>
      <Link to="/" className="btn btn-primary w-full">
        {t("callback.continue")}
      </Link>
    </div>
  );
}
