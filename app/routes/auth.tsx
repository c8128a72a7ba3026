import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { passwordProblem, resendConfirmation, setupPathFor, signUp } from "~/features/auth/accounts.server";
import { authenticator } from "~/features/auth/authenticator.server";
import { refusePublicForm } from "~/features/auth/guard.server";
import { rememberAddress } from "~/features/auth/outbox-access.server";
import { loginSchema, parseSignupRole, resendConfirmationSchema, signupSchema } from "~/features/auth/schema";
import { formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { safeRedirectTarget } from "~/platform/redirect.server";
import { getUser, startSession } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FormError, TextField, useEmptyPasswordsOnReply } from "~/platform/ui/field";
import { LanguageSwitcher } from "~/platform/ui/language-switcher";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";
import { RoleChoices } from "./select-role";

export const handle = {
  i18n: ["auth"],
  title: titleFrom<typeof loader>(({ mode, role }, t) =>
    t(mode === "login" ? "auth:login.submit" : role === "owner" ? "auth:signup.titleOwner" : role === "sitter" ? "auth:signup.titleSitter" : "auth:signup.title"),
  ),
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const confirmed = url.searchParams.get("confirmed") === "true";
  // Only a path of ours goes into the form; anything else leads to the dashboard.
  const redirectTo = safeRedirectTarget(url.searchParams.get("redirectTo"), "") || undefined;
  const user = await getUser(request);
  if (user) throw redirect(confirmed ? setupPathFor(user.role) : (redirectTo ?? "/dashboard"));
  return {
    mode: url.searchParams.get("mode") === "signup" ? ("signup" as const) : ("login" as const),
    role: parseSignupRole(url.searchParams.get("role")),
    confirmed,
    sent: url.searchParams.get("sent") === "1",
    redirectTo,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The sign-in strategy reads the body itself, so this reads a copy.
  const formData = await formDataOf(request.clone());
  const intent = formData.get("intent");
  const refusal = await refusePublicForm(formData, `auth:${context.clientAddress}`);
  if (refusal) {
    return data({ intent, reply: { status: "error" as const, error: { "": [refusal] } }, unconfirmedEmail: null }, { status: 429 });
  }

  if (intent === "signup") {
    const submission = parseWithZod(formData, { schema: signupSchema });
    if (submission.status !== "success") {
      return data({ intent, reply: submission.reply({ hideFields: ["password"] }), unconfirmedEmail: null }, { status: 400 });
    }
    const problem = passwordProblem(submission.value.password, submission.value.email);
    if (problem) {
      return data(
        { intent, reply: submission.reply({ fieldErrors: { password: [problem] }, hideFields: ["password"] }), unconfirmedEmail: null },
        { status: 400 },
      );
    }
    const result = await signUp(submission.value, await languageOf(request));
    // A taken address gets the very same answer (its owner is told by email), so the form does not say who has an account.
    const remembered = await rememberAddress(request, submission.value.email, result.status === "created");
    return redirectWithToast(
      "/auth?mode=login&sent=1",
      { type: "success", title: "auth:signup.sentTitle", description: "auth:signup.sentBody" },
      { headers: remembered ? { "Set-Cookie": remembered } : {} },
    );
  }

  if (intent === "resend") {
    const submission = parseWithZod(formData, { schema: resendConfirmationSchema });
    if (submission.status === "success") {
      await resendConfirmation(submission.value.email, await languageOf(request));
    }
    return redirectWithToast("/auth?mode=login&sent=1", { type: "success", title: "auth:signup.resentTitle", description: "auth:signup.sentBody" });
  }

  const outcome = await authenticator.authenticate("form", request);
  if (outcome.status === "rejected") {
    // The right password of an unconfirmed account: this browser may read that account's emails at /dev/outbox.
    const remembered = outcome.unconfirmedEmail ? await rememberAddress(request, outcome.unconfirmedEmail, true) : null;
    return data(
      { intent: "login", reply: outcome.reply, unconfirmedEmail: outcome.unconfirmedEmail ?? null },
      { status: outcome.httpStatus, headers: remembered ? { "Set-Cookie": remembered } : {} },
    );
  }
  return redirect(safeRedirectTarget(outcome.redirectTo, "/dashboard"), {
    headers: { "Set-Cookie": await startSession(outcome.user.id) },
  });
}

export default function Auth() {
  const { mode, role } = useLoaderData<typeof loader>();
  if (mode === "login") return <LoginScreen />;
  return role ? <SignupForm role={role} /> : <SignupRoleStep />;
}

function SignupRoleStep() {
  const { t } = useTranslation("auth");
  return (
    <main id="main" className="mx-auto max-w-md pb-10">
      <PageHeader title={t("signup.title")} backTo="/" />
      <div className="space-y-4 px-4">
        <p className="text-lg text-stone-700">{t("signup.chooseRole")}</p>
        <RoleChoices />
        <SwitchModeLink mode="login" />
      </div>
    </main>
  );
}

function SignupForm({ role }: { role: "owner" | "sitter" }) {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "signup",
    lastResult: actionData?.intent === "signup" ? actionData.reply : undefined,
    constraint: getZodConstraint(signupSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupSchema }),
    shouldRevalidate: "onInput",
  });
  useEmptyPasswordsOnReply(actionData, fields.password);
  return (
    <main id="main" className="mx-auto max-w-md pb-10">
      <PageHeader title={t(role === "owner" ? "signup.titleOwner" : "signup.titleSitter")} backTo="/auth?mode=signup" />
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-4 px-4">
        <FormError form={form} />
        <input type="hidden" name="intent" value="signup" />
        <input type="hidden" name="role" value={role} />
        <HoneypotInputs label={t("honeypotLabel")} />
        <TextField meta={fields.name} label={t("fields.name")} autoComplete="name" />
        <TextField meta={fields.city} label={t("fields.city")} autoComplete="address-level2" />
        <TextField meta={fields.postalCode} label={t("fields.postalCode")} autoComplete="postal-code" />
        <TextField meta={fields.phone} type="tel" label={t("fields.phone")} autoComplete="tel" />
        <TextField meta={fields.email} type="email" label={t("fields.email")} autoComplete="email" />
        <TextField
          meta={fields.password}
          type="password"
          label={t("fields.password")}
          autoComplete="new-password"
          hint={t("fields.passwordHint")}
        />
        <SubmitButton className="w-full" name="intent" value="signup">
          {t("signup.submit")}
        </SubmitButton>
      </Form>
      <div className="space-y-4 px-4 pt-4">
        <SwitchModeLink mode="login" />
      </div>
    </main>
  );
}

function LoginScreen() {
  const { t } = useTranslation("auth");
  const { confirmed, sent, redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData?.intent !== "signup" ? actionData?.reply : undefined,
    constraint: getZodConstraint(loginSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
    shouldRevalidate: "onInput",
  });
  useEmptyPasswordsOnReply(actionData, fields.password);
  return (
    <main id="main" className="mx-auto max-w-md pb-10">
      <PageHeader title={t("login.title")} backTo="/" />
      <div className="space-y-4 px-4">
        {confirmed ? <Notice>{t("login.confirmedNotice")}</Notice> : null}
        {sent ? <Notice>{t("login.sentNotice")}</Notice> : null}
        <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
          <FormError form={form} />
          <input type="hidden" name="intent" value="login" />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <HoneypotInputs label={t("honeypotLabel")} />
          <TextField meta={fields.email} type="email" label={t("fields.email")} autoComplete="email" />
          <TextField meta={fields.password} type="password" label={t("fields.password")} autoComplete="current-password" />
          <p className="text-right">
            <Link to="/forgot-password" className="link">
              {t("login.forgot")}
            </Link>
          </p>
          <SubmitButton className="w-full" name="intent" value="login">
            {t("login.submit")}
          </SubmitButton>
        </Form>
        {actionData?.unconfirmedEmail ? <ResendConfirmation email={actionData.unconfirmedEmail} /> : null}
        <SwitchModeLink mode="signup" />
      </div>
    </main>
  );
}

function ResendConfirmation({ email }: { email: string }) {
  const { t } = useTranslation("auth");
  return (
    <Form method="post" className="card space-y-3">
      <p>{t("login.resendPrompt")}</p>
      <input type="hidden" name="intent" value="resend" />
      <input type="hidden" name="email" value={email} />
      <HoneypotInputs label={t("honeypotLabel")} />
      <SubmitButton variant="secondary" className="w-full" name="intent" value="resend">
        {t("login.resend")}
      </SubmitButton>
    </Form>
  );
}

function Notice({ children }: { children: ReactNode }) {
  return <p className="rounded-xl bg-brand-50 p-3 text-brand-800 ring-1 ring-brand-100">{children}</p>;
}

/** The link to the other mode, and the language switcher, at the foot of each screen. */
function SwitchModeLink({ mode }: { mode: "login" | "signup" }) {
  const { t } = useTranslation("auth");
  return (
    <>
      <p className="text-center text-stone-700">
        {t(mode === "login" ? "signup.haveAccount" : "login.noAccount")}{" "}
        <Link to={`/auth?mode=${mode}`} className="link">
          {t(mode === "login" ? "login.submit" : "signup.submit")}
        </Link>
      </p>
      <LanguageSwitcher className="justify-center pt-2" />
    </>
  );
}
