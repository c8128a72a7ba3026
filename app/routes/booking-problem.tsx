import { getFormProps, useForm, type FieldMetadata } from "@conform-to/react";
import { useSchemaValidation } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { constraintOf } from "~/platform/forms.server";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  DISPUTE_PHOTOS_MAX,
  DisputeThread,
  MoneyTable,
  POST_MAX,
  PROBLEM_REASONS,
  postSchema,
  reportSchema,
  loadDisputeSchemas,
} from "~/features/disputes";
import {
  addPost,
  disputePageText,
  problemPage,
  reportProblem,
  takesPart,
  uploadProblemReply,
  type DisputeResult,
} from "~/features/disputes/index.server";
import { readImageUpload } from "~/features/media/index.server";
import { PhotoPicker } from "~/features/media";

import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { ChoiceChips } from "~/platform/ui/choices";
import { FormError, TextAreaField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

// Multipart posts here carry photos, read with their own limits (readImageUpload).
export const handle = {
  uploads: true,
  i18n: ["disputes", "bookings", "profile"],
  title: titleFrom<typeof loader>((_, t) => t("disputes:problem.title")),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const page = await problemPage(user.id, params.bookingId ?? "");
  if (!page) throw new Response("Not found", { status: 404 });
  return {
    ...disputePageText(page, await languageOf(request), user.time_zone),
    constraints: { reportSchema: constraintOf(reportSchema), postSchema: constraintOf(postSchema) },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const bookingId = params.bookingId ?? "";
  if (!(await takesPart(user.id, bookingId))) throw new Response("Not found", { status: 404 });
  const upload = await readImageUpload(request, { field: "photos", maxFiles: DISPUTE_PHOTOS_MAX });
  if ("error" in upload) return data(uploadProblemReply(upload.error), { status: 400 });
  const intent = upload.formData.get("intent");
  let result: DisputeResult;
  if (intent === "report") {
    const submission = parseWithZod(upload.formData, { schema: reportSchema });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    result = await reportProblem(user.id, bookingId, { ...submission.value, images: upload.images });
    if (!result.ok && !result.notFound)
      return data(submission.reply({ formErrors: [result.message] }), { status: 400 });
  } else if (intent === "post") {
    const submission = parseWithZod(upload.formData, { schema: postSchema });
    if (submission.status !== "success") return data(submission.reply(), { status: 400 });
    result = await addPost(user.id, bookingId, { body: submission.value.body, images: upload.images });
    if (!result.ok && !result.notFound)
      return data(submission.reply({ formErrors: [result.message] }), { status: 400 });
  } else throw new Response("Bad request", { status: 400 });
  if (!result.ok) throw new Response("Not found", { status: 404 });
  const title = intent === "report" ? "disputes:problem.reported" : "disputes:thread.added";
  return redirectWithToast(`/bookings/${bookingId}/problem`, { type: "success", title });
}

export default function BookingProblem() {
  const { t } = useTranslation("disputes");
  const page = useLoaderData<typeof loader>();
  const { booking, dispute } = page;
  return (
    <>
      <PageHeader title={t("problem.title")} backTo="/bookings" />
      <div className="space-y-5 px-4 pb-8">
        <p>{t("problem.summary", { pet: booking.petName, name: booking.other.name, when: booking.when })}</p>
        <section aria-labelledby="money-title" className="space-y-2">
          <h2 id="money-title" className="text-lg font-bold">
            {t("money.title")}
          </h2>
          <MoneyTable money={page.moneyText} status={page.money.paymentStatus} pending={page.money.pending} />
        </section>
        {dispute ? (
          <section aria-labelledby="dispute-status" className="space-y-3">
            <h2 id="dispute-status" className="text-lg font-bold">
              {dispute.status === "open" ? t("problem.open") : t("problem.settled")}
            </h2>
            <p className="text-stone-800">{t("problem.reasonShown", { reason: t(`reasons.${dispute.reason}`) })}</p>
            {dispute.status === "open" ? (
              <p className="text-stone-700">{t("problem.paused")}</p>
            ) : (
              <p className="text-stone-800">
                {t(`outcome.${dispute.outcome ?? "release"}`, { amount: dispute.refundText })}
              </p>
            )}
            {dispute.resolutionNote ? (
              <p className="break-words whitespace-pre-line text-stone-800">
                {t("problem.operatorNote", { note: dispute.resolutionNote })}
              </p>
            ) : null}
            <DisputeThread posts={page.posts} />
            {page.can.post ? <PostForm /> : null}
          </section>
        ) : page.can.report ? (
          <ReportForm />
        ) : (
          <p className="text-stone-700">{t("problem.notNow")}</p>
        )}
      </div>
    </>
  );
}

function ReportForm() {
  const { t } = useTranslation("disputes");
  const lastResult = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "report-problem",
    ...useSchemaValidation("report-problem", () => loadDisputeSchemas().then((schemas) => schemas.reportSchema)),
    lastResult,
    constraint: constraints.reportSchema,
  });
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} noValidate className="space-y-4">
      <p className="text-stone-700">{t("problem.explain")}</p>
      <FormError form={form} />
      <input type="hidden" name="intent" value="report" />
      <ChoiceChips
        meta={fields.reason as unknown as FieldMetadata<string>}
        legend={t("problem.reason")}
        options={[...PROBLEM_REASONS]}
        type="radio"
        labelOf={(reason) => t(`reasons.${reason}`)}
      />
      <TextAreaField meta={fields.details} label={t("problem.details")} rows={5} maxLength={POST_MAX} />
      <PhotoPicker label={t("problem.photos")} remaining={DISPUTE_PHOTOS_MAX} />
      <SubmitButton className="w-full">{t("problem.submit")}</SubmitButton>
    </Form>
  );
}

function PostForm() {
  const { t } = useTranslation("disputes");
  const lastResult = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "dispute-post",
    ...useSchemaValidation("dispute-post", () => loadDisputeSchemas().then((schemas) => schemas.postSchema)),
    lastResult,
    constraint: constraints.postSchema,
  });
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} noValidate className="space-y-4">
      <FormError form={form} />
      <input type="hidden" name="intent" value="post" />
      <TextAreaField meta={fields.body} label={t("thread.add")} rows={4} maxLength={POST_MAX} />
      <PhotoPicker label={t("problem.photos")} remaining={DISPUTE_PHOTOS_MAX} />
      <SubmitButton className="w-full">{t("thread.submit")}</SubmitButton>
    </Form>
  );
}
