import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useOutlet } from "@remix-run/react";
import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import {
  deckFor,
  filtersOf,
  tabsFor,
  type DeckTab,
  handleDeckAction,
  promptPostponed,
  FREE_DAILY_LIKES,
  hasSwiped,
  likesLeftToday,
  recentMatches,
} from "~/features/discovery/index.server";
import {
  deckCardText,
  deckHref,
  activeFilterCount,
  LocationChoices,
  LocationPrompt,
  NewProfilesOffer,
  RecentMatches,
  SwipeDeck,
  topPhotoPreload,
} from "~/features/discovery";
import { hasPremium } from "~/features/subscriptions/index.server";
import { photoUrl } from "~/features/media/index.server";
import { actingRole, isOwner } from "~/features/profiles/index.server";
import { formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { getUser, requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";
import { TabLinks } from "~/platform/ui/tab-links";

export const handle = { i18n: ["discovery", "profile", "subscription"], title: "discovery:page.title" };

export const meta: MetaFunction<typeof loader> = ({ data }) => topPhotoPreload(data?.deck, data?.photo ?? 0);

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const tabs = tabsFor(user.role);
  const asked = url.searchParams.get("tab");
  const preferred: DeckTab = actingRole(user) === "sitter" ? "pets" : "sitters";
  const tab = tabs.find((item) => item === asked) ?? (tabs.includes(preferred) ? preferred : tabs[0]!);
  const premium = hasPremium(user);
  const [deck, language, swiped, postponed, matches] = await Promise.all([
    deckFor(user, tab),
    languageOf(request),
    hasSwiped(user.id),
    promptPostponed(request),
    recentMatches(user.id),
  ]);
  return {
    tab,
    tabs,
    deck: deckCardText(deck, language),
    mode: user.browse_mode,
    city: user.city,
    filterCount: activeFilterCount(filtersOf(user), isOwner(user.role)),
    askLocation: user.browse_mode === null && !postponed,
    likesLeft: premium ? null : likesLeftToday(user),
    premium,
    dailyLikes: FREE_DAILY_LIKES,
    canStartOver: swiped,
    matches: matches.map((match) => ({
      id: match.id,
      userId: match.userId,
      name: match.name,
      photo: match.photoKey ? photoUrl(match.photoKey) : null,
    })),
    photo: Math.max(0, Math.min(5, Number.parseInt(url.searchParams.get("photo") ?? "0", 10) || 0)),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await formDataOf(request);
  const user = await getUser(request);
  if (!user) {
    return redirectWithToast(`/auth?${new URLSearchParams({ mode: "login", redirectTo: "/dashboard" })}`, {
      type: "error",
      title: "discovery:deck.signInToLike",
    });
  }
  return handleDeckAction(user, form);
}

export default function Dashboard() {
  const { t } = useTranslation("discovery");
  const data = useLoaderData<typeof loader>();
  const overlay = useOutlet();
  const { tab, deck } = data;
  // Without a choice yet, the deck is everyone's: Global.
  const shownMode = data.mode ?? "global";
  // What sits above the deck, so its photo leaves room on a phone's screen for the name and the buttons.
  const deckAbove = {
    "--deck-above": `${(data.askLocation ? 16.75 : 7.5) + (data.tabs.length > 1 ? 3.5 : 2.5)}rem`,
  } as CSSProperties;
  return (
    <>
      {overlay}
      <PageHeader
        title={t("page.title")}
        action={
          <Link to="/dashboard/filters" className="btn btn-secondary relative px-3">
            <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 6h16M7 12h10M10 18h4" strokeLinecap="round" />
            </svg>
            {t("filters.open")}
            {data.filterCount > 0 ? (
              <span className="absolute -top-2 -right-2 flex size-6 items-center justify-center rounded-full bg-accent-500 text-xs font-bold text-stone-950">
                <span aria-hidden>{data.filterCount}</span>
                <span className="sr-only">{t("filters.active", { count: data.filterCount })}</span>
              </span>
            ) : null}
          </Link>
        }
      />
      <div className="space-y-3 px-4 pb-6" style={deckAbove}>
        {data.askLocation ? (
          <LocationPrompt tab={tab} />
        ) : (
          <Form
            method="post"
            action="/dashboard"
            className="flex items-center justify-between gap-3"
            aria-label={t("mode.label")}
          >
            <input type="hidden" name="tab" value={tab} />
            <p className="text-sm text-stone-700">
              {data.mode === "local" ? t("mode.localNow", { city: data.city }) : t("mode.globalNow")}
            </p>
            <div className="inline-flex rounded-xl bg-stone-200 p-1" role="group" aria-label={t("mode.label")}>
              {(["local", "global"] as const).map((mode) => (
                <button
                  key={mode}
                  type="submit"
                  name="intent"
                  value={`browse-${mode}`}
                  aria-pressed={shownMode === mode}
                  className={`min-h-9 rounded-lg px-3 text-sm font-semibold ${shownMode === mode ? "bg-white text-stone-900 shadow-sm" : "text-stone-700 hover:text-stone-900"}`}
                >
                  {t(`mode.${mode}`)}
                </button>
              ))}
            </div>
          </Form>
        )}

        {data.tabs.length > 1 ? (
          <TabLinks
            label={t("tabs.label")}
            tabs={data.tabs}
            current={tab}
            hrefOf={deckHref}
            labelOf={(item) => t(`tabs.${item}`)}
          />
        ) : (
          <h2 className="text-lg font-semibold text-stone-800">{t(`tabs.${tab}`)}</h2>
        )}

        {data.likesLeft === 0 ? (
          <p role="status" className="rounded-xl bg-amber-50 p-3 text-amber-950 ring-1 ring-amber-200">
            {t("limit.body", { count: data.dailyLikes })}
          </p>
        ) : null}

        {deck.status === "needs-location" ? (
          <section className="card space-y-3 text-center" aria-labelledby="needs-location">
            <h2 id="needs-location" className="text-lg font-bold">
              {t("location.neededTitle")}
            </h2>
            <p className="text-stone-700">
              {data.city ? t("location.cityUnknown", { city: data.city }) : t("location.noCity")}
            </p>
            <LocationChoices tab={tab} />
            <Link to="/profile/edit" className="link">
              {t("location.editCity")}
            </Link>
          </section>
        ) : deck.cards.length > 0 ? (
          <div className="relative">
            <SwipeDeck cards={deck.cards} tab={tab} initialPhoto={data.photo} paused={overlay !== null} />
            <NewProfilesOffer href={deckHref(tab)} floating />
          </div>
        ) : (
          <section className="card space-y-3 text-center" aria-labelledby="deck-empty">
            <h2 id="deck-empty" className="text-lg font-bold">
              {t("deck.emptyTitle")}
            </h2>
            <p className="text-stone-700">{data.mode === "local" ? t("deck.emptyLocal") : t("deck.emptyBody")}</p>
            <Link to="/dashboard/filters" className="link block">
              {t("deck.changeFilters")}
            </Link>
            <NewProfilesOffer href={deckHref(tab)} />
          </section>
        )}

        <p className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <Link to="/dashboard/likes" className="link font-semibold">
            {t("subscription:likes.link")}
          </Link>
          {data.premium ? (
            <span className="rounded-full bg-brand-100 px-2.5 py-0.5 text-xs font-bold text-brand-800">
              {t("subscription:likes.unlimited")}
            </span>
          ) : (
            <Link to="/subscription" className="link">
              {t("subscription:title")}
            </Link>
          )}
        </p>

        <RecentMatches matches={data.matches} />

        {data.canStartOver ? (
          <Form method="post" action="/dashboard" className="text-center">
            <input type="hidden" name="tab" value={tab} />
            <button type="submit" name="intent" value="start-over" className="btn btn-secondary">
              {t("deck.startOver")}
            </button>
          </Form>
        ) : null}
      </div>
    </>
  );
}
