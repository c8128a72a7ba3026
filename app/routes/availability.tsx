import { getFormProps, useForm } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { addSlot, monthCalendar, saveMonth, slotsPage } from "~/features/availability/index.server";
import {
  DEFAULT_SLOT,
  MonthCalendar,
  PRESET_NAMES,
  SlotList,
  addSlotFields,
  addSlotSchema,
  loadAvailabilitySchemas,
} from "~/features/availability";
import { isSitter } from "~/features/profiles/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FieldErrors, FormError, TextField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["availability"], title: "availability:title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!isSitter(user.role)) return { sitter: false as const };
  const params = new URL(request.url).searchParams;
  const language = await languageOf(request);
  return {
    sitter: true as const,
    ...(await slotsPage(user, params.get("date") ?? "", language)),
    calendar: await monthCalendar(user, params.get("month") ?? "", language),
    constraints: { addSlotFields: constraintOf(addSlotFields) },
  };
}

const refusal = {
  overlap: { formErrors: ["availability:errors.overlap"] },
  past: { formErrors: ["availability:errors.past"] },
  invalid: { fieldErrors: { endTime: ["availability:errors.endBeforeStart"] } },
};

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  // Only a forged post gets here: the page itself offers non-sitters no form.
  if (!isSitter(user.role)) return redirect("/availability");
  const formData = await formDataOf(request);
  if (formData.get("intent") === "month") {
    const month = String(formData.get("month") ?? "");
    const free = formData.getAll("free").map(String);
    const saved = await saveMonth(user, month, free);
    if (saved.status !== "saved")
      return data({ monthError: { message: `availability:month.errors.${saved.status}` } }, 400);
    return redirectWithToast(`/availability?month=${month}`, { type: "success", title: "availability:month.saved" });
  }
  const submission = parseWithZod(formData, { schema: addSlotSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await addSlot(user.id, user.time_zone, submission.value);
  if (result.status !== "added") return data(submission.reply(refusal[result.status]), { status: 400 });
  return redirectWithToast(`/availability?date=${submission.value.day}`, {
    type: "success",
    title: "availability:add.added",
  });
}

export default function Availability() {
  const { t } = useTranslation("availability");
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <PageHeader title={t("title")} backTo="/profile" />
      {page.sitter ? (
        <div className="space-y-4 px-4 pb-8">
          <Form method="get" className="card flex items-end gap-2">
            <div className="flex-1 space-y-1.5">
              <label htmlFor="availability-date" className="block text-sm font-semibold text-stone-800">
                {t("date.label")}
              </label>
              <input
                key={page.date}
                id="availability-date"
                type="date"
                name="date"
                min={page.today}
                defaultValue={page.date}
                required
                className="input"
              />
            </div>
            <button type="submit" className="btn btn-secondary">
              {t("date.show")}
            </button>
          </Form>
          {/* A new form after each change to the day's slots: a successful add starts from the defaults again. */}
          <AddSlot
            key={`${page.date}-${page.slots.length}`}
            date={page.date}
            openAtFirst={page.slots.length === 0}
            constraint={page.constraints.addSlotFields}
          />
          <SlotList dateLabel={page.dateLabel} slots={page.slots} />
          <MonthCalendar
            calendar={page.calendar}
            error={actionData && "monthError" in actionData ? actionData.monthError.message : undefined}
          />
        </div>
      ) : (
        <section className="card mx-4 space-y-3">
          <p className="text-stone-800">{t("notSitter.body")}</p>
          <Link to="/sitter-profile-setup" className="btn btn-primary w-full">
            {t("notSitter.link")}
          </Link>
        </section>
      )}
    </>
  );
}

function AddSlot({
  date,
  openAtFirst,
  constraint,
}: {
  date: string;
  openAtFirst: boolean;
  constraint: ConstraintOf<typeof addSlotFields>;
}) {
  const { t } = useTranslation("availability");
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && "monthError" in actionData ? undefined : actionData;
  const [form, fields] = useForm({
    id: "add-slot",
    ...useSchemaValidation("add-slot", () => loadAvailabilitySchemas().then((schemas) => schemas.addSlotSchema)),
    lastResult,
    defaultValue: { day: date, startTime: DEFAULT_SLOT.start, endTime: DEFAULT_SLOT.end },
    constraint,
  });
  return (
    <details open={openAtFirst || lastResult?.status === "error"} className="card group">
      <summary className="-m-2 flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 rounded-xl p-2 text-lg font-semibold [&::-webkit-details-marker]:hidden">
        {t("add.title")}
        <svg
          aria-hidden
          viewBox="0 0 24 24"
          className="size-6 shrink-0 transition-transform group-open:rotate-180"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M6 9l6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </summary>
      <Form method="post" {...getFormProps(form)} noValidate className="mt-3 space-y-4">
        <FormError form={form} />
        <input type="hidden" name={fields.day.name} value={date} />
        <FieldErrors id={fields.day.errorId} errors={fields.day.errors} />
        <div className="grid grid-cols-2 gap-3">
          <TextField meta={fields.startTime} type="time" label={t("add.startTime")} />
          <TextField meta={fields.endTime} type="time" label={t("add.endTime")} />
        </div>
        <SubmitButton className="w-full">{t("add.submit")}</SubmitButton>
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-stone-800">{t("add.presets")}</legend>
          <div className="grid grid-cols-2 gap-2">
            {PRESET_NAMES.map((preset) => (
              <SubmitButton key={preset} name="preset" value={preset} variant="secondary" className="px-3 text-sm">
                {t(`presets.${preset}`)}
              </SubmitButton>
            ))}
          </div>
          <FieldErrors id={fields.preset.errorId} errors={fields.preset.errors} />
        </fieldset>
      </Form>
    </details>
  );
}
