import type { MeetGreet } from "~db/schema";
import { isLanguage, type Language } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { composeEmail, publicOrigin, type Email, type EmailRecipient } from "~/platform/email.server";
import { dateTimeFormat } from "~/platform/format";
import type { MeetGreetNotice } from "./machine";

/** One email per notice, in the reader's language and time zone; the place as both people see it on the page. */
export async function meetGreetEmail(
  to: EmailRecipient,
  notice: MeetGreetNotice,
  about: { other: string; meeting: Pick<MeetGreet, "id" | "start_at" | "place" | "place_note"> },
): Promise<Email> {
  const language: Language = isLanguage(to.language) ? to.language : "en";
  const t = await translatorFor(language, "meetGreets");
  const when = dateTimeFormat(language, { dateStyle: "full", timeStyle: "short", timeZone: to.time_zone }).format(
    new Date(about.meeting.start_at),
  );
  const values = { name: about.other, when, interpolation: { escapeValue: false } };
  const place = t(`places.${about.meeting.place}`);
  return composeEmail({
    to: to.email,
    subject: t(`email.${notice}.subject`, values),
    greeting: t("email.greeting", { name: to.name, interpolation: { escapeValue: false } }),
    paragraphs: [
      t(`email.${notice}.body`, values),
      about.meeting.place_note
        ? t("email.placeWithNote", { place, note: about.meeting.place_note, interpolation: { escapeValue: false } })
        : t("email.place", { place, interpolation: { escapeValue: false } }),
    ],
    action: { label: t("email.action"), url: `${publicOrigin()}/meet/${about.meeting.id}` },
    footer: t("email.footer"),
  });
}
