import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BrowserTimeZoneInput } from "~/platform/ui/browser-time-zone";
import { ChoiceChips } from "~/platform/ui/choices";
import { FormError, TextField, useEmptyPasswordsOnReply } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";
import type { changeEmailSchema, deleteAccountSchema, notificationPreferencesSchema } from "./schema";

type Reply = SubmissionResult<string[]> | undefined;

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3 border-t border-stone-200 px-4 py-6">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function ChangeEmailSection({
  email,
  lastResult,
  constraint,
}: {
  email: string;
  lastResult: Reply;
  constraint: ConstraintOf<typeof changeEmailSchema>;
}) {
  const { t } = useTranslation("settings");
  const [form, fields] = useForm({
    id: "change-email",
    ...useSchemaValidation("change-email", () => import("./schema").then((schemas) => schemas.changeEmailSchema)),
    lastResult,
    constraint,
  });
  useEmptyPasswordsOnReply(lastResult, fields.password);
  return (
    <Section id="change-email-title" title={t("changeEmail.title")}>
      <p className="text-sm text-stone-700">{t("changeEmail.current", { email })}</p>
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
        <FormError form={form} />
        <input type="hidden" name="intent" value="change-email" />
        <TextField
          meta={fields.newEmail}
          type="email"
          label={t("changeEmail.newEmail")}
          autoComplete="email"
          hint={t("changeEmail.hint")}
        />
        <TextField
          meta={fields.password}
          type="password"
          label={t("changeEmail.password")}
          autoComplete="current-password"
        />
        <SubmitButton className="w-full" name="intent" value="change-email">
          {t("changeEmail.submit")}
        </SubmitButton>
      </Form>
    </Section>
  );
}

const EMAIL_KINDS = ["messages", "bookings", "reviews"] as const;

export function NotificationsSection({
  preferences,
  lastResult,
  constraint,
}: {
  preferences: Record<"messages" | "bookings" | "reviews" | "marketing", boolean>;
  lastResult: Reply;
  constraint: ConstraintOf<typeof notificationPreferencesSchema>;
}) {
  const { t } = useTranslation("settings");
  const [form, fields] = useForm({
    id: "notifications",
    ...useSchemaValidation("notifications", () =>
      import("./schema").then((schemas) => schemas.notificationPreferencesSchema),
    ),
    lastResult,
    defaultValue: {
      messages: preferences.messages ? "email" : "in-app",
      bookings: preferences.bookings ? "email" : "in-app",
      reviews: preferences.reviews ? "email" : "in-app",
      marketing: preferences.marketing ? "email" : "none",
    },
    constraint,
  });
  return (
    <Section id="notifications-title" title={t("notifications.title")}>
      <p className="text-sm text-stone-700">{t("notifications.intro")}</p>
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
        <FormError form={form} />
        <input type="hidden" name="intent" value="notifications" />
        {EMAIL_KINDS.map((kind) => (
          <ChoiceChips
            key={kind}
            meta={fields[kind]}
            legend={t(`notifications.kinds.${kind}`)}
            options={["in-app", "email"]}
            type="radio"
            labelOf={(option) => t(`notifications.choices.${option}`)}
          />
        ))}
        <ChoiceChips
          meta={fields.marketing}
          legend={t("notifications.kinds.marketing")}
          options={["none", "email"]}
          type="radio"
          labelOf={(option) => t(`notifications.choices.${option === "none" ? "none" : "marketingEmail"}`)}
        />
        <SubmitButton className="w-full" name="intent" value="notifications">
          {t("notifications.submit")}
        </SubmitButton>
      </Form>
    </Section>
  );
}

export function TimeZoneSection({ timeZone, city }: { timeZone: string; city: string }) {
  const { t } = useTranslation("settings");
  return (
    <Section id="time-zone-title" title={t("timeZone.title")}>
      <p className="text-sm text-stone-700">{t("timeZone.current", { zone: timeZone.replaceAll("_", " ") })}</p>
      <Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="time-zone" />
        <BrowserTimeZoneInput />
        <p id="time-zone-hint" className="text-sm text-stone-600">
          {city ? t("timeZone.hint", { city }) : t("timeZone.hintNoCity")}
        </p>
        <SubmitButton className="w-full" variant="secondary" name="intent" value="time-zone">
          {t("timeZone.submit")}
        </SubmitButton>
      </Form>
    </Section>
  );
}

export function ExportSection({ download }: { download: { url: string; expiresAt: string } | null }) {
  const { t } = useTranslation("settings");
  return (
    <Section id="export-title" title={t("export.title")}>
      <p className="text-sm text-stone-700">{t("export.intro")}</p>
      {download ? (
        <>
          {/* A plain link: the browser downloads the archive itself, with or without JavaScript. */}
          <a href={download.url} download className="btn btn-primary w-full" data-testid="export-download">
            {t("export.download")}
          </a>
          <p className="text-sm text-stone-600">{t("export.oncePerDay")}</p>
        </>
      ) : (
        <Form method="post">
          <input type="hidden" name="intent" value="export" />
          <SubmitButton className="w-full" variant="secondary" name="intent" value="export">
            {t("export.submit")}
          </SubmitButton>
        </Form>
      )}
    </Section>
  );
}

export function DeleteAccountSection({
  lastResult,
  constraint,
}: {
  lastResult: Reply;
  constraint: ConstraintOf<typeof deleteAccountSchema>;
}) {
  const { t } = useTranslation("settings");
  const [form, fields] = useForm({
    id: "delete-account",
    ...useSchemaValidation("delete-account", () => import("./schema").then((schemas) => schemas.deleteAccountSchema)),
    lastResult,
    constraint,
  });
  useEmptyPasswordsOnReply(lastResult, fields.password);
  return (
    <Section id="delete-title" title={t("delete.title")}>
      <p className="text-sm text-stone-700">{t("delete.intro")}</p>
      <ul className="list-disc space-y-1 pl-5 text-sm text-stone-700">
        {(["bookings", "premium", "photos", "profile", "kept", "shown", "again"] as const).map((item) => (
          <li key={item}>{t(`delete.what.${item}`)}</li>
        ))}
      </ul>
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
        <FormError form={form} />
        <input type="hidden" name="intent" value="delete-account" />
        <TextField
          meta={fields.password}
          type="password"
          label={t("delete.password")}
          autoComplete="current-password"
        />
        <button
          type="submit"
          name="intent"
          value="delete-account"
          className="btn w-full bg-red-700 text-white hover:bg-red-800"
        >
          {t("delete.submit")}
        </button>
      </Form>
    </Section>
  );
}

export type EmailChangeLandingState =
  | { state: "ready"; token: string; newEmail: string }
  | { state: "done"; newEmail: string; signedIn: boolean }
  | { state: "error"; message: string };

/** The page behind the link sent to a new address: a button confirms (opening the link changes nothing). */
export function EmailChangeLanding({ current }: { current: EmailChangeLandingState }) {
  const { t } = useTranslation("settings");
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[70dvh] max-w-md flex-col items-center justify-center gap-5 px-6 text-center"
    >
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

export type UnsubscribeLandingState =
  | { state: "ready"; token: string; kind: string }
  | { state: "done"; kind: string }
  | { state: "invalid"; message: string };

/** The page behind an email's unsubscribe link: a button unsubscribes (link scanners change nothing). */
export function UnsubscribeLanding({ current }: { current: UnsubscribeLandingState }) {
  const { t } = useTranslation("settings");
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[70dvh] max-w-md flex-col items-center justify-center gap-5 px-6 text-center"
    >
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
