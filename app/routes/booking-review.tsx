import { getFormProps, useForm, type FieldMetadata } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { reviewSchema, REVIEW_COMMENT_MAX, loadBookingSchemas } from "~/features/bookings";
import { bookingView, leaveReview } from "~/features/bookings/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { ChoiceChips } from "~/platform/ui/choices";
import { FormError, TextAreaField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["bookings"],
  title: titleFrom<typeof loader>(({ booking }, t) => t("bookings:review.title", { name: booking.other.name })),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const booking = await bookingView(user.id, params.bookingId ?? "");
  if (!booking) throw new Response("Not found", { status: 404 });
  if (!booking.can.review) return redirectWithToast("/bookings", { type: "info", title: "bookings:review.notNow" });
  return { booking, constraints: { reviewSchema: constraintOf(reviewSchema) } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await formDataOf(request), { schema: reviewSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await leaveReview(user.id, params.bookingId ?? "", submission.value.rating, submission.value.comment);
  if (result === "not-found") throw new Response("Not found", { status: 404 });
  if (result !== "saved") return redirectWithToast("/bookings", { type: "info", title: "bookings:review.notNow" });
  return redirectWithToast("/bookings", { type: "success", title: "bookings:review.saved" });
}

export default function ReviewBooking() {
  const { t } = useTranslation("bookings");
  const { booking } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "review",
    ...useSchemaValidation("review", () => loadBookingSchemas().then((schemas) => schemas.reviewSchema)),
    lastResult,
    constraint: constraints.reviewSchema as ConstraintOf<typeof reviewSchema>,
  });
  return (
    <>
      <PageHeader title={t("review.title", { name: booking.other.name })} backTo="/bookings" />
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-4 px-4 pb-8">
        <FormError form={form} />
        <ChoiceChips
          meta={fields.rating as unknown as FieldMetadata<string>}
          legend={t("review.rating")}
          options={["1", "2", "3", "4", "5"]}
          type="radio"
          labelOf={(stars) => t("review.stars", { stars })}
        />
        <TextAreaField meta={fields.comment} label={t("review.comment")} rows={4} maxLength={REVIEW_COMMENT_MAX} />
        <SubmitButton className="w-full">{t("review.submit")}</SubmitButton>
      </Form>
    </>
  );
}
