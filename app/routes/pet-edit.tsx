import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PhotoGrid, PhotoUploadForm } from "~/features/media";
import { PetForm, petSchema, type PetInput } from "~/features/pets";
import { findOwnPet, updatePet } from "~/features/pets/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { ConfirmLink } from "~/platform/ui/confirm-link";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = {
  i18n: ["profile"],
  title: titleFrom<typeof loader>(({ pet }, t) => t("profile:pet.editTitle", { name: pet.name })),
};

async function ownPet(request: Request, petId: string | undefined) {
  const user = await requireUser(request);
  const pet = await findOwnPet(user.id, petId ?? "");
  if (!pet) throw new Response("Not found", { status: 404 });
  return { user, pet };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { pet } = await ownPet(request, params.petId);
  return { pet, constraint: constraintOf(petSchema) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, pet } = await ownPet(request, params.petId);
  const submission = parseWithZod(await formDataOf(request), { schema: petSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await updatePet(user.id, pet.id, submission.value as PetInput);
  return redirectWithToast("/profile", {
    type: "success",
    title: "profile:pet.updated",
    values: { name: submission.value.name ?? "" },
  });
}

export default function EditPet() {
  const { t } = useTranslation("profile");
  const { pet, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const location = useLocation();
  return (
    <>
      <PageHeader title={t("pet.editTitle", { name: pet.name })} backTo="/profile" />
      <section aria-labelledby="pet-photos" className="space-y-3 px-4 pb-6">
        <h2 id="pet-photos" className="text-lg font-semibold">
          {t("photos.title")}
        </h2>
        <PhotoGrid photos={pet.photos} name={pet.name} />
        <PhotoUploadForm petId={pet.id} redirectTo={location.pathname} photoCount={pet.photos.length} />
      </section>
      <PetForm
        lastResult={lastResult}
        withPhotos={false}
        constraint={constraint}
        submitLabel={t("pet.save")}
        defaultValue={{
          petType: pet.petType,
          name: pet.name,
          age: pet.age,
          breed: pet.breed,
          notes: pet.notes,
          temperament: pet.temperament,
          specialNeeds: pet.specialNeeds,
          energyLevel: pet.energyLevel,
        }}
      />
      <div className="px-4 py-6">
        <ConfirmLink
          to={`/pet/${pet.id}/delete`}
          question={t("pet.deleteQuestion", { name: pet.name })}
          confirmLabel={t("pet.delete")}
          className="btn btn-secondary w-full text-red-800"
        >
          {t("pet.delete")}
        </ConfirmLink>
      </div>
    </>
  );
}
