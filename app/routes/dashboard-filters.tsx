import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { useSchemaValidation } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { filtersOf, resetFilters, saveFilters, firstFilterDay } from "~/features/discovery/index.server";
import {
  CareFilterFields,
  DISTANCE_KM,
  MAX_PRICE_EUROS,
  OWNER_ONLY_SORTS,
  SORTS,
  filtersSchema,
  loadFiltersSchema,
} from "~/features/discovery";
import { isOwner } from "~/features/profiles/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { ChoiceChips } from "~/platform/ui/choices";
import { FieldErrors, FormError, TextField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["discovery", "profile"], title: "discovery:filters.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const filters = filtersOf(user);
  return {
    forOwner: isOwner(user.role),
    constraints: { filtersSchema: constraintOf(filtersSchema) },
    local: user.browse_mode === "local",
    defaults: {
      petType: filters.petType,
      maxDistanceKm: String(filters.maxDistanceKm),
      minRating: String(filters.minRating),
      maxPrice: filters.maxPriceCents === null ? "" : String(filters.maxPriceCents / 100),
      sortBy: filters.sortBy,
      service: filters.service,
      firstDay: filters.firstDay ?? "",
      lastDay: filters.lastDay ?? "",
      pets: String(filters.pets),
    },
    today: firstFilterDay(),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await formDataOf(request);
  if (form.get("intent") === "reset") {
    await resetFilters(user.id);
    return redirectWithToast("/dashboard", { type: "success", title: "discovery:filters.cleared" });
  }
  const submission = parseWithZod(form, { schema: filtersSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const owner = isOwner(user.role);
  const stored = filtersOf(user);
  const { petType, maxDistanceKm, minRating, maxPrice, sortBy, service, firstDay, lastDay, pets } = submission.value;
  // Rating, price, service, dates and pets narrow the sitters' deck: an owner's filters only.
  const care = owner ? { service, firstDay: firstDay ?? null, lastDay: lastDay ?? null, pets } : {};
  await saveFilters(user.id, {
    ...stored,
    ...care,
    petType,
    maxDistanceKm,
    minRating: owner ? (minRating ?? 0) : stored.minRating,
    maxPriceCents: owner ? (maxPrice === undefined ? null : Math.round(maxPrice * 100)) : stored.maxPriceCents,
    sortBy: owner || !OWNER_ONLY_SORTS.includes(sortBy) ? sortBy : stored.sortBy,
  });
  return redirectWithToast("/dashboard", { type: "success", title: "discovery:filters.saved" });
}

export default function Filters() {
  const { t } = useTranslation("discovery");
  const { forOwner, local, defaults, today } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "filters",
    ...useSchemaValidation("filters", () => loadFiltersSchema().then((schemas) => schemas.filtersSchema)),
    lastResult,
    defaultValue: defaults,
    constraint: constraints.filtersSchema,
  });
  const [distance, setDistance] = useState(defaults.maxDistanceKm);
  const { key: distanceKey, ...distanceProps } = getInputProps(fields.maxDistanceKm, { type: "range" });
  const { key: ratingKey, ...ratingProps } = getSelectProps(fields.minRating);
  const sorts = SORTS.filter((sort) => forOwner || !OWNER_ONLY_SORTS.includes(sort));
  return (
    <>
      <PageHeader title={t("filters.title")} backTo="/dashboard" />
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-6 px-4 pb-8">
        <FormError form={form} />
        <ChoiceChips
          meta={fields.petType}
          legend={forOwner ? t("filters.petTypeOwner") : t("filters.petType")}
          options={["all", "dog", "cat"]}
          type="radio"
          labelOf={(option) => t(`filters.petTypes.${option}`)}
        />
        <div className="space-y-1.5">
          <label
            htmlFor={fields.maxDistanceKm.id}
            className="flex justify-between text-sm font-semibold text-stone-800"
          >
            {t("filters.maxDistance")}
            <output htmlFor={fields.maxDistanceKm.id} aria-hidden>
              {t("filters.km", { km: distance })}
            </output>
          </label>
          <input
            key={distanceKey}
            {...distanceProps}
            min={DISTANCE_KM.min}
            max={DISTANCE_KM.max}
            step={DISTANCE_KM.step}
            aria-valuetext={t("filters.km", { km: distance })}
            aria-describedby={`${fields.maxDistanceKm.id}-hint ${distanceProps["aria-describedby"] ?? ""}`.trim()}
            onInput={(event) => setDistance(event.currentTarget.value)}
            className="w-full accent-brand-700"
          />
          <p id={`${fields.maxDistanceKm.id}-hint`} className="text-sm text-stone-600">
            {local ? t("filters.distanceHint") : t("filters.distanceGlobalHint")}
          </p>
          <FieldErrors id={fields.maxDistanceKm.errorId} errors={fields.maxDistanceKm.errors} />
        </div>
        {forOwner ? (
          <>
            <div className="space-y-1.5">
              <label htmlFor={fields.minRating.id} className="block text-sm font-semibold text-stone-800">
                {t("filters.minRating")}
              </label>
              <select key={ratingKey} {...ratingProps} className="input">
                {[0, 1, 2, 3, 4, 5].map((stars) => (
                  <option key={stars} value={stars}>
                    {stars === 0 ? t("filters.anyRating") : t("filters.stars", { count: stars })}
                  </option>
                ))}
              </select>
              <FieldErrors id={fields.minRating.errorId} errors={fields.minRating.errors} />
            </div>
            <TextField
              meta={fields.maxPrice}
              type="number"
              inputMode="decimal"
              label={t("filters.maxPrice")}
              hint={t("filters.maxPriceHint", { max: MAX_PRICE_EUROS })}
            />
            <CareFilterFields
              service={fields.service}
              firstDay={fields.firstDay}
              lastDay={fields.lastDay}
              pets={fields.pets}
              today={today}
            />
          </>
        ) : null}
        <ChoiceChips
          meta={fields.sortBy}
          legend={t("filters.sortBy")}
          options={sorts}
          type="radio"
          labelOf={(option) => t(`filters.sorts.${option}`)}
        />
        <div className="grid grid-cols-2 gap-2">
          <button type="submit" name="intent" value="reset" formNoValidate className="btn btn-secondary">
            {t("filters.reset")}
          </button>
          <SubmitButton name="intent" value="save">
            {t("filters.apply")}
          </SubmitButton>
        </div>
      </Form>
    </>
  );
}
