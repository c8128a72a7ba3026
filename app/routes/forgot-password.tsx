import { getFormProps, useForm } from "@conform-to/react";
import { useSchemaValidation } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { requestPasswordReset, refusePublicForm } from "~/features/auth/index.server";
import { forgotPasswordSchema, loadAuthSchemas } from "~/features/auth";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { resetEmailRateLimit, takeAttempt } from "~/platform/rate-limit.server";
import { FormError, TextField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["auth"], title: "auth:forgot.title" };

export function loader({ request }: LoaderFunctionArgs) {
  return {
    sent: new URL(request.url).searchParams.get("sent") === "1",
    constraints: { forgotPasswordSchema: constraintOf(forgotPasswordSchema) },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await formDataOf(request);
  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const email = submission.value.email;
  const refusal = await refusePublicForm(
    formData,
    `reset:${context.clientAddress}:${email}`,
    "auth:forgot.tooManyAttempts",
  );
  if (refusal) return data(submission.reply({ formErrors: [refusal] }), { status: 429 });
  // Besides each address's budget per email, one across every email, so nobody floods many mailboxes.
  if (!(await takeAttempt(`reset-address:${context.clientAddress}`, resetEmailRateLimit))) {
    return data(submission.reply({ formErrors: ["auth:forgot.tooManyFromAddress"] }), { status: 429 });
  }
  await requestPasswordReset(email);
  // The same answer whether or not the address has an account.
  return redirect("/forgot-password?sent=1");
}

export default function ForgotPassword() {
  const { t } = useTranslation("auth");
  const { sent } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "forgot-password",
    ...useSchemaValidation("forgot-password", () => loadAuthSchemas().then((schemas) => schemas.forgotPasswordSchema)),
    lastResult,
    constraint: constraints.forgotPasswordSchema,
  });
  return (
    <main id="main" className="mx-auto max-w-md pb-10">
      <PageHeader title={t("forgot.title")} backTo="/auth?mode=login" />
      <div className="space-y-4 px-4">
        {sent ? (
          <div className="card space-y-3" role="status">
            <h2 className="text-lg font-semibold">{t("forgot.sentTitle")}</h2>
            <p className="text-stone-700">{t("forgot.sentBody")}</p>
            <Link to="/auth?mode=login" className="btn btn-primary w-full">
              {t("forgot.backToLogin")}
            </Link>
          </div>
        ) : (
          <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
            <p className="text-stone-700">{t("forgot.intro")}</p>
            <FormError form={form} />
            <HoneypotInputs label={t("honeypotLabel")} />
            <TextField meta={fields.email} type="email" label={t("fields.email")} autoComplete="email" />
            <SubmitButton className="w-full">{t("forgot.submit")}</SubmitButton>
            <p className="text-center">
              <Link to="/auth?mode=login" className="link">
                {t("forgot.backToLogin")}
              </Link>
            </p>
          </Form>
        )}
      </div>
    </main>
  );
}
