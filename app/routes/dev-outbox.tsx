import { type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { readableOutbox } from "~/features/auth/index.server";
import { env } from "~/platform/env.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { title: "common:outbox.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  if (!env.devToolsEnabled) throw new Response("Not found", { status: 404 });
  const { emails, waiting } = await readableOutbox(request);
  return {
    waiting,
    emails: emails.map((email) => ({
      id: email.id,
      to: email.to_address,
      subject: email.subject,
      text: email.text_body,
      createdAt: email.created_at,
    })),
  };
}

const URL_PATTERN = /(https?:\/\/[^\s]+)/g;

function TextWithLinks({ text }: { text: string }) {
  return (
    <>
      {text.split(URL_PATTERN).map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="link break-all">
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

export default function DevOutbox() {
  const { emails, waiting } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <main id="main" className="mx-auto max-w-2xl pb-10">
      <PageHeader title={t("outbox.title")} backTo="/" />
      <p className="px-4 text-stone-700">{t("outbox.intro")}</p>
      <p className="px-4 pt-2 text-stone-700">{t("outbox.whose")}</p>
      {emails.length === 0 && waiting.length === 0 ? <p className="px-4 py-6">{t("outbox.empty")}</p> : null}
      {waiting.length ? (
        <ul className="space-y-4 px-4 pt-4">
          {waiting.map((address, index) => (
            <li key={address}>
              <article className="card space-y-2" aria-labelledby={`waiting-${index}`} data-testid="outbox-waiting">
                <h2 id={`waiting-${index}`} className="font-semibold">
                  {t("outbox.waitingTitle", { address })}
                </h2>
                <p className="text-sm text-stone-700">{t("outbox.waitingBody")}</p>
                <Link to="/auth?mode=login" className="link">
                  {t("outbox.waitingSignIn")}
                </Link>
              </article>
            </li>
          ))}
        </ul>
      ) : null}
      <ol className="space-y-4 p-4">
        {emails.map((email) => (
          <li key={email.id}>
            <article className="card space-y-2" aria-labelledby={`email-${email.id}`}>
              <h2 id={`email-${email.id}`} className="font-semibold">
                {email.subject}
              </h2>
              <p className="text-sm text-stone-700">
                {t("outbox.to")}: <span data-testid="email-to">{email.to}</span> ·{" "}
                <time dateTime={email.createdAt}>
                  {new Date(email.createdAt).toLocaleString("en-GB", { timeZone: "UTC" })} UTC
                </time>
              </p>
              <pre className="font-sans text-sm whitespace-pre-wrap">
                <TextWithLinks text={email.text} />
              </pre>
            </article>
          </li>
        ))}
      </ol>
    </main>
  );
}
