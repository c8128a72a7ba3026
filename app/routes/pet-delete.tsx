import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { deletePet, findOwnPet } from "~/features/pets/index.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { ConfirmPage } from "~/platform/ui/confirm-link";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["profile"], title: titleFrom<typeof loader>((_, t) => t("profile:pet.deleteTitle")) };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const pet = await findOwnPet(user.id, params.petId ?? "");
  if (!pet) throw new Response("Not found", { status: 404 });
  return { id: pet.id, name: pet.name };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const pet = await findOwnPet(user.id, params.petId ?? "");
  if (!pet || !(await deletePet(user.id, pet.id))) throw new Response("Not found", { status: 404 });
  return redirectWithToast("/profile", { type: "success", title: "profile:pet.deleted", values: { name: pet.name } });
}

export default function DeletePet() {
  const { t } = useTranslation("profile");
  const pet = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("pet.deleteTitle")} backTo={`/pet/${pet.id}/edit`} />
      <ConfirmPage
        question={t("pet.deleteQuestion", { name: pet.name })}
        detail={t("pet.deleteDetail")}
        confirmLabel={t("pet.delete")}
        cancelTo={`/pet/${pet.id}/edit`}
      />
    </>
  );
}
