import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { deletePhoto, findOwnPhoto, photoUrl } from "~/features/media/index.server";
import { titleFrom } from "~/platform/page-title";
import { safeRedirectTarget } from "~/platform/redirect.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { ConfirmPage } from "~/platform/ui/confirm-link";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["profile"], title: titleFrom<typeof loader>((_, t) => t("profile:photos.deleteTitle")) };

function backTo(request: Request) {
  return safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo"), "/profile/edit");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const photo = await findOwnPhoto(user.id, params.photoId ?? "");
  if (!photo) throw new Response("Not found", { status: 404 });
  return { cardUrl: photoUrl(photo.card_key), back: backTo(request) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const result = await deletePhoto(user.id, params.photoId ?? "");
  if (result === "not-found") throw new Response("Not found", { status: 404 });
  if (result === "last-pet-photo") {
    return redirectWithToast(backTo(request), {
      type: "error",
      title: "profile:media.deleteFailed",
      description: "profile:photos.petNeedsOne",
    });
  }
  return redirectWithToast(backTo(request), { type: "success", title: "profile:photos.deleted" });
}

export default function DeletePhoto() {
  const { t } = useTranslation("profile");
  const { cardUrl, back } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("photos.deleteTitle")} backTo={back} />
      <img src={cardUrl} alt="" className="mx-auto mb-4 w-48 rounded-xl" />
      <ConfirmPage question={t("photos.deleteQuestion")} confirmLabel={t("photos.delete")} cancelTo={back} />
    </>
  );
}
