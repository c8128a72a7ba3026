import { NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

const icons: Record<string, ReactNode> = {
  dashboard: <path d="M12 21s-7-4.5-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 11c0 5.5-7 10-7 10z" />,
  messages: <path d="M4 5h16v11H8l-4 4z" />,
  bookings: (
    <>
      <rect x="4" y="5" width="16" height="15" rx="2" />
      <path d="M8 3v4M16 3v4M4 10h16" />
    </>
  ),
  notifications: <path d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0" />,
  profile: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </>
  ),
};

export function badgeText(count: number): string {
  return count > 9 ? "9+" : String(count);
}

export function BottomNav({
  unreadNotifications,
  unreadMessages,
}: {
  unreadNotifications: number;
  unreadMessages: number;
}) {
  const { t } = useTranslation();
  const items = [
    { to: "/dashboard", key: "dashboard", badge: 0 },
    { to: "/messages", key: "messages", badge: unreadMessages },
    { to: "/bookings", key: "bookings", badge: 0 },
    { to: "/notifications", key: "notifications", badge: unreadNotifications },
    { to: "/profile", key: "profile", badge: 0 },
  ];
  return (
    <nav
      aria-label={t("nav.label")}
      className="fixed inset-x-0 bottom-0 z-40 border-t border-stone-200 bg-white pb-[env(safe-area-inset-bottom)]"
    >
      <ul className="mx-auto grid max-w-md grid-cols-5">
        {items.map((item) => (
          <li key={item.key}>
            <NavLink
              to={item.to}
              prefetch="intent"
              className={({ isActive }) =>
                `relative flex min-h-14 flex-col items-center justify-center gap-0.5 text-xs font-medium ${isActive ? "text-brand-700" : "text-stone-600"}`
              }
            >
              <svg
                aria-hidden
                viewBox="0 0 24 24"
                className="size-6"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinejoin="round"
                strokeLinecap="round"
              >
                {icons[item.key]}
              </svg>
              {/* A long word breaks only where its translation allows (soft hyphens; the browser's own hyphenation by
                  the page's lang where it has it), never mid-syllable or into the next label. */}
              <span className="max-w-full px-0.5 text-center text-[10px] leading-tight hyphens-auto min-[380px]:text-xs">
                {t(`nav.${item.key}`)}
              </span>
              {item.badge > 0 ? (
                <span className="absolute top-1 left-1/2 ml-2 min-w-5 rounded-full bg-accent-500 px-1 text-center text-[11px] leading-5 font-bold text-white">
                  <span aria-hidden>{badgeText(item.badge)}</span>
                  <span className="sr-only">{t("nav.unread", { count: item.badge })}</span>
                </span>
              ) : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
