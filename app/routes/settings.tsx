import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  ChangeEmailSection,
  changeEmailSchema,
  DeleteAccountSection,
  deleteAccountSchema,
  ExportSection,
  notificationPreferencesSchema,
  NotificationsSection,
  TimeZoneSection,
  timeZoneSchema,
} from "~/features/account";
import {
  currentExport,
  deleteAccount,
  emailPreferencesOf,
  requestEmailChange,
  requestExport,
  saveEmailPreferences,
  saveTimeZone,
} from "~/features/account/index.server";
import { CalendarSection } from "~/features/calendar";
import { calendarFeedOf } from "~/features/calendar/index.server";
import { PushSection } from "~/features/push";
import { pushSettingsOf } from "~/features/push/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { endSession, requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["settings"], title: "settings:title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [preferences, download, push, calendarAddress] = await Promise.all([
    emailPreferencesOf(user.id),
    currentExport(user.id),
    pushSettingsOf(user.id),
    calendarFeedOf(user.id),
  ]);
  return {
    email: user.email,
    city: user.city,
    timeZone: user.time_zone,
    preferences,
    push: { publicKey: push.publicKey, deviceCount: push.devices.length },
    calendarAddress,
    constraints: {
      changeEmail: constraintOf(changeEmailSchema),
      notifications: constraintOf(notificationPreferencesSchema),
      deleteAccount: constraintOf(deleteAccountSchema),
    },
    download: download ? { url: `/settings/export/${download.id}`, expiresAt: download.expiresAt } : null,
  };
}

const INTENTS = ["change-email", "notifications", "time-zone", "export", "delete-account"] as const;
type Intent = (typeof INTENTS)[number];

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await formDataOf(request);
  const intent = INTENTS.find((known) => known === formData.get("intent"));
  if (!intent) return data({ form: null, reply: undefined, message: "settings:unknownAction" }, { status: 400 });
  const refuse = (form: Intent, reply: SubmissionResult<string[]>, status: number) =>
    data({ form, reply, message: null }, { status });

  if (intent === "change-email") {
    const submission = parseWithZod(formData, { schema: changeEmailSchema });
    if (submission.status !== "success") return refuse(intent, submission.reply({ hideFields: ["password"] }), 400);
    const result = await requestEmailChange(user.id, submission.value.newEmail, submission.value.password);
    if (result.status === "wrong-password")
      return refuse(
        intent,
        submission.reply({ fieldErrors: { password: ["settings:wrongPassword"] }, hideFields: ["password"] }),
        400,
      );
    if (result.status === "wait")
      return refuse(intent, submission.reply({ formErrors: ["settings:wait"], hideFields: ["password"] }), 429);
    if (result.status === "same-address")
      return refuse(
        intent,
        submission.reply({ fieldErrors: { newEmail: ["settings:changeEmail.sameAddress"] }, hideFields: ["password"] }),
        400,
      );
    return redirectWithToast("/settings", {
      type: "success",
      title: "settings:changeEmail.sent",
      values: { email: submission.value.newEmail },
    });
  }

  if (intent === "notifications") {
    const submission = parseWithZod(formData, { schema: notificationPreferencesSchema });
    if (submission.status !== "success") return refuse(intent, submission.reply(), 400);
    const choice = submission.value;
    await saveEmailPreferences(user.id, {
      messages: choice.messages === "email",
      bookings: choice.bookings === "email",
      reviews: choice.reviews === "email",
      marketing: choice.marketing === "email",
    });
    return redirectWithToast("/settings", { type: "success", title: "settings:notifications.saved" });
  }

  if (intent === "time-zone") {
    const submission = parseWithZod(formData, { schema: timeZoneSchema });
    if (submission.status !== "success") return refuse(intent, submission.reply(), 400);
    const zone = await saveTimeZone(user, submission.value.timeZone);
    return redirectWithToast("/settings", { type: "success", title: "settings:timeZone.saved", values: { zone } });
  }

  if (intent === "export") {
    const result = await requestExport(user.id);
    if (result.status === "too-soon")
      return redirectWithToast("/settings", { type: "error", title: "settings:export.tooSoon" });
    return redirectWithToast("/settings", { type: "success", title: "settings:export.ready" });
  }

  const submission = parseWithZod(formData, { schema: deleteAccountSchema });
  if (submission.status !== "success") return refuse(intent, submission.reply({ hideFields: ["password"] }), 400);
  const result = await deleteAccount(user.id, submission.value.password);
  if (result.status === "wrong-password")
    return refuse(
      intent,
      submission.reply({ fieldErrors: { password: ["settings:wrongPassword"] }, hideFields: ["password"] }),
      400,
    );
  if (result.status === "wait")
    return refuse(intent, submission.reply({ formErrors: ["settings:wait"], hideFields: ["password"] }), 429);
  if (result.status === "unavailable")
    return refuse(
      intent,
      submission.reply({ formErrors: ["settings:delete.unavailable"], hideFields: ["password"] }),
      503,
    );
  // Deleted now or a moment ago by a double submission: either way the session is over.
  return redirectWithToast(
    "/welcome",
    { type: "success", title: "settings:delete.done" },
    { headers: { "Set-Cookie": await endSession(request) } },
  );
}

export default function Settings() {
  const { t } = useTranslation("settings");
  const { email, city, timeZone, preferences, push, calendarAddress, download, constraints } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const replyFor = (form: Intent) => (actionData?.form === form ? actionData.reply : undefined);
  return (
    <div className="mx-auto max-w-md pb-10">
      <PageHeader title={t("title")} backTo="/profile" />
      {actionData?.message ? (
        <p role="alert" className="mx-4 rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800 ring-1 ring-red-200">
          {t(actionData.message)}
        </p>
      ) : null}
      <ChangeEmailSection email={email} lastResult={replyFor("change-email")} constraint={constraints.changeEmail} />
      <NotificationsSection
        preferences={preferences}
        lastResult={replyFor("notifications")}
        constraint={constraints.notifications}
      />
      <PushSection publicKey={push.publicKey} deviceCount={push.deviceCount} />
      <CalendarSection address={calendarAddress} />
      <TimeZoneSection timeZone={timeZone} city={city} />
      <ExportSection download={download} />
      <DeleteAccountSection lastResult={replyFor("delete-account")} constraint={constraints.deleteAccount} />
    </div>
  );
}
