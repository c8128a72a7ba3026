import type { Language } from "~/platform/i18n";
import { isLanguage } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { composeEmail, publicOrigin, type Email, type EmailRecipient } from "~/platform/email.server";
import { longDay } from "~/platform/format";
import { formatMoney } from "~/platform/money";
import type { NoticeKind } from "./machine";

export async function subscriptionNoticeEmail(
  to: EmailRecipient,
  kind: NoticeKind,
  subscription: { planId: string; planName: string; priceCents: number; date: string | null },
): Promise<Email> {
  const language: Language = isLanguage(to.language) ? to.language : "en";
  const t = await translatorFor(language, "email");
  const plans = await translatorFor(language, "subscription");
  const date = longDay(language, to.time_zone)(subscription.date);
  const values = {
    plan: plans(`plans.${subscription.planId}`, { defaultValue: subscription.planName }),
    price: formatMoney(subscription.priceCents, language),
    date,
  };
  return composeEmail({
    to: to.email,
    subject: t(`subscription.${kind}.subject`, values),
    greeting: t("greeting", { name: to.name }),
    paragraphs: [t(`subscription.${kind}.body`, values)],
    action: { label: t("subscription.action"), url: `${publicOrigin()}/subscription?tab=mine` },
    footer: t("footer"),
  });
}
