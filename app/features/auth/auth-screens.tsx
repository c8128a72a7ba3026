import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { HoneypotInputs } from "remix-utils/honeypot/react";
import { FormError, TextField, useEmptyPasswordsOnReply } from "~/platform/ui/field";
import { LanguageSwitcher } from "~/platform/ui/language-switcher";
import { LegalLinks } from "~/platform/ui/legal-links";
import { BrowserTimeZoneInput } from "~/platform/ui/browser-time-zone";
import { PageHeader } from "~/platform/ui/page-header";
import { RichText } from "~/platform/ui/rich-text";
import { SubmitButton } from "~/platform/ui/submit-button";
import { RoleChoices } from "./role-choices";
import type { loginSchema, signupSchema } from "./schema";

export type AuthReply = { intent: unknown; reply: SubmissionResult<string[]>; unconfirmedEmail: string | null };

export function SignupRoleStep() {
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

export function SignupForm({
  role,
  actionData,
  constraint,
}: {
  role: "owner" | "sitter";
  actionData: AuthReply | undefined;
  constraint: ConstraintOf<typeof signupSchema>;
}) {
  const { t } = useTranslation("auth");
  const [form, fields] = useForm({
    id: "signup",
    ...useSchemaValidation("signup", () => import("./schema").then((schemas) => schemas.signupSchema)),
    lastResult: actionData?.intent === "signup" ? actionData.reply : undefined,
    constraint,
  });
  useEmptyPasswordsOnReply(actionData, fields.password);
  return (
    <main id="main" className="mx-auto max-w-md pb-10">
      <PageHeader title={t(role === "owner" ? "signup.titleOwner" : "signup.titleSitter")} backTo="/auth?mode=signup" />
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-4 px-4">
        <FormError form={form} />
        <input type="hidden" name="intent" value="signup" />
        <input type="hidden" name="role" value={role} />
        <BrowserTimeZoneInput />
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
        <p className="text-sm text-stone-700">
          <RichText text={t("legal:signup.accept")} />
        </p>
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

export function LoginScreen({
  confirmed,
  sent,
  redirectTo,
  actionData,
  constraint,
}: {
  confirmed: boolean;
  sent: boolean;
  redirectTo: string | undefined;
  actionData: AuthReply | undefined;
  constraint: ConstraintOf<typeof loginSchema>;
}) {
  const { t } = useTranslation("auth");
  const [form, fields] = useForm({
    id: "login",
    ...useSchemaValidation("login", () => import("./schema").then((schemas) => schemas.loginSchema)),
    lastResult: actionData?.intent !== "signup" ? actionData?.reply : undefined,
    constraint,
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
          <TextField
            meta={fields.password}
            type="password"
            label={t("fields.password")}
            autoComplete="current-password"
          />
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
      <LegalLinks />
    </>
  );
}
