import { composeEmail, publicOrigin, type Email } from "~/platform/email.server";
import { isLanguage, type Language } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";

const languageOf = (language: string): Language => (isLanguage(language) ? language : "en");

export async function emailChangeLinkEmail(
  to: { newEmail: string; name: string; language: string },
  link: string,
): Promise<Email> {
  const t = await translatorFor(languageOf(to.language), "settings");
  return composeEmail({
    to: to.newEmail,
    subject: t("emails.changeLink.subject"),
    greeting: t("emails.greeting", { name: to.name }),
    paragraphs: [t("emails.changeLink.body"), t("emails.changeLink.expiry")],
    action: { label: t("emails.changeLink.action"), url: link },
    footer: t("emails.footer"),
  });
}

export async function emailChangeNoticeEmail(
  to: { email: string; name: string; language: string },
  newEmail: string,
): Promise<Email> {
  const t = await translatorFor(languageOf(to.language), "settings");
  return composeEmail({
    to: to.email,
    subject: t("emails.changeNotice.subject"),
    greeting: t("emails.greeting", { name: to.name }),
    paragraphs: [t("emails.changeNotice.body", { email: newEmail }), t("emails.changeNotice.notYou")],
    action: { label: t("emails.changeNotice.action"), url: `${publicOrigin()}/forgot-password` },
    footer: t("emails.footer"),
  });
}

export async function emailChangedEmail(
  to: { email: string; name: string; language: string },
  newEmail: string,
): Promise<Email> {
  const t = await translatorFor(languageOf(to.language), "settings");
  return composeEmail({
    to: to.email,
    subject: t("emails.changed.subject"),
    greeting: t("emails.greeting", { name: to.name }),
    paragraphs: [t("emails.changed.body", { email: newEmail }), t("emails.changeNotice.notYou")],
    footer: t("emails.footer"),
  });
}

/** Addressed to an account that no longer exists: no name, and wiped from the outbox once delivered. */
export async function accountDeletedEmail(to: { email: string; language: string }): Promise<Email> {
  const t = await translatorFor(languageOf(to.language), "settings");
  return {
    ...composeEmail({
      to: to.email,
      subject: t("emails.deleted.subject"),
      greeting: t("emails.deleted.greeting"),
      paragraphs: [t("emails.deleted.body"), t("emails.deleted.kept"), t("emails.deleted.again")],
      footer: t("emails.footer"),
    }),
    purgeAfterSend: true,
  };
}
