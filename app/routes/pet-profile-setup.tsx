import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PHOTOS_MAX } from "~/features/media";
import {
  havePendingUploads,
  keepPendingUploads,
  listPendingUploads,
  readImageUpload,
  removePendingUpload,
} from "~/features/media/index.server";
import { PetForm, petCreateSchema, type PetCreateInput } from "~/features/pets";
import { createPet, PET_FORM } from "~/features/pets/index.server";
import { constraintOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["profile"], uploads: true, title: "profile:pet.createTitle" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { pending: await listPendingUploads(user.id, PET_FORM), constraint: constraintOf(petCreateSchema) };
}

const photoProblem = (problem: string) => (problem.startsWith("validation.") ? problem : `profile:${problem}`);

// The whole form, photos included, is checked in one pass; the photos of a refused post are kept for the next one.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const upload = await readImageUpload(request, { field: "photos", maxFiles: PHOTOS_MAX });
  if ("error" in upload) {
    return data({ status: "error" as const, error: { photos: [`profile:${upload.error}`] } }, { status: 400 });
  }
  const formData = upload.formData;
  for (const image of upload.images) formData.append("photos", new File([new Uint8Array(image)], "photo"));
  const removing = formData.get("removePending");
  if (typeof removing === "string") await removePendingUpload(user.id, PET_FORM, removing);
  const pendingIds = formData.getAll("pending").filter((id): id is string => typeof id === "string" && id !== removing);
  const pendingValid = await havePendingUploads(user.id, PET_FORM, pendingIds);
  const submission = parseWithZod(formData, { schema: petCreateSchema });
  if (submission.status !== "success" || !pendingValid || typeof removing === "string") {
    const kept = pendingValid ? await keepPendingUploads(user.id, PET_FORM, upload.images) : null;
    // Removing a kept photo is not a refusal: the form comes back as it was sent, without errors.
    if (typeof removing === "string" && kept?.status !== "refused") return data({ ...submission.reply(), error: {} });
    const problems = [
      ...((submission.status === "error" && submission.error?.photos) || []),
      ...(pendingValid ? [] : ["profile:media.pendingGone"]),
      ...(kept?.status === "refused" ? [photoProblem(kept.problem)] : []),
    ];
    return data(submission.reply({ fieldErrors: problems.length > 0 ? { photos: problems } : {} }), { status: 400 });
  }
  const input = submission.value as PetCreateInput;
  const result = await createPet(user.id, input, upload.images, input.pending);
  if (result.status === "refused") {
    return data(submission.reply({ fieldErrors: { photos: [photoProblem(result.problem)] } }), { status: 400 });
  }
  return redirectWithToast("/profile", { type: "success", title: "profile:pet.created", values: { name: input.name } });
}

export default function PetProfileSetup() {
  const { t } = useTranslation("profile");
  const { pending, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <PageHeader title={t("pet.createTitle")} backTo="/profile" />
      <PetForm
        lastResult={lastResult}
        withPhotos
        pending={pending}
        submitLabel={t("pet.create")}
        constraint={constraint}
      />
    </>
  );
}
