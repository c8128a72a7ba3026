import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useConsoleFormat } from "~/features/admin";
import { auditEntries } from "~/features/admin/index.server";
import { requireAdmin } from "~/platform/operator.server";

export const handle = { i18n: ["admin"], title: "admin:audit.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const asked = Number(new URL(request.url).searchParams.get("before"));
  return auditEntries({ before: Number.isSafeInteger(asked) && asked > 0 ? asked : undefined });
}

const subjectLink = (type: string, id: string) => (type === "user" ? `/admin/people/${id}` : null);

export default function AdminAudit() {
  const { t } = useTranslation("admin");
  const { entries, next } = useLoaderData<typeof loader>();
  const format = useConsoleFormat();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">{t("audit.title")}</h1>
      <p className="mb-4 text-stone-700">{t("audit.subtitle")}</p>
      {entries.length === 0 ? (
        <p className="text-stone-700">{t("audit.none")}</p>
      ) : (
        <ol className="space-y-3">
          {entries.map((entry) => {
            const link = subjectLink(entry.subjectType, entry.subjectId);
            return (
              <li key={entry.id} className="card space-y-1 text-sm">
                <p className="flex flex-wrap gap-x-2 font-semibold">
                  <span>{t(`audit.actions.${entry.action}`, { defaultValue: entry.action })}</span>
                  <span className="font-normal text-stone-700">{format.when(entry.at)}</span>
                </p>
                <p>
                  {t("audit.who")}{" "}
                  {entry.operator ? (
                    <Link to={`/admin/people/${entry.operator.id}`} className="underline">
                      {entry.operator.name}
                    </Link>
                  ) : (
                    t("audit.command")
                  )}
                </p>
                <p className="break-all">
                  {t("audit.record")} {t(`audit.subjects.${entry.subjectType}`, { defaultValue: entry.subjectType })}{" "}
                  {link ? (
                    <Link to={link} className="font-mono underline">
                      {entry.subjectId}
                    </Link>
                  ) : (
                    <span className="font-mono">{entry.subjectId}</span>
                  )}
                </p>
                <p className="break-words whitespace-pre-line">
                  {t("audit.reason")} {entry.reason}
                </p>
                {entry.details ? <p className="font-mono text-xs break-all text-stone-700">{entry.details}</p> : null}
              </li>
            );
          })}
        </ol>
      )}
      {next ? (
        <Link to={`/admin/audit?before=${next}`} className="btn btn-secondary mt-4">
          {t("audit.older")}
        </Link>
      ) : null}
    </>
  );
}
