import type { Language } from "~/platform/i18n";
import { isLanguage } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { composeEmail, publicOrigin, type Email, type EmailRecipient } from "~/platform/email.server";
import { dateTimeFormat, numberFormat } from "~/platform/format";
import { isMissed, type VisitReport } from "./report.server";

export const distanceText = (metres: number, language: string) =>
  numberFormat(language, {
    style: "unit",
    unit: "kilometer",
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
  }).format(metres / 1000);
export const durationText = (seconds: number, language: string) =>
  numberFormat(language, { style: "unit", unit: "minute", maximumFractionDigits: 0 }).format(
    Math.max(1, Math.round(seconds / 60)),
  );

const languageOf = (to: { language: string }): Language => (isLanguage(to.language) ? to.language : "en");

export async function reportEmail(
  to: EmailRecipient,
  about: { sitter: string; pet: string; bookingId: string },
  report: VisitReport,
): Promise<Email> {
  const language = languageOf(to);
  const t = await translatorFor(language, "care");
  const time = dateTimeFormat(language, { timeStyle: "short", timeZone: to.time_zone });
  const day = dateTimeFormat(language, { dateStyle: "full", timeZone: to.time_zone });
  const values = { sitter: about.sitter, pet: about.pet, interpolation: { escapeValue: false } };
  const items = report.items.map((item) =>
    isMissed(report, item)
      ? t("email.itemMissed", { ...values, label: item.label, kind: t(`kinds.${item.kind}`) })
      : t("email.itemDone", {
          ...values,
          label: item.label,
          kind: t(`kinds.${item.kind}`),
          time: time.format(new Date(item.doneAt!)),
        }),
  );
  const photos = report.media.filter((media) => media.type === "image").length;
  const videos = report.media.length - photos;
  const paragraphs = [
    t("email.times", {
      ...values,
      day: day.format(new Date(report.checkedInAt)),
      in: time.format(new Date(report.checkedInAt)),
      out: report.checkedOutAt ? time.format(new Date(report.checkedOutAt)) : "—",
    }),
    ...(items.length ? items : [t("report.noChecklist")]),
    ...(report.quickNotes.length
      ? [t("email.quickNotes", { notes: report.quickNotes.map((note) => t(`quick.${note}`)).join(", ") })]
      : []),
    ...(report.walk
      ? [
          t("email.walk", {
            distance: distanceText(report.walk.distanceM, language),
            duration: durationText(report.walk.durationS, language),
          }),
        ]
      : []),
    ...(report.media.length ? [t("email.media", { photos, videos })] : []),
    ...(report.note ? [t("email.note", { ...values, note: report.note })] : []),
  ];
  return composeEmail({
    to: to.email,
    subject: t("email.subject", values),
    greeting: t("email.greeting", { name: to.name, interpolation: { escapeValue: false } }),
    paragraphs,
    action: { label: t("email.action"), url: `${publicOrigin()}/bookings/${about.bookingId}/visit` },
    footer: t("email.footer"),
  });
}

export async function reportCardText(to: { language: string }, pet: string, report: VisitReport): Promise<string> {
  const t = await translatorFor(languageOf(to), "care");
  const done = report.items.filter((item) => item.doneAt).length;
  const missed = report.items.filter((item) => isMissed(report, item)).length;
  return t("chatCard.body", { pet, done, total: report.items.length, missed, interpolation: { escapeValue: false } });
}
