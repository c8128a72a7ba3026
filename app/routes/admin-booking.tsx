import { getFormProps, useForm } from "@conform-to/react";
import { useSchemaValidation } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  BookingHistory,
  MoneyTable,
  OPERATOR_NOTE_MAX,
  centsOf,
  refundSchema,
  loadDisputeSchemas,
} from "~/features/disputes";
import { bookingForOperator, historyText, moneyText, refundBooking } from "~/features/disputes/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { requireAdmin } from "~/platform/operator.server";
import { titleFrom } from "~/platform/page-title";
import { redirectWithToast } from "~/platform/toast.server";
import { FormError, TextAreaField, TextField } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["admin", "disputes", "bookings"],
  title: titleFrom<typeof loader>((_, t) => t("disputes:record.title")),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const found = await bookingForOperator(params.bookingId ?? "");
  if (!found) throw new Response("Not found", { status: 404 });
  const language = await languageOf(request);
  return {
    ...found,
    constraints: { refundSchema: constraintOf(refundSchema) },
    history: historyText(found.history, language, operator.time_zone),
    moneyText: moneyText(found.money, language),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const operator = await requireAdmin(request);
  const submission = parseWithZod(await formDataOf(request), { schema: refundSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await refundBooking(operator.id, params.bookingId ?? "", {
    amountCents: centsOf(submission.value.amount)!,
    note: submission.value.note,
  });
  if (!result.ok) {
    if (result.notFound) throw new Response("Not found", { status: 404 });
    return data(submission.reply({ formErrors: [result.message] }), { status: 400 });
  }
  return redirectWithToast(`/admin/bookings/${params.bookingId}`, {
    type: "success",
    title: "disputes:record.refunded",
  });
}

export default function AdminBooking() {
  const { t } = useTranslation("disputes");
  const { booking, money, moneyText, history, dispute } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-bold">{t("record.title")}</h1>
      <p className="font-mono text-xs break-all text-stone-600">{booking.id}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium text-stone-700">{t("record.owner")}</dt>
        <dd>{`${booking.owner.name} <${booking.owner.email}>`}</dd>
        <dt className="font-medium text-stone-700">{t("record.sitter")}</dt>
        <dd>{`${booking.sitter.name} <${booking.sitter.email}>`}</dd>
        <dt className="font-medium text-stone-700">{t("record.pet")}</dt>
        <dd>{booking.petName}</dd>
        <dt className="font-medium text-stone-700">{t("record.status")}</dt>
        <dd>{t(`bookings:status.${booking.status}`)}</dd>
        {booking.cardLabel ? (
          <>
            <dt className="font-medium text-stone-700">{t("record.card")}</dt>
            <dd>{booking.cardLabel}</dd>
          </>
        ) : null}
      </dl>
      {dispute ? (
        <p>
          <Link to={`/admin/disputes/${dispute.id}`} className="font-semibold text-brand-800 underline">
            {t(dispute.status === "open" ? "record.disputeOpen" : "record.disputeSettled")}
          </Link>
        </p>
      ) : null}
      <section aria-labelledby="money-title" className="space-y-2">
        <h2 id="money-title" className="text-lg font-bold">
          {t("money.title")}
        </h2>
        <MoneyTable money={moneyText} status={money.paymentStatus} pending={money.pending} provider={money.provider} />
      </section>
      <section aria-labelledby="history-title" className="space-y-2">
        <h2 id="history-title" className="text-lg font-bold">
          {t("history.title")}
        </h2>
        <BookingHistory entries={history} />
      </section>
      <RefundForm />
    </div>
  );
}

function RefundForm() {
  const { t } = useTranslation("disputes");
  const lastResult = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "refund-booking",
    ...useSchemaValidation("refund-booking", () => loadDisputeSchemas().then((schemas) => schemas.refundSchema)),
    lastResult,
    constraint: constraints.refundSchema,
  });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="card space-y-4">
      <h2 className="text-lg font-bold">{t("record.refund")}</h2>
      <p className="text-sm text-stone-700">{t("record.refundExplain")}</p>
      <FormError form={form} />
      <TextField meta={fields.amount} label={t("operator.amount")} inputMode="decimal" />
      <TextAreaField
        meta={fields.note}
        label={t("operator.note")}
        hint={t("admin:reason.hint")}
        rows={3}
        maxLength={OPERATOR_NOTE_MAX}
      />
      <SubmitButton className="w-full">{t("record.refundSubmit")}</SubmitButton>
    </Form>
  );
}
