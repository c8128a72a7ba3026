import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LikeBackButton } from "~/features/discovery";
import { connectionWith, handleLikeBack } from "~/features/discovery/index.server";
import { getPublicProfile, isOwner } from "~/features/profiles/index.server";
import { ProfileView, profileText } from "~/features/profiles";
import { ProfileReviews } from "~/features/reviews";
import { reviewsSection } from "~/features/reviews/index.server";
import { formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["profile", "bookings", "discovery", "disputes"], title: titleFrom<typeof loader>(({ profile }) => profile.name) };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const profile = await getPublicProfile(params.userId ?? "");
  if (!profile) throw new Response("Not found", { status: 404 });
  const bookable = profile.id !== user.id && isOwner(user.role) && profile.hourlyRateCents !== null;
  const language = await languageOf(request);
  const reviews = await reviewsSection({ id: profile.id, isSitter: profile.hourlyRateCents !== null }, user, new URL(request.url), language);
  return { profile: profileText(profile, language), bookable, connection: await connectionWith(user, profile.id), reviews };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return handleLikeBack(user, await formDataOf(request), `/users/${encodeURIComponent(params.userId ?? "")}`);
}

export default function UserProfile() {
  const { t } = useTranslation("profile");
  const { profile, bookable, connection, reviews } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("public.title")} backTo="/dashboard" />
      <ProfileView profile={profile} />
      <ProfileReviews section={reviews} hrefOf={(page) => `/users/${encodeURIComponent(profile.id)}?reviews=${page}`} />
      {bookable || connection ? (
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
            <Link to={`/booking/request?walkerId=${encodeURIComponent(profile.id)}`} className="btn btn-primary shadow-lg">
              {t("bookings:history.book", { name: profile.name })}
            </Link>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
