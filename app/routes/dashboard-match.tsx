import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { deckHref } from "~/features/discovery";
import { findMatch } from "~/features/discovery/index.server";
import { playSound } from "~/features/notifications";
import { photoUrl } from "~/features/media/index.server";
import { Initials } from "~/features/profiles";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";

export const handle = { i18n: ["discovery"], title: titleFrom<typeof loader>((_, t) => t("discovery:match.title")) };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const match = await findMatch(user.id, params.matchId ?? "");
  if (!match) throw new Response("Not found", { status: 404 });
  const tab = new URL(request.url).searchParams.get("tab");
  return {
    other: {
      id: match.other.id,
      name: match.other.name,
      photo: match.other.photoKey ? photoUrl(match.other.photoKey) : null,
    },
    keepSwiping: deckHref(tab === "sitters" || tab === "pets" ? tab : null),
  };
}

export default function MatchOverlay() {
  const { t } = useTranslation("discovery");
  const { other, keepSwiping } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const message = useRef<HTMLAnchorElement>(null);
  useEffect(() => playSound("match"), []);
  useEffect(() => {
    message.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(keepSwiping);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [navigate, keepSwiping]);
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-brand-800/90 p-6">
      <section
        role="dialog"
        aria-modal="true"
        aria-labelledby="match-title"
        aria-describedby="match-body"
        className="w-full max-w-sm space-y-5 text-center text-white"
      >
        {other.photo ? (
          <img src={other.photo} alt="" className="mx-auto size-36 rounded-full object-cover ring-4 ring-white" />
        ) : (
          <Initials name={other.name} className="mx-auto size-36 rounded-full text-5xl ring-4 ring-white" />
        )}
        <h1 id="match-title" className="text-4xl font-black">
          {t("match.title")}
        </h1>
        <p id="match-body" className="text-lg">
          {t("match.body", { name: other.name })}
        </p>
        <div className="flex flex-col gap-3">
          <Link
            ref={message}
            to={`/messages?userId=${encodeURIComponent(other.id)}`}
            className="btn bg-white text-brand-800 hover:bg-brand-50"
          >
            {t("match.sendMessage")}
          </Link>
          <Link to={keepSwiping} className="btn border border-white text-white hover:bg-white/10">
            {t("match.keepSwiping")}
          </Link>
        </div>
      </section>
    </div>
  );
}
