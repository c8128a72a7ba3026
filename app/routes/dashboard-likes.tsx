import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { photoUrl } from "~/features/media/index.server";
import { Initials } from "~/features/profiles";
import { admirerCount, admirersOf, handleLikeBack } from "~/features/discovery/index.server";
import { LikeBackButton } from "~/features/discovery";
import { hasPremium } from "~/features/subscriptions/index.server";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["subscription", "discovery"], title: "subscription:likes.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!hasPremium(user)) return { premium: false as const, count: await admirerCount(user.id), admirers: [] };
  const admirers = await admirersOf(user.id);
  return {
    premium: true as const,
    count: admirers.length,
    admirers: admirers.map((admirer) => ({ ...admirer, photo: admirer.photoKey ? photoUrl(admirer.photoKey) : null })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return handleLikeBack(user, await formDataOf(request), "/dashboard/likes");
}

export default function WhoLikedYou() {
  const { t } = useTranslation("subscription");
  const data = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("likes.title")} backTo="/dashboard" />
      <div className="space-y-4 px-4 pb-8">
        {!data.premium ? (
          <section aria-labelledby="likes-locked" className="card space-y-3 text-center">
            <span aria-hidden className="text-4xl">
              🔒
            </span>
            <h2 id="likes-locked" className="text-lg font-bold">
              {t("likes.lockedTitle")}
            </h2>
            <p className="text-stone-700">{t("likes.lockedBody", { count: data.count })}</p>
            <Link to="/subscription" className="btn btn-primary">
              {t("likes.unlock")}
            </Link>
          </section>
        ) : data.admirers.length === 0 ? (
          <p className="card text-center text-stone-700">{t("likes.empty")}</p>
        ) : (
          <>
            <p className="text-stone-700">{t("likes.intro")}</p>
            <ul className="space-y-2">
              {data.admirers.map((admirer) => (
                <li key={admirer.userId} className="card flex items-center gap-3">
                  <Link
                    to={`/users/${encodeURIComponent(admirer.userId)}`}
                    className="flex min-w-0 flex-1 items-center gap-3 rounded-xl hover:bg-stone-50"
                    aria-label={t("likes.viewProfile", { name: admirer.name })}
                  >
                    {admirer.photo ? (
                      <img src={admirer.photo} alt="" className="size-14 shrink-0 rounded-full object-cover" />
                    ) : (
                      <Initials name={admirer.name} className="size-14 shrink-0 rounded-full text-lg" />
                    )}
                    <span className="min-w-0">
                      <span className="block truncate font-semibold">{admirer.name}</span>
                      <span className="block text-sm text-stone-700">
                        {admirer.city}
                        {admirer.petName ? ` · ${t("likes.liked", { pet: admirer.petName })}` : ""}
                      </span>
                    </span>
                  </Link>
                  <Form method="post" className="shrink-0">
                    <LikeBackButton userId={admirer.userId} name={admirer.name} />
                  </Form>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </>
  );
}
