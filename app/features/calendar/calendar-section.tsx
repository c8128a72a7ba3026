import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/platform/ui/submit-button";

/**
 * The settings page's calendar section: the person's private calendar address with how to add it to a
 * phone, a new address in place of the old, or none. Plain forms: it all works without JavaScript.
 */
export function CalendarSection({ address }: { address: string | null }) {
  const { t } = useTranslation("settings");
  return (
    <section id="calendar" aria-labelledby="calendar-title" className="space-y-3 border-t border-stone-200 px-4 py-6">
      <h2 id="calendar-title" className="text-lg font-semibold">
        {t("calendar.title")}
      </h2>
      <p className="text-sm text-stone-700">{t("calendar.intro")}</p>
      {address ? (
        <>
          <label htmlFor="calendar-address" className="block text-sm font-medium">
            {t("calendar.address")}
          </label>
          <input
            id="calendar-address"
            readOnly
            value={address}
            aria-describedby="calendar-secret"
            className="w-full rounded-lg border border-stone-300 bg-stone-50 px-3 py-2 font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
          />
          <p id="calendar-secret" className="text-sm text-stone-700">
            {t("calendar.secret")}
          </p>
          <ul className="list-disc space-y-1 pl-5 text-sm text-stone-700">
            <li>{t("calendar.howGoogle")}</li>
            <li>{t("calendar.howApple")}</li>
            <li>{t("calendar.howOutlook")}</li>
          </ul>
          <Form method="post" action="/settings/calendar">
            <SubmitButton className="w-full" variant="secondary" name="intent" value="renew">
              {t("calendar.renew")}
            </SubmitButton>
          </Form>
          <Form method="post" action="/settings/calendar">
            <SubmitButton className="w-full" variant="secondary" name="intent" value="stop">
              {t("calendar.stop")}
            </SubmitButton>
          </Form>
        </>
      ) : (
        <Form method="post" action="/settings/calendar">
          <SubmitButton className="w-full" variant="secondary" name="intent" value="renew">
            {t("calendar.start")}
          </SubmitButton>
        </Form>
      )}
    </section>
  );
}
