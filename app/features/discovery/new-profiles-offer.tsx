import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DECK_NEWS } from "~/platform/events/live-connection";

// Shown only once the live stream said so; then a plain link to the same deck, which loads it again.
export function NewProfilesOffer({ href, floating = false }: { href: string; floating?: boolean }) {
  const { t } = useTranslation("discovery");
  const [news, setNews] = useState(false);
  useEffect(() => {
    const offer = () => setNews(true);
    window.addEventListener(DECK_NEWS, offer);
    return () => window.removeEventListener(DECK_NEWS, offer);
  }, []);
  return (
    <div
      role="status"
      className={floating ? "pointer-events-none absolute inset-x-0 top-4 z-20 flex justify-center" : "empty:hidden"}
    >
      {news ? (
        <Link
          to={href}
          replace
          onClick={() => setNews(false)}
          className="btn btn-primary pointer-events-auto shadow-lg"
        >
          {t("deck.newProfiles")}
        </Link>
      ) : null}
    </div>
  );
}
