import { getFormProps, useForm, type FieldMetadata } from "@conform-to/react";
import { useSchemaValidation, type Constraint } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { changePassword, checkResetToken, rememberDevice, resetPassword } from "~/features/auth/index.server";
import { changePasswordSchema, resetPasswordSchema, loadAuthSchemas } from "~/features/auth";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { getUser, startSession } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FormError, TextField, useEmptyPasswordsOnReply } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["auth"], title: "auth:reset.title" };

// The token's form has no current password; the signed-in one has no token.
type PasswordConstraint = Record<"token" | "currentPassword" | "password" | "confirmPassword", Constraint>;
type ResetState =
  | { state: "form"; token: string | null; constraint: PasswordConstraint }
  | { state: "done" }
  | { state: "invalid"; message: string };

export async function loader({ request }: LoaderFunctionArgs): Promise<ResetState> {
  const params = new URL(request.url).searchParams;
  if (params.get("done") === "1") return { state: "done" };
  const token = params.get("token");
  if (token) {
    const check = await checkResetToken(token);
    if (check.status === "valid")
      return { state: "form", token, constraint: constraintOf(resetPasswordSchema) as PasswordConstraint };
    return { state: "invalid", message: check.status === "expired" ? "reset.expired" : "reset.invalid" };
  }
  if (await getUser(request))
    return { state: "form", token: null, constraint: constraintOf(changePasswordSchema) as PasswordConstraint };
  throw await redirectWithToast("/auth?mode=login", {
    type: "error",
    title: "errors.title",
    description: "auth:reset.noSession",
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await formDataOf(request);
  const hideFields = ["currentPassword", "password", "confirmPassword"];
  const done = async (userId: string) => {
    // Every other session has ended, and every browser known for the old password is forgotten; this one stays signed in, and known.
    const headers = new Headers();
    headers.append("Set-Cookie", await startSession(userId));
    headers.append("Set-Cookie", await rememberDevice(request, userId));
    return redirect(`${new URL(request.url).pathname}?done=1`, { headers });
  };

  if (formData.get("token")) {
    const submission = parseWithZod(formData, { schema: resetPasswordSchema });
    if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
    const result = await resetPassword(submission.value.token ?? "", submission.value.password);
    if (result.status === "changed") return done(result.user.id);
    if (result.status === "weak")
      return data(submission.reply({ fieldErrors: { password: [result.problem] }, hideFields }), { status: 400 });
    const message = result.status === "expired" ? "auth:reset.expired" : "auth:reset.invalid";
    return data(submission.reply({ formErrors: [message], hideFields }), { status: 400 });
  }

  const submission = parseWithZod(formData, { schema: changePasswordSchema });
  const user = await getUser(request);
  if (!user) return data(submission.reply({ formErrors: ["auth:reset.noSession"], hideFields }), { status: 400 });
  if (submission.status !== "success") return data(submission.reply({ hideFields }), { status: 400 });
  const result = await changePassword(user.id, submission.value.currentPassword, submission.value.password);
  if (result.status === "changed") return done(user.id);
  if (result.status === "wait")
    return data(submission.reply({ formErrors: ["auth:login.wait"], hideFields }), { status: 429 });
  return data(submission.reply({ fieldErrors: result.errors, hideFields }), { status: 400 });
}

export default function ResetPassword() {
  const { t } = useTranslation("auth");
  const loaded = useLoaderData<typeof loader>();
  return (
    <main id="main" className="mx-auto max-w-md pb-10">
      <PageHeader title={t("reset.title")} backTo="/auth?mode=login" />
      <div className="space-y-4 px-4">
        {loaded.state === "form" ? <NewPasswordForm token={loaded.token} constraint={loaded.constraint} /> : null}
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

function NewPasswordForm({ token, constraint }: { token: string | null; constraint: PasswordConstraint }) {
  const { t } = useTranslation("auth");
  const lastResult = useActionData<typeof action>();
  const location = useLocation();
  const [form, fields] = useForm({
    id: "reset-password",
    ...useSchemaValidation("reset-password", () =>
      loadAuthSchemas().then((schemas) => (token ? schemas.resetPasswordSchema : schemas.changePasswordSchema)),
    ),
    lastResult,
    constraint,
  });
  const currentPassword = fields.currentPassword as FieldMetadata<string | undefined>;
  useEmptyPasswordsOnReply(lastResult, currentPassword, fields.password, fields.confirmPassword);
  return (
    <Form
      method="post"
      action={`${location.pathname}${location.search}`}
      {...getFormProps(form)}
      noValidate
      className="space-y-4"
    >
      <FormError form={form} />
      {token ? (
        <input type="hidden" name="token" value={token} />
      ) : (
        <TextField
          meta={currentPassword}
          type="password"
          label={t("reset.currentPassword")}
          autoComplete="current-password"
        />
      )}
      <TextField
        meta={fields.password}
        type="password"
        label={t("reset.newPassword")}
        autoComplete="new-password"
        hint={t("fields.passwordHint")}
      />
      <TextField
        meta={fields.confirmPassword}
        type="password"
        label={t("reset.confirmPassword")}
        autoComplete="new-password"
      />
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
