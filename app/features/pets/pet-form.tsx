import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "remix-utils/use-hydrated";
import { PHOTOS_MAX, PhotoPicker } from "~/features/media";
import { BREEDS, ENERGY_LEVELS, PET_TYPES, TEMPERAMENTS } from "./options";
import { ChoiceChips } from "~/platform/ui/choices";
import { FieldErrors, FormError, TextAreaField, TextField } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";
import type { petSchema } from "./schema";

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

export interface PendingPhoto {
  id: string;
  cardUrl: string;
}

// `pending`: photos kept from a refused post (no JavaScript); each remove button posts the form back.
export function PetForm({
  lastResult,
  defaultValue,
  withPhotos,
  pending = [],
  submitLabel,
  constraint,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue?: PetFormValues;
  withPhotos: boolean;
  pending?: PendingPhoto[];
  submitLabel: string;
  /** Of `petSchema`, or of `petCreateSchema` (with photos). */
  constraint: ConstraintOf<typeof petSchema>;
}) {
  const { t } = useTranslation("profile");
  const [form, fields] = useForm({
    id: "pet",
    ...useSchemaValidation("pet", () =>
      import("./schema").then((schemas) => (withPhotos ? schemas.petCreateSchema : schemas.petSchema)),
    ),
    lastResult,
    defaultValue: defaultValue ?? { petType: "dog", energyLevel: "medium" },
    constraint,
  });
  const hydrated = useHydrated();
  const petType = fields.petType.value === "cat" ? "cat" : "dog";
  const photos = (fields as Partial<Record<"photos", { errors?: string[]; errorId: string }>>).photos;
  const { key: selectKey, ...selectProps } = getSelectProps(fields.breed);
  return (
    <Form
      method="post"
      encType={withPhotos ? "multipart/form-data" : undefined}
      {...getFormProps(form)}
      noValidate
      className="space-y-5 px-4"
    >
      <FormError form={form} />
      <ChoiceChips
        meta={fields.petType}
        legend={t("pet.type")}
        options={PET_TYPES}
        type="radio"
        labelOf={(type) => t(`pet.types.${type}`)}
      />
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
      <ChoiceChips
        meta={fields.temperament}
        legend={t("pet.temperament")}
        options={TEMPERAMENTS}
        type="checkbox"
        labelOf={(id) => t(`temperaments.${id}`)}
      />
      <ChoiceChips
        meta={fields.energyLevel}
        legend={t("pet.energyLevel")}
        options={ENERGY_LEVELS}
        type="radio"
        labelOf={(level) => t(`energy.${level}`)}
      />
      <TextAreaField meta={fields.notes} label={t("pet.notes")} rows={3} />
      <TextAreaField meta={fields.specialNeeds} label={t("pet.specialNeeds")} rows={2} />
      {withPhotos && pending.length > 0 ? (
        <section aria-labelledby="pending-photos" className="space-y-2">
          <h2 id="pending-photos" className="text-sm font-semibold text-stone-800">
            {t("photos.pending")}
          </h2>
          <p className="text-sm text-stone-700">{t("photos.pendingKept")}</p>
          <ul className="grid grid-cols-3 gap-2">
            {pending.map((photo, index) => (
              <li key={photo.id} className="space-y-1">
                <input type="hidden" name="pending" value={photo.id} />
                <img
                  src={photo.cardUrl}
                  alt={t("photos.pendingAlt", { number: index + 1 })}
                  className="aspect-square w-full rounded-lg object-cover"
                />
                <button
                  type="submit"
                  name="removePending"
                  value={photo.id}
                  formNoValidate
                  className="btn btn-secondary w-full text-sm"
                >
                  <span aria-hidden>✕</span>
                  <span className="sr-only">{t("photos.removePending", { number: index + 1 })}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {withPhotos ? (
        <PhotoPicker
          label={t("pet.photos")}
          remaining={PHOTOS_MAX - pending.length}
          errors={photos?.errors}
          errorId={photos?.errorId}
        />
      ) : null}
      <SubmitButton className="w-full">{submitLabel}</SubmitButton>
    </Form>
  );
}
