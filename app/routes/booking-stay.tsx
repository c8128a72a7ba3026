import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { prefilledPets, requestStay, stayPage, stayRefusalReply } from "~/features/bookings/index.server";
import { BookAgainNote, PetChoice, loadBookingSchemas, stayRequestSchema } from "~/features/bookings";
import { useSchemaValidation } from "~/platform/forms";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { formatMoney } from "~/platform/money";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { FieldErrors, FormError } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["bookings", "profile"],
  title: titleFrom<typeof loader>(({ sitter }, t) => t("bookings:stay.title", { name: sitter.name })),
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const page = await stayPage(user, url.searchParams.get("sitterId") ?? "", {
    service: url.searchParams.get("service"),
    firstDay: url.searchParams.get("firstDay"),
    lastDay: url.searchParams.get("lastDay"),
    again: url.searchParams.get("again"),
  });
  if (!page) throw new Response("Not found", { status: 404 });
  return { ...page, petIds: prefilledPets(url, page), constraints: constraintOf(stayRequestSchema) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await formDataOf(request), { schema: stayRequestSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await requestStay(user, submission.value);
  if (result.status === "refused") return data(submission.reply(stayRefusalReply(result.reason)), { status: 400 });
  // Stripe's card field needs the payment page's own Content-Security-Policy: load it as a new document.
  return result.booking.payment_provider === "stripe"
    ? redirectDocument(`/payment/${result.booking.id}`)
    : redirect(`/payment/${result.booking.id}`);
}

const UNIT_OF = { boarding: "night", house_sitting: "night", day_care: "day" } as const;

export default function StayRequest() {
  const { t, i18n } = useTranslation(["bookings", "profile"]);
  const { requestId, sitter, services, service, pets, today, firstDay, lastDay, times, constraints, again, petIds } =
    useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "stay-request",
    ...useSchemaValidation("stay-request", () => loadBookingSchemas().then((schemas) => schemas.stayRequestSchema)),
    lastResult,
    defaultValue: {
      service,
      firstDay,
      lastDay,
      dropOff: again?.dropOff ?? "10:00",
      pickUp: again?.pickUp ?? "18:00",
      petIds,
    },
    constraint: constraints,
  });
  const { key: notesKey, ...notesProps } = getTextareaProps(fields.notes);
  const chosen = [fields.petIds.initialValue ?? []].flat().filter((id): id is string => typeof id === "string");
  const timeSelect = (field: typeof fields.dropOff, label: string) => {
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
  };
  const dateInput = (field: typeof fields.firstDay, label: string) => {
    const { key, ...props } = getInputProps(field, { type: "date" });
    return (
      <div className="space-y-1.5">
        <label htmlFor={field.id} className="block text-sm font-semibold text-stone-800">
          {label}
        </label>
        <input key={key} {...props} min={today} className="input" />
        <FieldErrors id={field.errorId} errors={field.errors} />
      </div>
    );
  };

  return (
    <>
      <PageHeader title={t("stay.title", { name: sitter.name })} backTo={`/users/${sitter.id}`} />
      <div className="space-y-6 px-4 pb-8">
        {again ? <BookAgainNote /> : null}
        {pets.length === 0 ? (
          <section className="card space-y-3 text-center">
            <p>{t("request.noPets")}</p>
            <Link to="/pet-profile-setup" className="btn btn-primary">
              {t("request.addPet")}
            </Link>
          </section>
        ) : (
          <Form method="post" {...getFormProps(form)} noValidate className="space-y-6">
            <FormError form={form} />
            <input type="hidden" name="id" value={requestId} />
            <input type="hidden" name="sitterId" value={sitter.id} />
            <input type="hidden" name="cancellationPolicy" value={sitter.policy} />

            <fieldset
              className="space-y-2"
              aria-describedby={fields.service.errors?.length ? fields.service.errorId : undefined}
            >
              <legend className="text-sm font-semibold text-stone-800">{t("stay.service")}</legend>
              {services.map((offer) => (
                <label
                  key={offer.service}
                  className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-stone-300 bg-white p-3 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-brand-700"
                >
                  <input
                    type="radio"
                    name="service"
                    value={offer.service}
                    defaultChecked={(fields.service.initialValue ?? service) === offer.service}
                    className="size-4 accent-brand-700"
                  />
                  <span className="grow font-medium">{t(`profile:services.${offer.service}`)}</span>
                  <span className="text-stone-700">
                    {formatMoney(offer.priceCents, i18n.language)}{" "}
                    {t(`profile:services.unit.${UNIT_OF[offer.service]}`)}
                  </span>
                </label>
              ))}
              <FieldErrors id={fields.service.errorId} errors={fields.service.errors} />
            </fieldset>

            <PetChoice
              pets={pets}
              chosen={chosen}
              maxPets={sitter.maxPets}
              extraPetCents={sitter.extraPetCents}
              field={fields.petIds}
              limitKey="stay.petsLimit"
            />

            <div className="grid grid-cols-2 gap-3">
              {dateInput(fields.firstDay, t("stay.firstDay"))}
              {timeSelect(fields.dropOff, t("stay.dropOff"))}
              {dateInput(fields.lastDay, t("stay.lastDay"))}
              {timeSelect(fields.pickUp, t("stay.pickUp"))}
            </div>
            <p className="text-sm text-stone-600">
              {t("request.timeZone", { zone: sitter.timeZone.replaceAll("_", " ") })}
            </p>

            <div className="space-y-1.5">
              <label htmlFor={fields.notes.id} className="block text-sm font-semibold text-stone-800">
                {t("request.notes")}
              </label>
              <textarea key={notesKey} {...notesProps} rows={3} maxLength={500} className="input" />
              <FieldErrors id={fields.notes.errorId} errors={fields.notes.errors} />
            </div>

            <section className="card space-y-1 text-sm text-stone-800" aria-labelledby="stay-policy">
              <h2 id="stay-policy" className="font-semibold">
                {t("policy.title", { name: t(`policy.names.${sitter.policy}`) })}
              </h2>
              <p>{t(`policy.terms.${sitter.policy}`)}</p>
            </section>

            <SubmitButton className="w-full">{t("request.send")}</SubmitButton>
            <p className="text-center text-sm text-stone-700">{t("stay.priceNext")}</p>
          </Form>
        )}
      </div>
    </>
  );
}
