import { isLanguage, type Language } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { composeEmail, publicOrigin, type Email, type EmailRecipient } from "~/platform/email.server";
import { dateTimeFormat } from "~/platform/format";
import type { SeriesNotice } from "./machine";

/**
 * One email per notice, in the reader's language; a skipped date as the reader's calendar names it. Like every
 * booking email it follows the reader's choice for booking emails, with its unsubscribe link.
 */
export async function seriesEmail(
  to: EmailRecipient & { id: string },
  notice: SeriesNotice,
  about: { other: string; seriesId: string; day?: string },
): Promise<Email> {
  const language: Language = isLanguage(to.language) ? to.language : "en";
  const t = await translatorFor(language, "series");
  const settings = await translatorFor(language, "settings");
  const date = about.day
    ? dateTimeFormat(language, { dateStyle: "full", timeZone: "UTC" }).format(new Date(`${about.day}T12:00:00Z`))
    : "";
  const values = { name: about.other, date, interpolation: { escapeValue: false } };
  return composeEmail({
    to: to.email,
    subject: t(`email.${notice}.subject`, values),
    greeting: t("email.greeting", { name: to.name, interpolation: { escapeValue: false } }),
    paragraphs: [t(`email.${notice}.body`, values)],
    action: { label: t("email.action"), url: `${publicOrigin()}/series/${about.seriesId}` },
    footer: t("email.footer"),
    news: { userId: to.id, kind: "bookings", label: settings("unsubscribe.emailLink") },
  });
}
