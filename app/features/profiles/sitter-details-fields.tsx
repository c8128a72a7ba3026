import { getCollectionProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { PET_TYPES } from "~/features/pets";
import { ChoiceChips } from "~/platform/ui/choices";
import { FieldErrors, TextField } from "~/platform/ui/field";
import { CANCELLATION_POLICIES } from "./cancellation-policies";
import { EXPERIENCE, HOURLY_RATE_MAX, HOURLY_RATE_MIN, YEARS_EXPERIENCE_MAX } from "./options";
import {
  EXTRA_PET_PRICE_MAX,
  EXTRA_PET_PRICE_MIN,
  MAX_PETS_MAX,
  MAX_PETS_MIN,
  PRICE_FIELDS,
  SERVICE_IDS,
  SERVICES,
  termsOf,
} from "./services";

type NumberMeta = FieldMetadata<string | number | undefined>;
type ChoicesMeta = FieldMetadata<string[] | string | undefined>;
type ChoiceMeta = FieldMetadata<string | undefined>;

/** The fields of sitterDetailsSchema, for /sitter-profile-setup and /profile/edit. */
export function SitterDetailsFields({
  fields,
}: {
  fields: {
    hourlyRate: NumberMeta;
    yearsExperience: NumberMeta;
    caresFor: ChoicesMeta;
    experience: ChoicesMeta;
    cancellationPolicy: ChoiceMeta;
    services: ChoicesMeta;
    walkPrice: NumberMeta;
    dropInPrice: NumberMeta;
    dayCarePrice: NumberMeta;
    houseSittingPrice: NumberMeta;
    boardingPrice: NumberMeta;
    walkMinutes: ChoiceMeta;
    extraPetPrice: NumberMeta;
    maxPets: NumberMeta;
  };
}) {
  const { t } = useTranslation("profile");
  const walk = termsOf("walk");
  return (
    <>
      <input type="hidden" name="servicesShown" value="1" />
      <ChoiceChips
        meta={fields.services}
        legend={t("services.legend")}
        options={SERVICE_IDS}
        type="checkbox"
        labelOf={(id) => t(`services.${id}`)}
      />
      <TextField
        meta={fields.hourlyRate}
        type="number"
        inputMode="decimal"
        label={t("sitterSetup.hourlyRate")}
        hint={t("sitterSetup.hourlyRateHint", { min: HOURLY_RATE_MIN, max: HOURLY_RATE_MAX })}
      />
      {SERVICES.filter((terms) => terms.id !== "hourly").map((terms) => (
        <TextField
          key={terms.id}
          meta={fields[PRICE_FIELDS[terms.id as keyof typeof PRICE_FIELDS]]}
          type="number"
          inputMode="decimal"
          label={t("services.priceLabel", { service: t(`services.${terms.id}`) })}
          hint={t("services.priceHint", {
            min: terms.minPrice,
            max: terms.maxPrice,
            unit: t(`services.unit.${terms.unit}`),
          })}
        />
      ))}
      <ChoiceChips
        meta={fields.walkMinutes}
        legend={t("services.walkMinutes")}
        options={(walk.durationsMinutes ?? []).map(String)}
        type="radio"
        labelOf={(minutes) => t("services.minutes", { minutes: Number(minutes) })}
      />
      <TextField
        meta={fields.extraPetPrice}
        type="number"
        inputMode="decimal"
        label={t("services.extraPet")}
        hint={t("services.extraPetHint", { min: EXTRA_PET_PRICE_MIN, max: EXTRA_PET_PRICE_MAX })}
      />
      <TextField
        meta={fields.maxPets}
        type="number"
        inputMode="numeric"
        label={t("services.maxPets")}
        hint={t("services.maxPetsHint", { min: MAX_PETS_MIN, max: MAX_PETS_MAX })}
      />
      <TextField
        meta={fields.yearsExperience}
        type="number"
        inputMode="numeric"
        label={t("sitterSetup.yearsExperience")}
        hint={t("sitterSetup.yearsExperienceHint", { max: YEARS_EXPERIENCE_MAX })}
      />
      <ChoiceChips
        meta={fields.caresFor}
        legend={t("sitterSetup.caresFor")}
        options={PET_TYPES}
        type="checkbox"
        labelOf={(type) => t(`pet.typesPlural.${type}`)}
      />
      <ChoiceChips
        meta={fields.experience}
        legend={t("sitterSetup.experience")}
        options={EXPERIENCE}
        type="checkbox"
        labelOf={(id) => t(`experience.${id}`)}
      />
      <CancellationPolicyChoice meta={fields.cancellationPolicy} />
    </>
  );
}

/** One radio per policy, each with what the owner gets back, so the sitter knows what they offer. */
function CancellationPolicyChoice({ meta }: { meta: ChoiceMeta }) {
  const { t } = useTranslation("profile");
  const inputs = getCollectionProps(meta, { type: "radio", options: [...CANCELLATION_POLICIES] });
  return (
    <fieldset aria-describedby={meta.errors?.length ? meta.errorId : undefined} className="space-y-2">
      <legend className="text-sm font-semibold text-stone-800">{t("cancellation.legend")}</legend>
      {inputs.map(({ key, ...input }) => (
        <label
          key={key}
          className="flex cursor-pointer items-start gap-3 rounded-xl border border-stone-300 bg-white p-3 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-brand-700"
        >
          <input
            {...input}
            aria-describedby={`${meta.id}-${input.value}-terms`}
            className="mt-1 size-4 accent-brand-700"
          />
          <span>
            <span className="block font-semibold">{t(`cancellation.${input.value}.name`)}</span>
            <span id={`${meta.id}-${input.value}-terms`} className="block text-sm text-stone-700">
              {t(`cancellation.${input.value}.terms`)}
            </span>
          </span>
        </label>
      ))}
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}
