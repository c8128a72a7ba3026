import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export const LEGAL_PAGES = ["terms", "privacy", "cookies", "imprint", "help"] as const;

/** The small footer of public pages: the legal texts and help, reachable signed in or out. */
export function LegalLinks({ className = "" }: { className?: string }) {
  const { t } = useTranslation("legal");
  return (
    <footer className={`px-4 py-6 text-center text-sm ${className}`}>
      <nav aria-label={t("footer.label")}>
        <ul className="flex flex-wrap justify-center gap-x-4 gap-y-2">
          {LEGAL_PAGES.map((page) => (
            <li key={page}>
              <Link to={`/${page}`} className="link inline-block py-1">
                {t(`titles.${page}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </footer>
  );
}
