import { getFormProps, useForm } from "@conform-to/react";
import { useSchemaValidation } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  REPORT_DETAILS_MAX,
  REPORT_REASONS,
  REPORTABLE,
  reportSchema,
  type ReportableSubject,
  loadSafetySchemas,
} from "~/features/safety";
import { fileReport, isInactive, reportedPersonOf } from "~/features/safety/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { titleFrom } from "~/platform/page-title";
import { safeRedirectTarget } from "~/platform/redirect.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { ChoiceChips } from "~/platform/ui/choices";
import { FormError, TextAreaField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["safety"],
  title: titleFrom<typeof loader>(({ subjectType }, t) => t(`safety:report.title.${subjectType}`)),
};

const subjectOf = (value: string | undefined): ReportableSubject => {
  const found = REPORTABLE.find((subject) => subject === value);
  if (!found) throw new Response("Not found", { status: 404 });
  return found;
};

/** What is reported, by whom, and where to go back; a thing the asker cannot see is "not found". */
async function reportTarget(request: Request, params: LoaderFunctionArgs["params"]) {
  const user = await requireUser(request);
  const subjectType = subjectOf(params.subjectType);
  const subjectId = params.subjectId ?? "";
  const reported = await reportedPersonOf(user.id, subjectType, subjectId);
  if (!reported) throw new Response("Not found", { status: 404 });
  const back = safeRedirectTarget(new URL(request.url).searchParams.get("back"), "/dashboard");
  return {
    user,
    subjectType,
    subjectId,
    back,
    own: reported === user.id,
    inactive: reported !== user.id && (await isInactive(reported)),
  };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { subjectType, subjectId, back, own, inactive } = await reportTarget(request, params);
  return { subjectType, subjectId, back, own, inactive, constraints: { reportSchema: constraintOf(reportSchema) } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, subjectType, subjectId, back } = await reportTarget(request, params);
  const submission = parseWithZod(await formDataOf(request), { schema: reportSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await fileReport(user.id, {
    subjectType,
    subjectId,
    reason: submission.value.reason,
    details: submission.value.details,
  });
  if (result === "not-found") throw new Response("Not found", { status: 404 });
  if (result !== "reported")
    return data(submission.reply({ formErrors: [`safety:report.refusals.${result}`] }), { status: 400 });
  return redirectWithToast(back, {
    type: "success",
    title: "safety:report.sentTitle",
    description: "safety:report.sentBody",
  });
}

export default function Report() {
  const { t } = useTranslation("safety");
  const { subjectType, back, own, inactive } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "report",
    ...useSchemaValidation("report", () => loadSafetySchemas().then((schemas) => schemas.reportSchema)),
    lastResult,
    constraint: constraints.reportSchema,
  });
  return (
    <>
      <PageHeader title={t(`report.title.${subjectType}`)} backTo={back} />
      {own || inactive ? (
        <div className="space-y-4 px-4 pb-8">
          <p role="alert" className="rounded-xl bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-200">
            {t(own ? "report.refusals.own" : "report.refusals.inactive")}
          </p>
          <Link to={back} className="btn btn-secondary w-full">
            {t("report.back")}
          </Link>
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} noValidate className="space-y-4 px-4 pb-8">
          <p className="text-stone-700">{t("report.intro")}</p>
          <FormError form={form} />
          <ChoiceChips
            meta={fields.reason}
            legend={t("report.reason")}
            options={REPORT_REASONS}
            type="radio"
            labelOf={(reason) => t(`reasons.${reason}`)}
          />
          <TextAreaField
            meta={fields.details}
            label={t("report.details")}
            hint={t("report.detailsHint")}
            rows={4}
            maxLength={REPORT_DETAILS_MAX}
          />
          <SubmitButton className="w-full">{t("report.submit")}</SubmitButton>
        </Form>
      )}
    </>
  );
}
