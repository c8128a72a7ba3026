import { composeEmail, publicOrigin, type Email, type EmailRecipient } from "~/platform/email.server";
import { isLanguage, type Language } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";

export type AccountNotice = "suspended" | "restored" | "warning";

/** The operator's words are quoted as written: they tell the person why. */
export async function accountNoticeEmail(to: EmailRecipient, kind: AccountNotice, reason: string): Promise<Email> {
  const language: Language = isLanguage(to.language) ? to.language : "en";
  const t = await translatorFor(language, "safety");
  return composeEmail({
    to: to.email,
    subject: t(`email.${kind}.subject`),
    greeting: t("email:greeting", { name: to.name }),
    paragraphs: [t(`email.${kind}.body`), t("email.reason", { reason })],
    ...(kind === "suspended" ? {} : { action: { label: t("email.open"), url: `${publicOrigin()}/dashboard` } }),
    footer: t("email:footer"),
  });
}
