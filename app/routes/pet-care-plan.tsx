import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CarePlanForm, carePlanSchema } from "~/features/care";
import { ownCarePlan, saveCarePlan } from "~/features/care/index.server";
import { findOwnPet } from "~/features/pets/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = {
  i18n: ["care", "profile"],
  title: titleFrom<typeof loader>(({ pet }, t) => t("care:plan.title", { pet: pet.name })),
};

// Only the pet's owner writes or reads the plan here; anyone else gets a 404.
async function ownPlan(request: Request, petId: string | undefined) {
  const user = await requireUser(request);
  const pet = await findOwnPet(user.id, petId ?? "");
  const plan = pet ? await ownCarePlan(user.id, pet.id) : null;
  if (!pet || !plan) throw new Response("Not found", { status: 404 });
  return { user, pet, plan };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { pet, plan } = await ownPlan(request, params.petId);
  return { pet: { id: pet.id, name: pet.name }, plan, constraint: constraintOf(carePlanSchema) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, pet } = await ownPlan(request, params.petId);
  const submission = parseWithZod(await formDataOf(request), { schema: carePlanSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  await saveCarePlan(user.id, pet.id, submission.value);
  return redirectWithToast("/profile", { type: "success", title: "care:plan.saved", values: { name: pet.name } });
}

export default function PetCarePlan() {
  const { t } = useTranslation("care");
  const { pet, plan, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <PageHeader title={t("plan.title", { pet: pet.name })} backTo="/profile" />
      <CarePlanForm plan={plan} petName={pet.name} lastResult={lastResult} constraint={constraint} />
    </>
  );
}
