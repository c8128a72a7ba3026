import type { Language } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { composeEmail, type Email } from "~/platform/email.server";

interface Recipient {
  email: string;
  name: string;
}

export async function confirmationEmail(to: Recipient, link: string, language: Language): Promise<Email> {
  const t = await translatorFor(language, "email");
  return composeEmail({
    to: to.email,
    subject: t("confirm.subject"),
    greeting: t("greeting", { name: to.name }),
    paragraphs: [t("confirm.body"), t("confirm.expiry")],
    action: { label: t("confirm.action"), url: link },
    footer: t("footer"),
  });
}

export async function welcomeEmail(to: Recipient, link: string, language: Language): Promise<Email> {
  const t = await translatorFor(language, "email");
  return composeEmail({
    to: to.email,
    subject: t("welcome.subject"),
    greeting: t("greeting", { name: to.name }),
    paragraphs: [t("welcome.body")],
    action: { label: t("welcome.action"), url: link },
    footer: t("footer"),
  });
}

export async function resetEmail(to: Recipient, link: string, language: Language): Promise<Email> {
  const t = await translatorFor(language, "email");
  return composeEmail({
    to: to.email,
    subject: t("reset.subject"),
    greeting: t("greeting", { name: to.name }),
    paragraphs: [t("reset.body"), t("reset.expiry"), t("reset.ignore")],
    action: { label: t("reset.action"), url: link },
    footer: t("footer"),
  });
}

export async function signupAttemptEmail(
  to: Recipient,
  links: { signIn: string; reset: string },
  language: Language,
): Promise<Email> {
  const t = await translatorFor(language, "email");
  return composeEmail({
    to: to.email,
    subject: t("signupAttempt.subject"),
    greeting: t("greeting", { name: to.name }),
    paragraphs: [t("signupAttempt.body"), t("signupAttempt.reset", { link: links.reset }), t("signupAttempt.ignore")],
    action: { label: t("signupAttempt.action"), url: links.signIn },
    footer: t("footer"),
  });
}
