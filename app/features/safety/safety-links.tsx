import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ReportableSubject } from "./schema";

/** Where a report form lives, coming back to `back` afterwards. */
export const reportHref = (subject: ReportableSubject, id: string | number, back: string) =>
  `/report/${subject}/${encodeURIComponent(String(id))}?back=${encodeURIComponent(back)}`;

export function ReportLink({ subject, id, back, className = "" }: { subject: ReportableSubject; id: string | number; back: string; className?: string }) {
  const { t } = useTranslation("safety");
  return (
    <Link to={reportHref(subject, id, back)} className={`text-xs font-semibold text-stone-700 underline hover:text-stone-900 ${className}`}>
      {t(`report.link.${subject}`)}
    </Link>
  );
}

/** What everyone sees in place of a message or review an operator removed. */
export function RemovedNotice({ className = "" }: { className?: string }) {
  const { t } = useTranslation("safety");
  return <span className={`italic text-stone-700 ${className}`}>{t("removed")}</span>;
}
