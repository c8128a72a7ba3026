import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormError, TextAreaField, TextField } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";
import { CARE_FIELD_LIMITS } from "./limits";
import type { carePlanSchema } from "./schema";
import type { CarePlanView } from "./plans.server";

export function CarePlanForm({
  plan,
  lastResult,
  petName,
  constraint,
}: {
  plan: CarePlanView;
  lastResult: SubmissionResult<string[]> | undefined;
  petName: string;
  constraint: ConstraintOf<typeof carePlanSchema>;
}) {
  const { t } = useTranslation("care");
  const [form, fields] = useForm({
    id: "care-plan",
    ...useSchemaValidation("care-plan", () => import("./schema").then((schemas) => schemas.carePlanSchema)),
    lastResult,
    defaultValue: plan,
    constraint,
  });
  return (
    <section aria-label={t("plan.title", { pet: petName })} className="space-y-3 px-4 pb-6">
      <p className="text-sm text-stone-700">{t("plan.privacy")}</p>
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-5">
        <FormError form={form} />
        <TextAreaField meta={fields.feeding} label={t("plan.feeding")} hint={t("plan.feedingHint")} rows={3} />
        <TextAreaField meta={fields.medication} label={t("plan.medication")} hint={t("plan.medicationHint")} rows={3} />
        <TextAreaField meta={fields.walks} label={t("plan.walks")} hint={t("plan.walksHint")} rows={2} />
        <TextAreaField
          meta={fields.houseNotes}
          label={t("plan.houseNotes")}
          hint={t("plan.houseNotesHint")}
          rows={3}
          maxLength={CARE_FIELD_LIMITS.houseNotes}
        />
        <fieldset className="space-y-3">
          <legend className="text-base font-semibold">{t("plan.vet")}</legend>
          <TextField meta={fields.vetName} label={t("plan.vetName")} autoComplete="off" />
          <TextField meta={fields.vetPhone} label={t("plan.vetPhone")} type="tel" autoComplete="off" />
          <TextField meta={fields.vetAddress} label={t("plan.vetAddress")} autoComplete="off" />
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-base font-semibold">{t("plan.emergency")}</legend>
          <TextField meta={fields.emergencyName} label={t("plan.emergencyName")} autoComplete="off" />
          <TextField meta={fields.emergencyPhone} label={t("plan.emergencyPhone")} type="tel" autoComplete="off" />
        </fieldset>
        <SubmitButton className="w-full">{t("plan.save")}</SubmitButton>
      </Form>
    </section>
  );
}
