import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  EndSeries,
  NextDates,
  PendingChange,
  SeriesAnswers,
  SeriesSummary,
  WeekdayChoice,
  changeSchema,
  SIMPLE_INTENTS,
  loadSeriesSchemas,
  skipSchema,
  type SimpleIntent,
} from "~/features/series";
import { actOnSeries, changeRefusalReply, seriesView, weekdayChoices } from "~/features/series/index.server";
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
  i18n: ["series", "bookings", "profile"],
  title: titleFrom<typeof loader>(({ series }, t) => t("series:page.title", { name: series.other.name })),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const language = await languageOf(request);
  const series = await seriesView(user.id, params.seriesId ?? "", language);
  if (!series) throw new Response("Not found", { status: 404 });
  return { series, weekdays: weekdayChoices(language), constraints: constraintOf(changeSchema) };
}

const isSimple = (intent: string): intent is SimpleIntent => (SIMPLE_INTENTS as readonly string[]).includes(intent);

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = params.seriesId ?? "";
  const page = `/series/${encodeURIComponent(id)}`;
  const form = await formDataOf(request);
  const intent = String(form.get("intent") ?? "");
  if (isSimple(intent)) {
    const result = await actOnSeries(user, id, { type: intent });
    if (!result.ok && result.refusal === "notFound") throw new Response("Not found", { status: 404 });
    return redirectWithToast(
      page,
      result.ok
        ? { type: "success", title: `series:toast.${intent}` }
        : { type: "error", title: `series:errors.${result.refusal === "notYours" ? "wrongState" : result.refusal}` },
    );
  }
  if (intent === "skip") {
    const parsed = skipSchema.safeParse(Object.fromEntries(form));
    const result = parsed.success ? await actOnSeries(user, id, { type: "skip", day: parsed.data.day }) : null;
    if (result && !result.ok && result.refusal === "notFound") throw new Response("Not found", { status: 404 });
    return redirectWithToast(
      page,
      result?.ok
        ? { type: "success", title: "series:toast.skip" }
        : { type: "error", title: `series:errors.${result && !result.ok ? result.refusal : "notPlanned"}` },
    );
  }
  const submission = parseWithZod(form, { schema: changeSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { fromDay, weekdays, startTime } = submission.value;
  const result = await actOnSeries(user, id, { type: "propose-change", proposal: { fromDay, weekdays, startTime } });
  if (!result.ok && result.refusal === "notFound") throw new Response("Not found", { status: 404 });
  if (!result.ok) return data(submission.reply(changeRefusalReply(result.refusal)), { status: 400 });
  return redirectWithToast(page, { type: "success", title: "series:toast.propose-change" });
}

export default function SeriesPage() {
  const { t } = useTranslation(["series", "bookings", "profile"]);
  const { series, weekdays, constraints } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "series-change",
    ...useSchemaValidation("series-change", () => loadSeriesSchemas().then((schemas) => schemas.changeSchema)),
    lastResult,
    defaultValue: { startTime: series.startTime },
    constraint: constraints,
  });
  const name = series.other.name;
  return (
    <>
      <PageHeader title={t("page.title", { name })} backTo="/bookings" />
      <div className="space-y-6 px-4 pb-8">
        <SeriesSummary series={series} />

        <SeriesAnswers series={series} />

        <PendingChange series={series} />

        <NextDates series={series} />

        {series.can.propose ? (
          <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
            <h2 className="text-lg font-bold">{t("change.title")}</h2>
            <p className="text-sm text-stone-700">
              {t("change.hint", { name })} {series.service === "day_care" ? t("change.dayCare") : null}
            </p>
            <FormError form={form} />
            <input type="hidden" name="intent" value="propose-change" />
            <WeekdayChoice
              field={fields.weekdays}
              names={weekdays}
              chosen={series.weekdays}
              legend={t("request.weekdays")}
            />
            <div className="grid grid-cols-2 gap-3">
              <div className="space-y-1.5">
                <label htmlFor={fields.startTime.id} className="block text-sm font-semibold text-stone-800">
                  {t("change.time")}
                </label>
                <input
                  id={fields.startTime.id}
                  name={fields.startTime.name}
                  type="time"
                  step={900}
                  defaultValue={series.startTime}
                  aria-invalid={fields.startTime.errors?.length ? true : undefined}
                  aria-describedby={fields.startTime.errors?.length ? fields.startTime.errorId : undefined}
                  className="input"
                />
                <FieldErrors id={fields.startTime.errorId} errors={fields.startTime.errors} />
              </div>
              <div className="space-y-1.5">
                <label htmlFor={fields.fromDay.id} className="block text-sm font-semibold text-stone-800">
                  {t("change.fromDay")}
                </label>
                <input
                  id={fields.fromDay.id}
                  name={fields.fromDay.name}
                  type="date"
                  min={series.today}
                  aria-invalid={fields.fromDay.errors?.length ? true : undefined}
                  aria-describedby={fields.fromDay.errors?.length ? fields.fromDay.errorId : undefined}
                  className="input"
                />
                <FieldErrors id={fields.fromDay.errorId} errors={fields.fromDay.errors} />
              </div>
            </div>
            <SubmitButton variant="secondary" className="w-full">
              {t("change.send")}
            </SubmitButton>
          </Form>
        ) : null}

        <EndSeries series={series} />
      </div>
    </>
  );
}
