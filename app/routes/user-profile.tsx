import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getPublicProfile } from "~/features/profiles/profiles.server";
import { ProfileView } from "~/features/profiles/profile-view";
import { requireUser } from "~/platform/session.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["profile"] };

/** Another member's public profile (the deck's info button and the chat link here). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const profile = await getPublicProfile(params.userId ?? "");
  if (!profile) throw new Response("Not found", { status: 404 });
  return { profile };
}

export default function UserProfile() {
  const { t } = useTranslation("profile");
  const { profile } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("public.title")} backTo="/dashboard" />
      <ProfileView profile={profile} />
    </>
  );
}
