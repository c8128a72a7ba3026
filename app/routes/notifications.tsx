import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { maxLength, minLength, z } from "~/platform/validation";
import { useTranslation } from "react-i18next";
import { NotificationItem, notificationText, NOTIFICATION_TABS, type NotificationTab } from "~/features/notifications";
import { listNotifications, markAllRead, openNotification, setSounds } from "~/features/notifications/index.server";
import { formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";
import { TabLinks } from "~/platform/ui/tab-links";
import { SubmitButton } from "~/platform/ui/submit-button";
import { flag } from "~/platform/db.server";

// Every namespace a notice may be worded in (keyOf): bookings', disputes', visits', meet & greets', weekly care's.
export const handle = {
  i18n: ["notifications", "subscription", "disputes", "care", "meetGreets", "series"],
  title: "notifications:title",
};

const TABS = Object.keys(NOTIFICATION_TABS) as NotificationTab[];
const tabOf = (value: unknown): NotificationTab => TABS.find((tab) => tab === value) ?? "all";
const tabUrl = (tab: NotificationTab) => (tab === "all" ? "/notifications" : `/notifications?tab=${tab}`);

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const tab = tabOf(new URL(request.url).searchParams.get("tab"));
  const [groups, language] = await Promise.all([listNotifications(user, tab), languageOf(request)]);
  const reader = { language, timeZone: user.time_zone };
  return {
    tab,
    groups: groups.map((group) => ({ ...group, items: group.items.map((item) => notificationText(item, reader)) })),
    soundsEnabled: flag.read(user.sounds_enabled),
  };
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("open"), id: z.string().check(minLength(1), maxLength(64)) }),
  z.object({ intent: z.literal("mark-all"), tab: z.optional(z.string().check(maxLength(20))) }),
  z.object({ intent: z.literal("sounds"), sounds: z.optional(z.literal("on")) }),
]);

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = actionSchema.safeParse(Object.fromEntries(await formDataOf(request)));
  if (!parsed.success) return data({ error: "notifications:markFailed" }, { status: 400 });
  const form = parsed.data;
  switch (form.intent) {
    case "open": {
      const opened = await openNotification(user.id, form.id);
      if (!opened) throw new Response("Not found", { status: 404 });
      return redirect(opened.link);
    }
    case "mark-all": {
      const tab = tabOf(form.tab);
      await markAllRead(user.id, tab);
      return redirectWithToast(tabUrl(tab), {
        type: "success",
        title: "notifications:markedAll",
        description: "notifications:markedAllBody",
      });
    }
    case "sounds": {
      const enabled = form.sounds === "on";
      await setSounds(user.id, enabled);
      return redirectWithToast("/notifications", {
        type: "success",
        title: enabled ? "notifications:sounds.on" : "notifications:sounds.off",
      });
    }
  }
}

export default function Notifications() {
  const { t } = useTranslation("notifications");
  const { tab, groups, soundsEnabled } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const hasUnread = groups.some((group) => group.items.some((item) => !item.read));
  return (
    <>
      <PageHeader
        title={t("title")}
        action={
          hasUnread ? (
            <Form method="post">
              <input type="hidden" name="tab" value={tab} />
              <SubmitButton name="intent" value="mark-all" variant="secondary" className="text-sm">
                {t("markAll")}
              </SubmitButton>
            </Form>
          ) : null
        }
      />
      <div className="space-y-4 px-4 pb-6">
        {failure?.error ? (
          <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-800">
            {t(failure.error)}
          </p>
        ) : null}
        <TabLinks
          label={t("tabs.label")}
          tabs={TABS}
          current={tab}
          hrefOf={tabUrl}
          labelOf={(item) => t(`tabs.${item}`)}
          className="text-sm"
        />

        {groups.length === 0 ? <p className="card text-center text-stone-700">{t("empty")}</p> : null}
        {groups.map((group) => (
          <section key={group.group} aria-labelledby={`group-${group.group}`} className="space-y-2">
            <h2 id={`group-${group.group}`} className="text-sm font-semibold text-stone-700 uppercase">
              {t(`groups.${group.group}`)}
            </h2>
            <ul className="card divide-y divide-stone-100 p-0">
              {group.items.map((item) => (
                <li key={item.id}>
                  <NotificationItem notification={item} />
                </li>
              ))}
            </ul>
          </section>
        ))}

        <Form method="post" className="card space-y-2">
          <h2 className="font-semibold">{t("sounds.title")}</h2>
          <label className="flex min-h-11 items-center gap-3">
            <input
              type="checkbox"
              name="sounds"
              value="on"
              defaultChecked={soundsEnabled}
              className="size-5 accent-brand-700"
              aria-describedby="sounds-hint"
            />
            <span>{t("sounds.label")}</span>
          </label>
          <p id="sounds-hint" className="text-sm text-stone-600">
            {t("sounds.hint")}
          </p>
          <SubmitButton name="intent" value="sounds" variant="secondary">
            {t("sounds.save")}
          </SubmitButton>
        </Form>
      </div>
    </>
  );
}
