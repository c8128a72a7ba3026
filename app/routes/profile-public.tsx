import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getPublicProfile } from "~/features/profiles/index.server";
import { ProfileView, profileText } from "~/features/profiles";
import { languageOf } from "~/platform/i18n.server";
import { requireUser } from "~/platform/session.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["profile"], title: "profile:public.previewTitle" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const profile = await getPublicProfile(user.id);
  if (!profile) throw new Response("Not found", { status: 404 });
  return { profile: profileText(profile, await languageOf(request)) };
}

export default function PublicProfilePreview() {
  const { t } = useTranslation("profile");
  const { profile } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("public.previewTitle")} backTo="/profile" />
      <p className="px-4 pb-3 text-sm text-stone-700">{t("public.previewIntro")}</p>
      <ProfileView profile={profile} />
    </>
  );
}
