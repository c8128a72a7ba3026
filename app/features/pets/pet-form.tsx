import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "remix-utils/use-hydrated";
import { PhotoPicker } from "~/features/media";
import { BREEDS, ENERGY_LEVELS, PET_TYPES, TEMPERAMENTS } from "./options";
import { ChoiceChips } from "~/platform/ui/choices";
import { FieldErrors, FormError, TextAreaField, TextField } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";
import { petSchema } from "./schema";

export type PetFormValues = {
  petType: string;
  name: string;
  age: string;
  breed: string;
  notes: string;
  temperament: string[];
  specialNeeds: string;
  energyLevel: string;
};

export function PetForm({
  lastResult,
  defaultValue,
  withPhotos,
  submitLabel,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue?: PetFormValues;
  withPhotos: boolean;
  submitLabel: string;
}) {
  const { t } = useTranslation("profile");
  const [form, fields] = useForm({
    id: "pet",
    lastResult,
    defaultValue: defaultValue ?? { petType: "dog", energyLevel: "medium" },
    constraint: getZodConstraint(petSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: petSchema }),
    shouldRevalidate: "onInput",
  });
  const hydrated = useHydrated();
  const petType = fields.petType.value === "cat" ? "cat" : "dog";
  const photoErrors = (lastResult?.error?.photos ?? undefined) as string[] | undefined;
  const { key: selectKey, ...selectProps } = getSelectProps(fields.breed);
  return (
    <Form method="post" encType={withPhotos ? "multipart/form-data" : undefined} {...getFormProps(form)} noValidate className="space-y-5 px-4">
      <FormError form={form} />
      <ChoiceChips meta={fields.petType} legend={t("pet.type")} options={PET_TYPES} type="radio" labelOf={(type) => t(`pet.types.${type}`)} />
      <TextField meta={fields.name} label={t(`pet.name.${petType}`)} autoComplete="off" />
      <TextField meta={fields.age} label={t("pet.age")} hint={t("pet.ageHint")} />
      <div className="space-y-1.5">
        <label htmlFor={fields.breed.id} className="block text-sm font-semibold text-stone-800">
          {t("pet.breed")}
        </label>
        <select {...selectProps} key={selectKey} className="input">
          <option value="">{t("pet.breedNone")}</option>
          {PET_TYPES.filter((type) => !hydrated || type === petType).map((type) => (
            <optgroup key={type} label={t(`pet.typesPlural.${type}`)}>
              {BREEDS[type].map((breed) => (
                <option key={`${type}-${breed}`} value={breed}>
                  {t(`breeds.${breed}`)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        <FieldErrors id={fields.breed.errorId} errors={fields.breed.errors} />
      </div>
      <ChoiceChips meta={fields.temperament} legend={t("pet.temperament")} options={TEMPERAMENTS} type="checkbox" labelOf={(id) => t(`temperaments.${id}`)} />
      <ChoiceChips meta={fields.energyLevel} legend={t("pet.energyLevel")} options={ENERGY_LEVELS} type="radio" labelOf={(level) => t(`energy.${level}`)} />
      <TextAreaField meta={fields.notes} label={t("pet.notes")} rows={3} />
      <TextAreaField meta={fields.specialNeeds} label={t("pet.specialNeeds")} rows={2} />
      {withPhotos ? <PhotoPicker label={t("pet.photos")} remaining={6} errors={photoErrors} /> : null}
      <SubmitButton className="w-full">{submitLabel}</SubmitButton>
    </Form>
  );
}
