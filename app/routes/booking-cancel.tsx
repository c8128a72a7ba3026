import { getFormProps, useForm } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { transition, bookingView } from "~/features/bookings/index.server";
import {
  CANCEL_REASON_MAX,
  CancelOutcome,
  bookingMoney,
  CancellationTerms,
  cancelOutcomeText,
  cancelSchema,
  bookingSummaryText,
  refusalKey,
  loadBookingSchemas,
  termsText,
} from "~/features/bookings";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FormError, TextAreaField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["bookings", "disputes"],
  title: titleFrom<typeof loader>((_, t) => t("bookings:cancel.title")),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const booking = await bookingView(user.id, params.bookingId ?? "");
  if (!booking) throw new Response("Not found", { status: 404 });
  if (!booking.can.cancel)
    return redirectWithToast("/bookings", { type: "error", title: "bookings:refusals.wrongState" });
  const language = await languageOf(request);
  const { cancellationPolicy: policy, startAt, money, ownerCancel } = booking;
  return {
    booking: bookingSummaryText(booking, language),
    // What the owner gets back if they confirm now, and the policy's dates (in their own time zone).
    outcome: ownerCancel ? cancelOutcomeText(ownerCancel, language) : null,
    terms: policy
      ? termsText({ policy, startAt, totalCents: money.priceCents }, { language, timeZone: user.time_zone })
      : null,
    constraints: { cancelSchema: constraintOf(cancelSchema) },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await formDataOf(request), { schema: cancelSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // The sitter of a confirmed booking cancels it too (a request they decline instead).
  const as = (await bookingView(user.id, params.bookingId ?? ""))?.as;
  if (!as) throw new Response("Not found", { status: 404 });
  const reason = submission.value.reason;
  const result = await transition(
    params.bookingId ?? "",
    { kind: as, userId: user.id },
    as === "owner" ? { type: "cancel", reason } : { type: "sitter-cancel", reason },
  );
  if (!result.ok) {
    if (result.refusal === "notFound") throw new Response("Not found", { status: 404 });
    return redirectWithToast("/bookings", { type: "error", title: refusalKey(result.refusal) });
  }
  const kept = as === "owner" && bookingMoney(result.booking).paidCents > 0;
  const description =
    as === "sitter"
      ? "disputes:sitterCancel.done"
      : kept
        ? "bookings:toast.cancelledKeptBody"
        : "bookings:toast.cancelledBody";
  return redirectWithToast("/bookings", { type: "success", title: "bookings:toast.cancelledTitle", description });
}

export default function CancelBooking() {
  const { t } = useTranslation("bookings");
  const { booking, outcome, terms } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "cancel-booking",
    ...useSchemaValidation("cancel-booking", () => loadBookingSchemas().then((schemas) => schemas.cancelSchema)),
    lastResult,
    constraint: constraints.cancelSchema as ConstraintOf<typeof cancelSchema>,
  });
  const { when, total } = booking.summary;
  return (
    <>
      <PageHeader title={t("cancel.title")} backTo="/bookings" />
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-4 px-4 pb-8">
        <p>{t("cancel.summary", { pet: booking.petName, name: booking.other.name, when })}</p>
        {booking.as === "sitter" || !outcome ? (
          <p className="text-stone-700">{t("disputes:sitterCancel.explain", { name: booking.other.name })}</p>
        ) : (
          <CancelOutcome outcome={outcome} total={total} sitter={booking.other.name} />
        )}
        {booking.as === "owner" && terms ? <CancellationTerms terms={terms} /> : null}
        <FormError form={form} />
        <TextAreaField meta={fields.reason} label={t("cancel.reason")} rows={3} maxLength={CANCEL_REASON_MAX} />
        <SubmitButton className="w-full">{t("cancel.submit")}</SubmitButton>
      </Form>
    </>
  );
}
