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
  BrowseModeForm,
  FiltersButton,
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
  // What sits above the deck, so its photo leaves room on a phone's screen for the name and the buttons.
  const deckAbove = {
    "--deck-above": `${(data.askLocation ? 16.75 : 7.5) + (data.tabs.length > 1 ? 3.5 : 2.5)}rem`,
  } as CSSProperties;
  return (
    <>
      {overlay}
      <PageHeader title={t("page.title")} action={<FiltersButton count={data.filterCount} />} />
      <div className="space-y-3 px-4 pb-6" style={deckAbove}>
        {data.askLocation ? (
          <LocationPrompt tab={tab} />
        ) : (
          <BrowseModeForm tab={tab} mode={data.mode} city={data.city} />
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
