import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SitterReliability } from "~/features/bookings";
import { reliabilitySection } from "~/features/bookings/index.server";
import { LikeBackButton } from "~/features/discovery";
import { connectionWith, handleLikeBack } from "~/features/discovery/index.server";
import { getPublicProfile, isOwner } from "~/features/profiles/index.server";
import { hasBlocked } from "~/features/safety/index.server";
import { ProfileView, isStayService, profileText } from "~/features/profiles";
import { ProfileReviews } from "~/features/reviews";
import { reviewsSection } from "~/features/reviews/index.server";
import { formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = {
  i18n: ["profile", "bookings", "discovery", "safety", "disputes", "meetGreets"],
  title: titleFrom<typeof loader>(({ profile }) => profile.name),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const profile = await getPublicProfile(params.userId ?? "");
  // Someone who blocked the asker is not there for them.
  if (!profile || (await hasBlocked(profile.id, user.id))) throw new Response("Not found", { status: 404 });
  const mine = profile.id === user.id;
  const blocked = !mine && (await hasBlocked(user.id, profile.id));
  const asOwner = !mine && !blocked && isOwner(user.role);
  const bookable = asOwner && profile.hourlyRateCents !== null;
  const staysBookable = asOwner && profile.services.some((offer) => isStayService(offer.service));
  const meetable = asOwner && profile.services.length > 0;
  const walksBookable =
    asOwner && profile.services.some((offer) => offer.service === "walk" || offer.service === "drop_in");
  const language = await languageOf(request);
  const isSitter = profile.services.length > 0;
  const reviews = await reviewsSection({ id: profile.id, isSitter }, user, new URL(request.url), language);
  return {
    profile: profileText(profile, language),
    bookable,
    staysBookable,
    walksBookable,
    meetable,
    mine,
    blocked,
    connection: blocked ? null : await connectionWith(user, profile.id),
    reviews,
    reliability: isSitter ? await reliabilitySection(profile.id, language) : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return handleLikeBack(user, await formDataOf(request), `/users/${encodeURIComponent(params.userId ?? "")}`);
}

export default function UserProfile() {
  const { t } = useTranslation("profile");
  const { profile, bookable, staysBookable, walksBookable, meetable, mine, blocked, connection, reviews, reliability } =
    useLoaderData<typeof loader>();
  const here = `/users/${profile.id}`;
  return (
    <>
      <PageHeader title={t("public.title")} backTo="/dashboard" />
      {blocked ? (
        <p role="status" className="mx-4 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {t("safety:block.youBlocked", { name: profile.name })}{" "}
          <Link to="/profile/privacy" className="font-semibold underline">
            {t("safety:privacy.link")}
          </Link>
        </p>
      ) : null}
      <ProfileView profile={profile} />
      {mine || blocked ? null : (
        <p className="flex flex-wrap gap-4 px-4 py-2">
          {meetable ? (
            <Link
              to={`/meet/new?sitterId=${encodeURIComponent(profile.id)}`}
              className="text-sm font-semibold text-brand-800 underline hover:text-brand-900"
            >
              {t("meetGreets:link")}
            </Link>
          ) : null}
          <Link
            to={`/report/profile/${profile.id}?back=${encodeURIComponent(here)}`}
            className="text-sm font-semibold text-stone-700 underline hover:text-stone-900"
          >
            {t("safety:report.link.profile")}
          </Link>
          <Link
            to={`/profile/privacy?block=${profile.id}&back=${encodeURIComponent(here)}`}
            className="text-sm font-semibold text-stone-700 underline hover:text-stone-900"
          >
            {t("safety:block.link")}
          </Link>
        </p>
      )}
      {reliability ? <SitterReliability figures={reliability} /> : null}
      <ProfileReviews
        section={reviews}
        hrefOf={(page) => `/users/${encodeURIComponent(profile.id)}?reviews=${page}`}
        back={here}
      />
      {bookable || staysBookable || walksBookable || connection ? (
        <div className="sticky bottom-20 flex flex-wrap gap-3 px-4 py-4 *:flex-1">
          {connection === "liked-you" ? (
            <Form method="post" className="flex *:flex-1">
              <LikeBackButton userId={profile.id} name={profile.name} />
            </Form>
          ) : connection === "matched" ? (
            <Link to={`/messages?userId=${encodeURIComponent(profile.id)}`} className="btn btn-secondary shadow-lg">
              {t("discovery:likeBack.message", { name: profile.name })}
            </Link>
          ) : null}
          {bookable ? (
            <Link
              to={`/booking/request?walkerId=${encodeURIComponent(profile.id)}`}
              className="btn btn-primary shadow-lg"
            >
              {t("bookings:history.book", { name: profile.name })}
            </Link>
          ) : null}
          {staysBookable ? (
            <Link
              to={`/booking/stay?sitterId=${encodeURIComponent(profile.id)}`}
              className={`btn ${bookable ? "btn-secondary" : "btn-primary"} shadow-lg`}
            >
              {t("bookings:stay.book")}
            </Link>
          ) : null}
          {walksBookable ? (
            <Link
              to={`/booking/walk?walkerId=${encodeURIComponent(profile.id)}`}
              className={`btn ${bookable || staysBookable ? "btn-secondary" : "btn-primary"} shadow-lg`}
            >
              {t("bookings:walk.book")}
            </Link>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
