import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getPublicProfile, isOwner } from "~/features/profiles/index.server";
import { ProfileView, profileText } from "~/features/profiles";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["profile", "bookings"], title: titleFrom<typeof loader>(({ profile }) => profile.name) };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const profile = await getPublicProfile(params.userId ?? "");
  if (!profile) throw new Response("Not found", { status: 404 });
  const bookable = profile.id !== user.id && isOwner(user.role) && profile.hourlyRateCents !== null;
  return { profile: profileText(profile, await languageOf(request)), bookable };
}

export default function UserProfile() {
  const { t } = useTranslation("profile");
  const { profile, bookable } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("public.title")} backTo="/dashboard" />
      <ProfileView profile={profile} />
      {bookable ? (
        <div className="sticky bottom-20 px-4 py-4">
          <Link to={`/booking/request?walkerId=${encodeURIComponent(profile.id)}`} className="btn btn-primary w-full shadow-lg">
            {t("bookings:history.book", { name: profile.name })}
          </Link>
        </div>
      ) : null}
    </>
  );
}
