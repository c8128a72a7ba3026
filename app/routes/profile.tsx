import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { payoutOnboardingLink, payoutStatusOf } from "~/features/payments/index.server";
import { earningsOf, listBookings, reviewsReceived } from "~/features/bookings/index.server";
import { ProfilePage } from "~/features/profiles";
import { isSitter, profilePage, switchActingRole } from "~/features/profiles/index.server";
import { publicOrigin } from "~/platform/email.server";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";

/** Payout onboarding posts here and is redirected to Stripe's own pages. */
export const handle = {
  i18n: ["profile", "bookings", "safety", "care"],
  csp: { "form-action": ["https://connect.stripe.com"] },
  title: "profile:page.title",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [page, history, reviews, earnings] = await Promise.all([
    profilePage(user, new URL(request.url).searchParams.get("payouts") === "return"),
    listBookings(user.id, "all", 5),
    reviewsReceived(user.id, 5),
    isSitter(user.role) ? earningsOf(user.id) : null,
  ]);
  return {
    ...page,
    history,
    reviews: reviews.map((review) => ({
      id: review.id,
      rating: review.rating,
      comment: review.hidden_at ? "" : review.comment,
      removed: Boolean(review.hidden_at),
      reviewerName: review.reviewer_name,
      createdAt: review.created_at,
    })),
    earnings,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await formDataOf(request);
  if (form.get("intent") === "payouts") {
    if (!isSitter(user.role) || payoutStatusOf(user).provider !== "stripe")
      throw new Response("Bad request", { status: 400 });
    const origin = publicOrigin();
    const url = await payoutOnboardingLink(
      user,
      { returnUrl: `${origin}/profile?payouts=return`, refreshUrl: `${origin}/profile?payouts=refresh` },
      String(form.get("attempt") ?? crypto.randomUUID()),
    );
    return url ? redirect(url) : redirectWithToast("/profile", { type: "error", title: "profile:payouts.failed" });
  }
  const role = form.get("actingRole");
  if (role !== "owner" && role !== "sitter") throw new Response("Bad request", { status: 400 });
  if (!(await switchActingRole(user, role))) throw new Response("Bad request", { status: 400 });
  return redirectWithToast("/profile", {
    type: "success",
    title: role === "sitter" ? "profile:role.nowSitter" : "profile:role.nowOwner",
  });
}

export default function Profile() {
  return <ProfilePage {...useLoaderData<typeof loader>()} />;
}
