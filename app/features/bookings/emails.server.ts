import type { Language } from "~/platform/i18n";
import { isLanguage } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { composeEmail, publicOrigin, type Email, type EmailRecipient } from "~/platform/email.server";
import { dateTimeFormat } from "~/platform/format";
import { formatMoney } from "~/platform/money";
import type { NoticeKind, Party } from "./machine";
import type { BookingMoney } from "./money";

const DISPUTE_NOTICES = new Set<NoticeKind>([
  "problemReported",
  "disputeReleased",
  "disputePartlyRefunded",
  "disputeRefunded",
  "operatorRefunded",
  "cancelledBySitter",
]);
/** News of money taken or given back: the sitter is also told what they keep of it. */
const MONEY_OUTCOMES = new Set<NoticeKind>([
  "released",
  "disputeReleased",
  "disputePartlyRefunded",
  "disputeRefunded",
  "operatorRefunded",
]);
/** News of a refund in part: the notification names the amount given back. */
export const REFUND_NOTICES = new Set<NoticeKind>(["disputePartlyRefunded", "operatorRefunded"]);

export async function bookingNoticeEmail(
  to: EmailRecipient & { id: string },
  kind: NoticeKind,
  booking: { other: string; pet: string; startAt: string; money: BookingMoney },
  party: Party,
): Promise<Email> {
  const language: Language = isLanguage(to.language) ? to.language : "en";
  const t = await translatorFor(language, "email");
  // Problems, settlements, refunds and sitter cancellations keep their words in the disputes namespace.
  const words = DISPUTE_NOTICES.has(kind) ? await translatorFor(language, "disputes") : null;
  const settings = await translatorFor(language, "settings");
  const when = dateTimeFormat(language, { dateStyle: "full", timeStyle: "short", timeZone: to.time_zone }).format(
    new Date(booking.startAt),
  );
  const money = (cents: number) => formatMoney(cents, language);
  const { priceCents, paidCents, refundedCents, sitterKeepsCents, platformFeeCents } = booking.money;
  const values = {
    name: booking.other,
    pet: booking.pet,
    when,
    total: money(priceCents),
    paid: money(paidCents),
    refunded: money(refundedCents),
    keeps: money(sitterKeepsCents),
    fee: money(platformFeeCents),
  };
  // An owner's late cancellation leaves the sitter part of the price under their policy: they are told how much.
  const sitterShare =
    party === "sitter" && (MONEY_OUTCOMES.has(kind) || kind === "cancelledByOwner") && paidCents > 0
      ? [t("booking.sitterKeeps", values)]
      : [];
  return composeEmail({
    to: to.email,
    subject: words ? words(`email.${kind}.subject`, values) : t(`booking.${kind}.subject`, values),
    greeting: t("greeting", { name: to.name }),
    paragraphs: [words ? words(`email.${kind}.body`, values) : t(`booking.${kind}.body`, values), ...sitterShare],
    action: { label: t("booking.action"), url: `${publicOrigin()}/bookings` },
    footer: t("footer"),
    news: { userId: to.id, kind: "bookings", label: settings("unsubscribe.emailLink") },
  });
}
