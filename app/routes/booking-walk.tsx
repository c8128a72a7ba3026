import { getFormProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { prefilledPets, requestBooking, requestRefusalReply, walkPage } from "~/features/bookings/index.server";
import {
  BookAgainNote,
  FreeDays,
  ServiceChoice,
  PetChoice,
  StartTimeChoice,
  loadBookingSchemas,
  walkRequestSchema,
} from "~/features/bookings";
import { RepeatChoice } from "~/features/series";
import {
  requestSeries,
  seriesCardLabel,
  seriesRefusalReply,
  weekdayChoices,
  weekdayOf,
} from "~/features/series/index.server";
import { useSchemaValidation } from "~/platform/forms";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FieldErrors, FormError } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["bookings", "profile", "series"],
  title: titleFrom<typeof loader>(({ sitter }, t) => t("bookings:walk.title", { name: sitter.name })),
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const page = await walkPage(
    user,
    url.searchParams.get("walkerId") ?? "",
    {
      service: url.searchParams.get("service"),
      day: url.searchParams.get("date"),
      again: url.searchParams.get("again"),
    },
    await languageOf(request),
  );
  if (!page) throw new Response("Not found", { status: 404 });
  const language = await languageOf(request);
  return {
    ...page,
    petIds: prefilledPets(url, page),
    constraints: constraintOf(walkRequestSchema),
    weekdays: weekdayChoices(language),
    firstWeekday: weekdayOf(page.day),
    card: page.pets.length > 0 ? await seriesCardLabel(user.id) : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await formDataOf(request), { schema: walkRequestSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  if (submission.value.repeat === "weekly") {
    const { id, sitterId, service, petIds, day, startTime, notes, weekdays = [], until } = submission.value;
    const asked = { id, sitterId, service, petIds, day, startTime, notes, weekdays, lastDay: until ?? null };
    const series = await requestSeries(user, asked);
    if (!series.ok) return data(submission.reply(seriesRefusalReply(series.refusal)), { status: 400 });
    return redirectWithToast(`/series/${series.series.id}`, { type: "success", title: "series:toast.requested" });
  }
  const result = await requestBooking(user, { ...submission.value, hours: 1 });
  if (result.status === "refused") return data(submission.reply(requestRefusalReply(result.reason)), { status: 400 });
  // Stripe's card field needs the payment page's own Content-Security-Policy: load it as a new document.
  return result.booking.payment_provider === "stripe"
    ? redirectDocument(`/payment/${result.booking.id}`)
    : redirect(`/payment/${result.booking.id}`);
}

export default function WalkRequest() {
  const { t } = useTranslation(["bookings", "profile"]);
  const { requestId, sitter, offers, service, pets, today, day, times, quickDays, constraints, again, petIds } =
    useLoaderData<typeof loader>();
  const { weekdays, firstWeekday, card } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const submitChoice = useSubmit();
  const [form, fields] = useForm({
    id: "walk-request",
    ...useSchemaValidation("walk-request", () => loadBookingSchemas().then((schemas) => schemas.walkRequestSchema)),
    lastResult,
    defaultValue: { petIds },
    constraint: constraints,
  });
  const { key: notesKey, ...notesProps } = getTextareaProps(fields.notes);
  const chosen = [fields.petIds.initialValue ?? []].flat().filter((id): id is string => typeof id === "string");

  return (
    <>
      <PageHeader title={t("walk.title", { name: sitter.name })} backTo={`/users/${sitter.id}`} />
      <div className="space-y-6 px-4 pb-8">
        {again ? <BookAgainNote /> : null}
        <Form
          method="get"
          className="space-y-4"
          onChange={(event) => submitChoice(event.currentTarget, { replace: true, preventScrollReset: true })}
        >
          <input type="hidden" name="walkerId" value={sitter.id} />
          {again ? <input type="hidden" name="again" value={again.bookingId} /> : null}
          <ServiceChoice offers={offers} chosen={service} />
          <div className="space-y-1.5">
            <label htmlFor="walk-date" className="block text-sm font-semibold text-stone-800">
              {t("request.date")}
            </label>
            <div className="flex gap-2">
              <input id="walk-date" type="date" name="date" min={today} defaultValue={day} required className="input" />
              <noscript>
                <button type="submit" className="btn btn-secondary">
                  {t("request.showTimes")}
                </button>
              </noscript>
            </div>
            <p className="text-sm text-stone-600">
              {t("request.timeZone", { zone: sitter.timeZone.replaceAll("_", " ") })}
            </p>
          </div>
        </Form>

        <FreeDays
          sitterId={sitter.id}
          day={day}
          quickDays={quickDays}
          query={again ? { service, again: again.bookingId } : { service }}
        />

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
            <input type="hidden" name="service" value={service} />
            <input type="hidden" name="day" value={day} />
            <input type="hidden" name="cancellationPolicy" value={sitter.policy} />
            <PetChoice
              pets={pets}
              chosen={chosen}
              maxPets={sitter.maxPets}
              extraPetCents={sitter.extraPetCents}
              field={fields.petIds}
              limitKey="walk.petsLimit"
            />
            <StartTimeChoice times={times} field={fields.startTime} preset={again?.startTime} />
            <RepeatChoice
              fields={{ repeat: fields.repeat, weekdays: fields.weekdays, until: fields.until }}
              names={weekdays}
              firstWeekday={firstWeekday}
              firstDay={day}
              card={card ? { label: card } : null}
            />
            <div className="space-y-1.5">
              <label htmlFor={fields.notes.id} className="block text-sm font-semibold text-stone-800">
                {t("request.notes")}
              </label>
              <textarea key={notesKey} {...notesProps} rows={3} maxLength={500} className="input" />
              <FieldErrors id={fields.notes.errorId} errors={fields.notes.errors} />
            </div>
            <section className="card space-y-1 text-sm text-stone-800" aria-labelledby="walk-policy">
              <h2 id="walk-policy" className="font-semibold">
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
