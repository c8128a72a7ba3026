import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { startTimesByDay, startTimesOn } from "~/features/availability/availability.server";
import { bookableSitter, requestBooking } from "~/features/bookings/bookings.server";
import { MAX_HOURS } from "~/features/bookings/machine";
import { FreeDays, PriceBreakdown } from "~/features/bookings/request-form-parts";
import { requestSchema } from "~/features/bookings/schema";
import { listPets } from "~/features/pets/pets.server";
import { isOwner } from "~/features/profiles/profiles.server";
import { now } from "~/platform/clock.server";
import { dateTimeFormat } from "~/platform/format";
import { formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { wallClockIn } from "~/platform/time";
import { FieldErrors, FormError } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["bookings", "profile"], title: titleFrom<typeof loader>(({ sitter }, t) => t("bookings:request.title", { name: sitter.name })) };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const sitter = await bookableSitter(url.searchParams.get("walkerId") ?? "");
  if (!sitter || sitter.id === user.id) throw new Response("Not found", { status: 404 });
  const today = wallClockIn(sitter.time_zone, now()).day;
  const asked = url.searchParams.get("date") ?? "";
  const [pets, upcoming, language] = await Promise.all([
    isOwner(user.role) ? listPets(user.id) : [],
    startTimesByDay(sitter.id, sitter.time_zone, today, QUICK_CHOICE_DAYS),
    languageOf(request),
  ]);
  const freeDays = [...upcoming.keys()].sort();
  // Without a chosen date the form opens on the sitter's next day with free time.
  const day = /^\d{4}-\d{2}-\d{2}$/.test(asked) && asked >= today ? asked : (freeDays[0] ?? today);
  const times = upcoming.get(day) ?? (day > today ? await startTimesOn(sitter.id, sitter.time_zone, day) : []);
  const dayLabel = dateTimeFormat(language, { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
  return {
    requestId: crypto.randomUUID(),
    sitter: { id: sitter.id, name: sitter.name, rateCents: sitter.hourly_rate_cents, timeZone: sitter.time_zone },
    pets: pets.map((pet) => ({ id: pet.id, name: pet.name, photo: pet.photos[0]?.cardUrl ?? null })),
    today,
    day,
    times,
    quickDays: freeDays.map((free) => ({ day: free, label: dayLabel.format(new Date(`${free}T12:00:00Z`)) })),
  };
}

/** How far ahead the form lists the sitter's days with free time as quick choices. */
const QUICK_CHOICE_DAYS = 14;

const refusalMessages = {
  sitterNotFound: "bookings:errors.sitterNotFound",
  sitterNotPayable: "bookings:errors.sitterNotPayable",
  self: "bookings:errors.self",
  petNotFound: "bookings:errors.petRequired",
  past: "bookings:errors.past",
  outsideAvailability: "bookings:errors.outsideAvailability",
  duplicate: "bookings:errors.stale",
} as const;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await formDataOf(request), { schema: requestSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await requestBooking(user, submission.value);
  if (result.status === "refused") {
    const field = result.reason === "petNotFound" ? "petId" : result.reason === "past" || result.reason === "outsideAvailability" ? "startTime" : "";
    return data(submission.reply(field ? { fieldErrors: { [field]: [refusalMessages[result.reason]] } } : { formErrors: [refusalMessages[result.reason]] }), { status: 400 });
  }
  // Stripe's card field needs the payment page's own Content-Security-Policy: load it as a new document.
  return result.booking.payment_provider === "stripe" ? redirectDocument(`/payment/${result.booking.id}`) : redirect(`/payment/${result.booking.id}`);
}

export default function BookingRequest() {
  const { t } = useTranslation("bookings");
  const { requestId, sitter, pets, today, day, times, quickDays } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const submitDate = useSubmit();
  const dateForm = useRef<HTMLFormElement>(null);
  // A date picked before the page's script ran fired no change event: ask for its times once it has.
  useEffect(() => {
    const picked = dateForm.current?.elements.namedItem("date");
    if (picked instanceof HTMLInputElement && picked.value && picked.value !== day) submitDate(dateForm.current, { replace: true, preventScrollReset: true });
    // Only on the first render: later changes go through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const [form, fields] = useForm({
    id: "booking-request",
    lastResult,
    defaultValue: { id: requestId, sitterId: sitter.id, day, hours: "1", petId: pets.length === 1 ? pets[0]!.id : undefined },
    constraint: getZodConstraint(requestSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: requestSchema }),
    shouldRevalidate: "onInput",
  });
  const chosenHours = Number(fields.hours.initialValue ?? "1");
  const { key: notesKey, ...notesProps } = getTextareaProps(fields.notes);

  return (
    <>
      <PageHeader title={t("request.title", { name: sitter.name })} backTo={`/users/${sitter.id}`} />
      <div className="space-y-6 px-4 pb-8">
        <Form ref={dateForm} method="get" className="space-y-1.5" onChange={(event) => submitDate(event.currentTarget, { replace: true, preventScrollReset: true })}>
          <input type="hidden" name="walkerId" value={sitter.id} />
          <label htmlFor="booking-date" className="block text-sm font-semibold text-stone-800">
            {t("request.date")}
          </label>
          <div className="flex gap-2">
            <input id="booking-date" type="date" name="date" min={today} defaultValue={day} required className="input" />
            <noscript>
              <button type="submit" className="btn btn-secondary">
                {t("request.showTimes")}
              </button>
            </noscript>
          </div>
          <p className="text-sm text-stone-600">{t("request.timeZone", { zone: sitter.timeZone.replaceAll("_", " ") })}</p>
        </Form>

        <FreeDays sitterId={sitter.id} day={day} quickDays={quickDays} />

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
            <input type="hidden" name="day" value={day} />

            <fieldset className="space-y-2" aria-describedby={fields.petId.errors?.length ? fields.petId.errorId : undefined}>
              <legend className="text-sm font-semibold text-stone-800">{t("request.pet")}</legend>
              <div className="grid grid-cols-2 gap-2">
                {pets.map((pet) => (
                  <label key={pet.id} className="flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border border-stone-300 bg-white p-2 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-brand-700">
                    <input type="radio" name="petId" value={pet.id} defaultChecked={pets.length === 1} className="size-4 accent-brand-700" />
                    {pet.photo ? <img src={pet.photo} alt="" className="size-10 rounded-lg object-cover" /> : null}
                    <span className="truncate font-medium">{pet.name}</span>
                  </label>
                ))}
              </div>
              <FieldErrors id={fields.petId.errorId} errors={fields.petId.errors} />
            </fieldset>

            <div className="space-y-1.5">
              <label htmlFor={fields.startTime.id} className="block text-sm font-semibold text-stone-800">
                {t("request.startTime")}
              </label>
              {times.length === 0 ? (
                <p id={fields.startTime.id} className="rounded-xl bg-stone-100 p-3 text-stone-700">
                  {t("request.noTimes")}
                </p>
              ) : (
                <select
                  id={fields.startTime.id}
                  name="startTime"
                  defaultValue=""
                  aria-invalid={fields.startTime.errors?.length ? true : undefined}
                  aria-describedby={fields.startTime.errors?.length ? fields.startTime.errorId : undefined}
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
              <FieldErrors id={fields.startTime.errorId} errors={fields.startTime.errors} />
            </div>

            <fieldset className="space-y-2" aria-describedby={fields.hours.errors?.length ? fields.hours.errorId : undefined}>
              <legend className="text-sm font-semibold text-stone-800">{t("request.duration")}</legend>
              <div className="grid grid-cols-6 gap-1.5">
                {Array.from({ length: MAX_HOURS }, (_, index) => index + 1).map((option) => (
                  <label key={option} className="flex min-h-11 cursor-pointer items-center justify-center rounded-xl border border-stone-300 bg-white font-semibold has-checked:border-brand-700 has-checked:bg-brand-700 has-checked:text-white has-focus-visible:outline-3 has-focus-visible:outline-brand-700">
                    <input type="radio" name="hours" value={option} defaultChecked={option === chosenHours} className="sr-only" />
                    {t("request.hoursShort", { hours: option })}
                  </label>
                ))}
              </div>
              <FieldErrors id={fields.hours.errorId} errors={fields.hours.errors} />
            </fieldset>

            <div className="space-y-1.5">
              <label htmlFor={fields.notes.id} className="block text-sm font-semibold text-stone-800">
                {t("request.notes")}
              </label>
              <textarea key={notesKey} {...notesProps} rows={3} maxLength={500} className="input" />
              <FieldErrors id={fields.notes.errorId} errors={fields.notes.errors} />
            </div>

            <PriceBreakdown rateCents={sitter.rateCents} />

            <SubmitButton className="w-full">{t("request.send")}</SubmitButton>
            <p className="text-center text-sm text-stone-700">{t("request.notCharged")}</p>
          </Form>
        )}
      </div>
    </>
  );
}
