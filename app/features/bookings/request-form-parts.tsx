import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/platform/money";
import { FieldErrors } from "~/platform/ui/field";
import { MAX_HOURS, priceOf } from "./machine";

/** Every duration's price is on the page and CSS shows the checked one, so it works without JavaScript. */
const durationPriceRules = Array.from(
  { length: MAX_HOURS },
  (_, index) =>
    `#booking-request:has(input[name="hours"][value="${index + 1}"]:checked) [data-price-for="${index + 1}"]{display:grid}`,
).join("");

interface Field {
  id: string;
  errorId: string;
  errors?: string[];
}

export function FreeDays({
  sitterId,
  day,
  quickDays,
  query = {},
}: {
  sitterId: string;
  day: string;
  quickDays: { day: string; label: string }[];
  /** More of the page's address kept on each day's link (the service chosen). */
  query?: Record<string, string>;
}) {
  const { t } = useTranslation("bookings");
  return (
    <nav aria-labelledby="free-days-title" className="space-y-1.5">
      <h2 id="free-days-title" className="text-sm font-semibold text-stone-800">
        {t("request.freeDays")}
      </h2>
      {quickDays.length === 0 ? (
        <p className="text-sm text-stone-700">{t("request.noFreeDays")}</p>
      ) : (
        <ul className="flex gap-2 overflow-x-auto pb-1">
          {quickDays.map((quick) => (
            <li key={quick.day} className="shrink-0">
              <Link
                to={`?${new URLSearchParams({ ...query, walkerId: sitterId, date: quick.day })}`}
                replace
                preventScrollReset
                aria-current={quick.day === day ? "date" : undefined}
                className="flex min-h-11 items-center rounded-xl border border-stone-300 bg-white px-3 text-sm font-medium whitespace-nowrap aria-[current=date]:border-brand-700 aria-[current=date]:bg-brand-700 aria-[current=date]:text-white"
              >
                {quick.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

/** The price of the chosen duration (its form must have the id "booking-request"). */
export function PriceBreakdown({
  rateCents,
  pets = 1,
  extraPetCents = 0,
}: {
  rateCents: number;
  pets?: number;
  extraPetCents?: number;
}) {
  const { t, i18n } = useTranslation("bookings");
  return (
    <section aria-labelledby="price-title" className="card space-y-1">
      <h2 id="price-title" className="font-semibold">
        {t("request.price")}
      </h2>
      {/* A constant of this module: React would escape its quotes as text, and CSS reads no entities. */}
      <style dangerouslySetInnerHTML={{ __html: durationPriceRules }} />
      <div aria-live="polite">
        {Array.from({ length: MAX_HOURS }, (_, index) => index + 1).map((option) => {
          const price = priceOf(rateCents, option, pets, extraPetCents);
          return (
            <dl key={option} data-price-for={option} className="hidden grid-cols-2 gap-y-1 text-stone-800">
              <dt>{t("request.hourlyRate")}</dt>
              <dd className="text-right">{formatMoney(rateCents, i18n.language)}</dd>
              <dt>{t("request.durationRow")}</dt>
              <dd className="text-right">{t("request.hoursLong", { count: option })}</dd>
              {pets > 1 ? (
                <>
                  <dt>{t("request.extraPetsRow", { count: pets - 1 })}</dt>
                  <dd className="text-right">{formatMoney((pets - 1) * option * extraPetCents, i18n.language)}</dd>
                </>
              ) : null}
              <dt>{t("request.subtotal")}</dt>
              <dd className="text-right">{formatMoney(price.subtotal, i18n.language)}</dd>
              <dt>{t("request.fee")}</dt>
              <dd className="text-right">{formatMoney(price.fee, i18n.language)}</dd>
              <dt className="font-bold">{t("request.total")}</dt>
              <dd className="text-right font-bold">{formatMoney(price.total, i18n.language)}</dd>
            </dl>
          );
        })}
      </div>
    </section>
  );
}

export function PetChoice({
  pets,
  chosen,
  maxPets,
  extraPetCents,
  field,
  limitKey = "request.petsLimit",
}: {
  pets: { id: string; name: string; photo: string | null }[];
  chosen: string[];
  maxPets: number;
  extraPetCents: number;
  field: Field;
  /** The sentence naming the sitter's limit and extra-pet price per unit (an hour, or a night or day). */
  limitKey?: "request.petsLimit" | "stay.petsLimit" | "walk.petsLimit";
}) {
  const { t, i18n } = useTranslation("bookings");
  return (
    <fieldset className="space-y-2" aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend className="text-sm font-semibold text-stone-800">{t("request.pets")}</legend>
      <p className="text-sm text-stone-700">
        {maxPets > 1
          ? t(limitKey, { count: maxPets, price: formatMoney(extraPetCents, i18n.language) })
          : t("request.onePetOnly")}
      </p>
      <div className="grid grid-cols-2 gap-2">
        {pets.map((pet) => (
          <label
            key={pet.id}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border border-stone-300 bg-white p-2 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-brand-700"
          >
            <input
              type="checkbox"
              name="petIds"
              value={pet.id}
              defaultChecked={pets.length === 1 || chosen.includes(pet.id)}
              className="size-4 accent-brand-700"
            />
            {pet.photo ? <img src={pet.photo} alt="" className="size-10 rounded-lg object-cover" /> : null}
            <span className="truncate font-medium">{pet.name}</span>
          </label>
        ))}
      </div>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

export function StartTimeChoice({
  times,
  field,
  preset,
}: {
  times: { time: string; maxHours: number }[];
  field: Field;
  /** A time chosen beforehand (booking again). */
  preset?: string | null;
}) {
  const { t } = useTranslation("bookings");
  return (
    <div className="space-y-1.5">
      <label htmlFor={field.id} className="block text-sm font-semibold text-stone-800">
        {t("request.startTime")}
      </label>
      {times.length === 0 ? (
        <p id={field.id} className="rounded-xl bg-stone-100 p-3 text-stone-700">
          {t("request.noTimes")}
        </p>
      ) : (
        <select
          id={field.id}
          name="startTime"
          defaultValue={preset ?? ""}
          aria-invalid={field.errors?.length ? true : undefined}
          aria-describedby={field.errors?.length ? field.errorId : undefined}
          className="input"
        >
          <option value="" disabled>
            {t("request.chooseTime")}
          </option>
          {times.map((slot) => (
            <option key={slot.time} value={slot.time}>
              {t("request.timeOption", { time: slot.time, hours: slot.maxHours })}
            </option>
          ))}
        </select>
      )}
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

export function DurationChoice({ chosen, field }: { chosen: number; field: Field }) {
  const { t } = useTranslation("bookings");
  return (
    <fieldset className="space-y-2" aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend className="text-sm font-semibold text-stone-800">{t("request.duration")}</legend>
      <div className="grid grid-cols-6 gap-1.5">
        {Array.from({ length: MAX_HOURS }, (_, index) => index + 1).map((option) => (
          <label
            key={option}
            className="flex min-h-11 cursor-pointer items-center justify-center rounded-xl border border-stone-300 bg-white font-semibold has-checked:border-brand-700 has-checked:bg-brand-700 has-checked:text-white has-focus-visible:outline-3 has-focus-visible:outline-brand-700"
          >
            <input type="radio" name="hours" value={option} defaultChecked={option === chosen} className="sr-only" />
            {t("request.hoursShort", { hours: option })}
          </label>
        ))}
      </div>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

/** Said above a request prefilled from an earlier booking. */
export function BookAgainNote() {
  const { t } = useTranslation("bookings");
  return <p className="rounded-xl bg-brand-50 p-3 text-sm text-brand-900 ring-1 ring-brand-200">{t("again.note")}</p>;
}

/** How each service's price counts. */
const UNIT_OF = {
  walk: "walk",
  drop_in: "visit",
  boarding: "night",
  house_sitting: "night",
  day_care: "day",
} as const;

/**
 * The sitter's offers of one request page (walks and drop-in visits with their length, or stays), each with its
 * price per walk, visit, night or day; the chosen one checked.
 */
export function ServiceChoice({
  offers,
  chosen,
  field,
}: {
  offers: { service: keyof typeof UNIT_OF; priceCents: number; minutes?: number }[];
  chosen: string;
  field?: Field;
}) {
  const { t, i18n } = useTranslation(["bookings", "profile"]);
  const invalid = Boolean(field?.errors?.length);
  return (
    <fieldset className="space-y-2" aria-describedby={invalid ? field?.errorId : undefined}>
      <legend className="text-sm font-semibold text-stone-800">{t("stay.service")}</legend>
      {offers.map((offer) => (
        <label
          key={offer.service}
          className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-stone-300 bg-white p-3 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-brand-700"
        >
          <input
            type="radio"
            name="service"
            value={offer.service}
            defaultChecked={offer.service === chosen}
            className="size-4 accent-brand-700"
          />
          <span className="grow font-medium">
            {t(`profile:services.${offer.service}`)}
            {offer.minutes ? ` · ${t("profile:services.minutes", { minutes: offer.minutes })}` : null}
          </span>
          <span className="text-stone-700">
            {formatMoney(offer.priceCents, i18n.language)} {t(`profile:services.unit.${UNIT_OF[offer.service]}`)}
          </span>
        </label>
      ))}
      {field ? <FieldErrors id={field.errorId} errors={field.errors} /> : null}
    </fieldset>
  );
}

/** A labelled choice of times (a stay's drop-off or pick-up). */
export function TimeField({ field, label, times }: { field: FieldMetadata<string>; label: string; times: string[] }) {
  const { key, ...props } = getSelectProps(field);
  return (
    <div className="space-y-1.5">
      <label htmlFor={field.id} className="block text-sm font-semibold text-stone-800">
        {label}
      </label>
      <select key={key} {...props} className="input">
        {times.map((time) => (
          <option key={time} value={time}>
            {time}
          </option>
        ))}
      </select>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A labelled date from `min` on (a stay's first or last day). */
export function DayField({ field, label, min }: { field: FieldMetadata<string>; label: string; min: string }) {
  const { key, ...props } = getInputProps(field, { type: "date" });
  return (
    <div className="space-y-1.5">
      <label htmlFor={field.id} className="block text-sm font-semibold text-stone-800">
        {label}
      </label>
      <input key={key} {...props} min={min} className="input" />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
}
