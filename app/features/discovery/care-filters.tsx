import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { FieldErrors, TextField } from "~/platform/ui/field";
import { PETS, SERVICE_CHOICES } from "./filters";

type Field = FieldMetadata<string | number | undefined>;

/**
 * An owner's filters for the care they need: a service, the dates (only sitters free on all of them)
 * and how many pets (only sitters who take that many at once). Plain fields: they work without JavaScript.
 */
export function CareFilterFields({
  service,
  firstDay,
  lastDay,
  pets,
  today,
}: {
  service: Field;
  firstDay: Field;
  lastDay: Field;
  pets: Field;
  /** The earliest first day the server takes, for the date pickers. */
  today: string;
}) {
  const { t } = useTranslation("discovery");
  const { key: serviceKey, ...serviceProps } = getSelectProps(service);
  const { key: petsKey, ...petsProps } = getSelectProps(pets);
  const { key: firstKey, ...firstProps } = getInputProps(firstDay, { type: "date" });
  return (
    <>
      <div className="space-y-1.5">
        <label htmlFor={service.id} className="block text-sm font-semibold text-stone-800">
          {t("filters.service")}
        </label>
        <select key={serviceKey} {...serviceProps} className="input">
          {SERVICE_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {choice === "any" ? t("filters.anyService") : t(`profile:services.${choice}`)}
            </option>
          ))}
        </select>
        <FieldErrors id={service.errorId} errors={service.errors} />
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-stone-800">{t("filters.dates")}</legend>
        <p className="text-sm text-stone-600">{t("filters.datesHint")}</p>
        <div className="space-y-1.5">
          <label htmlFor={firstDay.id} className="block text-sm font-semibold text-stone-800">
            {t("filters.firstDay")}
          </label>
          <input key={firstKey} {...firstProps} min={today} className="input" />
          <FieldErrors id={firstDay.errorId} errors={firstDay.errors} />
        </div>
        <TextField meta={lastDay} type="date" label={t("filters.lastDay")} />
      </fieldset>
      <div className="space-y-1.5">
        <label htmlFor={pets.id} className="block text-sm font-semibold text-stone-800">
          {t("filters.pets")}
        </label>
        <select key={petsKey} {...petsProps} className="input">
          {Array.from({ length: PETS.max - PETS.min + 1 }, (_, i) => PETS.min + i).map((count) => (
            <option key={count} value={count}>
              {t("filters.petCount", { count })}
            </option>
          ))}
        </select>
        <FieldErrors id={pets.errorId} errors={pets.errors} />
      </div>
    </>
  );
}
