import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Initials } from "~/features/profiles";

export function RecentMatches({
  matches,
}: {
  matches: { id: string; userId: string; name: string; photo: string | null }[];
}) {
  const { t } = useTranslation("discovery");
  if (matches.length === 0) return null;
  return (
    <section aria-labelledby="matches-title" className="space-y-2">
      <h2 id="matches-title" className="text-sm font-semibold text-stone-800">
        {t("matches.title")}
      </h2>
      <ul className="-mx-4 flex gap-3 overflow-x-auto px-4 pb-1">
        {matches.map((match) => (
          <li key={match.id} className="w-16 shrink-0 text-center">
            <Link
              to={`/messages?userId=${encodeURIComponent(match.userId)}`}
              className="group block"
              aria-label={t("matches.message", { name: match.name })}
            >
              {match.photo ? (
                <img
                  src={match.photo}
                  alt=""
                  className="size-16 rounded-full object-cover ring-2 ring-brand-600 group-hover:ring-brand-800"
                />
              ) : (
                <Initials name={match.name} className="size-16 rounded-full text-xl ring-2 ring-brand-600" />
              )}
              <span className="mt-1 block truncate text-xs text-stone-800">{match.name.split(" ")[0]}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
