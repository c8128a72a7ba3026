import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { prefilledPets, requestStay, stayPage, stayRefusalReply } from "~/features/bookings/index.server";
import {
  BookAgainNote,
  DayField,
  PetChoice,
  ServiceChoice,
  TimeField,
  loadBookingSchemas,
  stayRequestSchema,
} from "~/features/bookings";
import { RepeatChoice } from "~/features/series";
import {
  requestSeries,
  seriesCardLabel,
  seriesRefusalReply,
  weekdayChoices,
  weekdayOf,
} from "~/features/series/index.server";
import { languageOf } from "~/platform/i18n.server";
import { redirectWithToast } from "~/platform/toast.server";
import { useSchemaValidation } from "~/platform/forms";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { FieldErrors, FormError } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["bookings", "profile", "series"],
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
  const weekly = page.services.some((offer) => offer.service === "day_care") && page.pets.length > 0;
  return {
    ...page,
    petIds: prefilledPets(url, page),
    constraints: constraintOf(stayRequestSchema),
    weekly: weekly ? { names: weekdayChoices(await languageOf(request)), card: await seriesCardLabel(user.id) } : null,
    firstWeekday: weekdayOf(page.firstDay),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await formDataOf(request), { schema: stayRequestSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  if (submission.value.repeat === "weekly") {
    // Weekly day care: each date the first day's drop-off to pick-up.
    const { id, sitterId, service, petIds, firstDay, dropOff, pickUp, notes, weekdays = [], until } = submission.value;
    const asked = { id, sitterId, petIds, day: firstDay, startTime: dropOff, endTime: pickUp, notes, weekdays };
    // Only day care repeats among stays.
    const series =
      service === "day_care"
        ? await requestSeries(user, { ...asked, service, lastDay: until ?? null })
        : ({ ok: false, refusal: "serviceNotOffered" } as const);
    if (!series.ok) return data(submission.reply(seriesRefusalReply(series.refusal, "stay")), { status: 400 });
    return redirectWithToast(`/series/${series.series.id}`, { type: "success", title: "series:toast.requested" });
  }
  const result = await requestStay(user, submission.value);
  if (result.status === "refused") return data(submission.reply(stayRefusalReply(result.reason)), { status: 400 });
  // Stripe's card field needs the payment page's own Content-Security-Policy: load it as a new document.
  return result.booking.payment_provider === "stripe"
    ? redirectDocument(`/payment/${result.booking.id}`)
    : redirect(`/payment/${result.booking.id}`);
}

export default function StayRequest() {
  const { t } = useTranslation(["bookings", "profile"]);
  const { requestId, sitter, services, service, pets, today, firstDay, lastDay, times, constraints, again, petIds } =
    useLoaderData<typeof loader>();
  const { weekly, firstWeekday } = useLoaderData<typeof loader>();
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
          <Form method="post" {...getFormProps(form)} noValidate className="group/stay space-y-6">
            <FormError form={form} />
            <input type="hidden" name="id" value={requestId} />
            <input type="hidden" name="sitterId" value={sitter.id} />
            <input type="hidden" name="cancellationPolicy" value={sitter.policy} />

            <ServiceChoice
              offers={services}
              chosen={String(fields.service.initialValue ?? service)}
              field={fields.service}
            />

            <PetChoice
              pets={pets}
              chosen={chosen}
              maxPets={sitter.maxPets}
              extraPetCents={sitter.extraPetCents}
              field={fields.petIds}
              limitKey="stay.petsLimit"
            />

            <div className="grid grid-cols-2 gap-3">
              <DayField field={fields.firstDay} label={t("stay.firstDay")} min={today} />
              <TimeField field={fields.dropOff} label={t("stay.dropOff")} times={times} />
              <DayField field={fields.lastDay} label={t("stay.lastDay")} min={today} />
              <TimeField field={fields.pickUp} label={t("stay.pickUp")} times={times} />
            </div>
            <p className="text-sm text-stone-600">
              {t("request.timeZone", { zone: sitter.timeZone.replaceAll("_", " ") })}
            </p>
            {/* Shown while day care is chosen, without JavaScript too ("\_" is an underscore to Tailwind). */}
            {weekly ? (
              <div className="hidden group-has-[input[value=day\_care]:checked]/stay:block">
                <RepeatChoice
                  fields={{ repeat: fields.repeat, weekdays: fields.weekdays, until: fields.until }}
                  names={weekly.names}
                  firstWeekday={firstWeekday}
                  firstDay={firstDay}
                  card={weekly.card ? { label: weekly.card } : null}
                  note={t("series:request.dayCare")}
                />
              </div>
            ) : null}

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
