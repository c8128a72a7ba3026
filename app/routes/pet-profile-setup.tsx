import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PHOTOS_MAX } from "~/features/media";
import { readImageUpload } from "~/features/media/index.server";
import { PetForm, petSchema, type PetInput } from "~/features/pets";
import { createPet } from "~/features/pets/index.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["profile"], uploads: true, title: "profile:pet.createTitle" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const upload = await readImageUpload(request, { field: "photos", maxFiles: PHOTOS_MAX });
  if ("error" in upload) {
    return data({ status: "error" as const, error: { photos: [`profile:${upload.error}`] } }, { status: 400 });
  }
  const submission = parseWithZod(upload.formData, { schema: petSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await createPet(user.id, submission.value as PetInput, upload.images);
  if (result.status === "refused") {
    const problem = result.problem.startsWith("validation.") ? result.problem : `profile:${result.problem}`;
    return data(submission.reply({ fieldErrors: { photos: [problem] } }), { status: 400 });
  }
  return redirectWithToast("/profile", { type: "success", title: "profile:pet.created", values: { name: submission.value.name ?? "" } });
}

export default function PetProfileSetup() {
  const { t } = useTranslation("profile");
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <PageHeader title={t("pet.createTitle")} backTo="/profile" />
      <PetForm lastResult={lastResult} withPhotos submitLabel={t("pet.create")} />
    </>
  );
}
