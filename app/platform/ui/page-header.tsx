import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

export function PageHeader({ title, backTo, action }: { title: ReactNode; backTo?: string; action?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <header className="flex items-center gap-2 px-4 pt-4 pb-2">
      {backTo ? (
        <Link
          to={backTo}
          className="-ml-2 inline-flex size-11 items-center justify-center rounded-full hover:bg-stone-200"
        >
          <svg aria-hidden viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M15 18l-6-6 6-6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className="sr-only">{t("nav.back")}</span>
        </Link>
      ) : null}
      <h1 className="flex-1 text-2xl font-bold tracking-tight">{title}</h1>
      {action}
    </header>
  );
}
