import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { PET_TYPES } from "~/features/pets";
import { ChoiceChips } from "~/platform/ui/choices";
import { TextField } from "~/platform/ui/field";
import { EXPERIENCE, HOURLY_RATE_MAX, HOURLY_RATE_MIN, YEARS_EXPERIENCE_MAX } from "./options";

type NumberMeta = FieldMetadata<string | number | undefined>;
type ChoicesMeta = FieldMetadata<string[] | string | undefined>;

/** The fields of sitterDetailsSchema, for /sitter-profile-setup and /profile/edit. */
export function SitterDetailsFields({
  fields,
}: {
  fields: { hourlyRate: NumberMeta; yearsExperience: NumberMeta; caresFor: ChoicesMeta; experience: ChoicesMeta };
}) {
  const { t } = useTranslation("profile");
  return (
    <>
      <TextField
        meta={fields.hourlyRate}
        type="number"
        inputMode="decimal"
        label={t("sitterSetup.hourlyRate")}
        hint={t("sitterSetup.hourlyRateHint", { min: HOURLY_RATE_MIN, max: HOURLY_RATE_MAX })}
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
    </>
  );
}
