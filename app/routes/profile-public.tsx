import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SitterReliability } from "~/features/bookings";
import { reliabilitySection } from "~/features/bookings/index.server";
import { getPublicProfile } from "~/features/profiles/index.server";
import { ProfileView, profileText } from "~/features/profiles";
import { ProfileReviews, replySchema } from "~/features/reviews";
import { replyToReview, reviewsSection } from "~/features/reviews/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["profile", "disputes", "safety"], title: "profile:public.previewTitle" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const profile = await getPublicProfile(user.id);
  if (!profile) throw new Response("Not found", { status: 404 });
  const language = await languageOf(request);
  const isSitter = profile.services.length > 0;
  const reviews = await reviewsSection({ id: profile.id, isSitter }, user, new URL(request.url), language, {
    withReplyForms: true,
  });
  return {
    profile: profileText(profile, language),
    reviews,
    reliability: isSitter ? await reliabilitySection(profile.id, language) : null,
    replyConstraint: constraintOf(replySchema),
  };
}

/** The person reviewed answers a review received, once. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await formDataOf(request), { schema: replySchema });
  const reviewId = String(submission.payload.reviewId ?? "").slice(0, 64);
  if (submission.status !== "success") return data({ reviewId, result: submission.reply() }, { status: 400 });
  const outcome = await replyToReview(user.id, submission.value.reviewId, submission.value.reply);
  if (outcome === "notFound") throw new Response("Not found", { status: 404 });
  if (outcome !== "saved")
    return data(
      { reviewId, result: submission.reply({ formErrors: [`disputes:reviews.errors.${outcome}`] }) },
      { status: 400 },
    );
  return redirectWithToast(`/profile/public${new URL(request.url).search}`, {
    type: "success",
    title: "disputes:reviews.replied",
  });
}

export default function PublicProfilePreview() {
  const { t } = useTranslation("profile");
  const { profile, reviews, reliability, replyConstraint } = useLoaderData<typeof loader>();
  const lastReply = useActionData<typeof action>();
  return (
    <>
      <PageHeader title={t("public.previewTitle")} backTo="/profile" />
      <p className="px-4 pb-3 text-sm text-stone-700">{t("public.previewIntro")}</p>
      <ProfileView profile={profile} />
      {reliability ? <SitterReliability figures={reliability} /> : null}
      <ProfileReviews
        section={reviews}
        hrefOf={(page) => `/profile/public?reviews=${page}`}
        lastReply={lastReply}
        replyConstraint={replyConstraint}
        back="/profile/public"
      />
    </>
  );
}
