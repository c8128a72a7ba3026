import { NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** The console's sections; Disputes and Bookings are pages of the disputes area, linked here. */
export const CONSOLE_SECTIONS = [
  { to: "/admin", key: "overview", end: true },
  { to: "/admin/people", key: "people", end: false },
  { to: "/admin/reports", key: "reports", end: false },
  { to: "/admin/disputes", key: "disputes", end: false },
  { to: "/admin/bookings", key: "bookings", end: false },
  { to: "/admin/audit", key: "audit", end: false },
] as const;

export function ConsoleNav({ openReports }: { openReports: number }) {
  const { t } = useTranslation("admin");
  return (
    <nav aria-label={t("nav.label")} className="overflow-x-auto border-b border-stone-200 bg-white">
      <ul className="mx-auto flex max-w-5xl gap-1 px-2">
        {CONSOLE_SECTIONS.map((section) => (
          <li key={section.key}>
            <NavLink
              to={section.to}
              end={section.end}
              className={({ isActive }) =>
                `inline-flex min-h-11 items-center gap-1.5 border-b-2 px-3 text-sm font-semibold whitespace-nowrap ${
                  isActive
                    ? "border-brand-700 text-brand-800"
                    : "border-transparent text-stone-700 hover:text-stone-900"
                }`
              }
            >
              {t(`nav.${section.key}`)}
              {section.key === "reports" && openReports > 0 ? (
                <span className="rounded-full bg-red-700 px-1.5 text-xs text-white">
                  {openReports}
                  <span className="sr-only"> {t("nav.openReports", { n: openReports })}</span>
                </span>
              ) : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
