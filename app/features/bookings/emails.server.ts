import type { Language } from "~/platform/i18n";
import { isLanguage } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { composeEmail, publicOrigin, type Email, type EmailRecipient } from "~/platform/email.server";
import { dateTimeFormat } from "~/platform/format";
import { formatMoney } from "~/platform/money";
import type { NoticeKind } from "./machine";

const DISPUTE_NOTICES = new Set<NoticeKind>(["problemReported", "disputeReleased", "disputePartlyRefunded", "disputeRefunded", "operatorRefunded", "cancelledBySitter"]);

export async function bookingNoticeEmail(
  to: EmailRecipient & { id: string },
  kind: NoticeKind,
  booking: { other: string; pet: string; startAt: string; totalCents: number },
): Promise<Email> {
  const language: Language = isLanguage(to.language) ? to.language : "en";
  const t = await translatorFor(language, "email");
  // Problems, settlements, refunds and sitter cancellations keep their words in the disputes namespace.
  const words = DISPUTE_NOTICES.has(kind) ? await translatorFor(language, "disputes") : null;
  const settings = await translatorFor(language, "settings");
  const when = dateTimeFormat(language, { dateStyle: "full", timeStyle: "short", timeZone: to.time_zone }).format(new Date(booking.startAt));
  const values = { name: booking.other, pet: booking.pet, when, total: formatMoney(booking.totalCents, language) };
  return composeEmail({
    to: to.email,
    subject: words ? words(`email.${kind}.subject`, values) : t(`booking.${kind}.subject`, values),
    greeting: t("greeting", { name: to.name }),
    paragraphs: [words ? words(`email.${kind}.body`, values) : t(`booking.${kind}.body`, values)],
    action: { label: t("booking.action"), url: `${publicOrigin()}/bookings` },
    footer: t("footer"),
    news: { userId: to.id, kind: "bookings", label: settings("unsubscribe.emailLink") },
  });
}
