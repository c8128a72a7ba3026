import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { useSchemaValidation } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { prefilledPets, requestBooking, requestPage, requestRefusalReply } from "~/features/bookings/index.server";
import {
  BookAgainNote,
  DurationChoice,
  FreeDays,
  PetChoice,
  PriceBreakdown,
  RequestPolicy,
  StartTimeChoice,
  requestSchema,
  loadBookingSchemas,
} from "~/features/bookings";
import { NoHourlyRateBoundary } from "~/features/profiles";
import { sitterWithoutHourlyRate } from "~/features/profiles/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { FieldErrors, FormError } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["bookings", "profile"],
  title: titleFrom<typeof loader>(({ sitter }, t) => t("bookings:request.title", { name: sitter.name })),
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const page = await requestPage(
    user,
    url.searchParams.get("walkerId") ?? "",
    url.searchParams.get("date") ?? "",
    await languageOf(request),
    url.searchParams.get("again"),
  );
  if (!page) {
    const sitter = await sitterWithoutHourlyRate(url.searchParams.get("walkerId") ?? "");
    throw sitter ? data({ noHourlyRate: sitter }, { status: 404 }) : new Response("Not found", { status: 404 });
  }
  return {
    ...page,
    petIds: prefilledPets(url, page),
    constraints: { requestSchema: constraintOf(requestSchema) },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await formDataOf(request), { schema: requestSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await requestBooking(user, submission.value);
  if (result.status === "refused") return data(submission.reply(requestRefusalReply(result.reason)), { status: 400 });
  // Stripe's card field needs the payment page's own Content-Security-Policy: load it as a new document.
  return result.booking.payment_provider === "stripe"
    ? redirectDocument(`/payment/${result.booking.id}`)
    : redirect(`/payment/${result.booking.id}`);
}

export default function BookingRequest() {
  const { t } = useTranslation("bookings");
  const { requestId, sitter, pets, today, day, times, quickDays, policy, again, petIds } =
    useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const submitDate = useSubmit();
  const dateForm = useRef<HTMLFormElement>(null);
  // A date picked before the page's script ran fired no change event: ask for its times once it has.
  useEffect(() => {
    const picked = dateForm.current?.elements.namedItem("date");
    if (picked instanceof HTMLInputElement && picked.value && picked.value !== day)
      submitDate(dateForm.current, { replace: true, preventScrollReset: true });
    // Only on the first render: later changes go through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "booking-request",
    ...useSchemaValidation("booking-request", () => loadBookingSchemas().then((schemas) => schemas.requestSchema)),
    lastResult,
    defaultValue: {
      id: requestId,
      sitterId: sitter.id,
      day,
      hours: String(again?.hours ?? 1),
      petIds,
    },
    constraint: constraints.requestSchema,
  });
  const chosenHours = Number(fields.hours.initialValue ?? "1");
  // The price follows the pets ticked; without JavaScript it shows the count last sent, and the payment page the rest.
  const [petCount, setPetCount] = useState(Math.max(1, [fields.petIds.initialValue ?? []].flat().length));
  const { key: notesKey, ...notesProps } = getTextareaProps(fields.notes);

  return (
    <>
      <PageHeader title={t("request.title", { name: sitter.name })} backTo={`/users/${sitter.id}`} />
      <div className="space-y-6 px-4 pb-8">
        {again ? <BookAgainNote /> : null}
        <Form
          ref={dateForm}
          method="get"
          className="space-y-1.5"
          onChange={(event) => submitDate(event.currentTarget, { replace: true, preventScrollReset: true })}
        >
          <input type="hidden" name="walkerId" value={sitter.id} />
          {again ? <input type="hidden" name="again" value={again.bookingId} /> : null}
          <label htmlFor="booking-date" className="block text-sm font-semibold text-stone-800">
            {t("request.date")}
          </label>
          <div className="flex gap-2">
            <input
              id="booking-date"
              type="date"
              name="date"
              min={today}
              defaultValue={day}
              required
              className="input"
            />
            <noscript>
              <button type="submit" className="btn btn-secondary">
                {t("request.showTimes")}
              </button>
            </noscript>
          </div>
          <p className="text-sm text-stone-600">
            {t("request.timeZone", { zone: sitter.timeZone.replaceAll("_", " ") })}
          </p>
        </Form>

        <FreeDays
          sitterId={sitter.id}
          day={day}
          quickDays={quickDays}
          query={again ? { again: again.bookingId } : {}}
        />

        {pets.length === 0 ? (
          <section className="card space-y-3 text-center">
            <p>{t("request.noPets")}</p>
            <Link to="/pet-profile-setup" className="btn btn-primary">
              {t("request.addPet")}
            </Link>
          </section>
        ) : (
          <Form
            method="post"
            {...getFormProps(form)}
            noValidate
            className="space-y-6"
            onChange={(event) => setPetCount(Math.max(1, new FormData(event.currentTarget).getAll("petIds").length))}
          >
            <FormError form={form} />
            <input type="hidden" name="id" value={requestId} />
            <input type="hidden" name="sitterId" value={sitter.id} />
            <input type="hidden" name="day" value={day} />
            <input type="hidden" name="cancellationPolicy" value={policy.name} />
            <FieldErrors id={fields.cancellationPolicy.errorId} errors={fields.cancellationPolicy.errors} />

            <PetChoice
              pets={pets}
              chosen={[fields.petIds.initialValue ?? []].flat().filter((id): id is string => typeof id === "string")}
              maxPets={sitter.maxPets}
              extraPetCents={sitter.extraPetCents}
              field={fields.petIds}
            />
            <StartTimeChoice times={times} field={fields.startTime} preset={again?.startTime} />
            <DurationChoice chosen={chosenHours} field={fields.hours} />

            <div className="space-y-1.5">
              <label htmlFor={fields.notes.id} className="block text-sm font-semibold text-stone-800">
                {t("request.notes")}
              </label>
              <textarea key={notesKey} {...notesProps} rows={3} maxLength={500} className="input" />
              <FieldErrors id={fields.notes.errorId} errors={fields.notes.errors} />
            </div>

            <PriceBreakdown rateCents={sitter.rateCents} pets={petCount} extraPetCents={sitter.extraPetCents} />
            <RequestPolicy policy={policy.name} deadlines={policy.deadlines} />

            <SubmitButton className="w-full">{t("request.send")}</SubmitButton>
            <p className="text-center text-sm text-stone-700">{t("request.notCharged")}</p>
          </Form>
        )}
      </div>
    </>
  );
}

export const ErrorBoundary = NoHourlyRateBoundary;
