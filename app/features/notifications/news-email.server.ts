import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { composeEmail, enqueueEmail, publicOrigin } from "~/platform/email.server";
import { isLanguage } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";

type News =
  | { kind: "messages"; template: "message"; link: string; values: { name: string } }
  | { kind: "reviews"; template: "review"; link: string; values: { name: string; rating: number } };

/**
 * News by email for a person who asked for that kind (the outbox checks the preference), with its
 * one-click unsubscribe link. Never the content itself: a message's text stays in the app.
 */
export async function enqueueNewsEmail(userId: string, news: News, trx: Kysely<Database>): Promise<boolean> {
  const to = await trx
    .selectFrom("users")
    .select(["id", "email", "name", "language", "deleted_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!to || to.deleted_at) return false;
  const t = await translatorFor(isLanguage(to.language) ? to.language : "en", "settings");
  const email = composeEmail({
    to: to.email,
    subject: t(`news.${news.template}.subject`, news.values),
    greeting: t("emails.greeting", { name: to.name }),
    paragraphs: [t(`news.${news.template}.body`, news.values)],
    action: { label: t(`news.${news.template}.action`), url: `${publicOrigin()}${news.link}` },
    footer: t("emails.footer"),
    news: { userId: to.id, kind: news.kind, label: t("unsubscribe.emailLink") },
  });
  return enqueueEmail(email, trx);
}
