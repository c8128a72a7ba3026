import { getFormProps, useForm, type FieldMetadata } from "@conform-to/react";
import { useSchemaValidation } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  DisputeThread,
  MoneyTable,
  OPERATOR_NOTE_MAX,
  SETTLEMENTS,
  centsOf,
  resolveSchema,
  loadDisputeSchemas,
} from "~/features/disputes";
import { disputeForOperator, moneyText, postsText, resolveDispute } from "~/features/disputes/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { formatMoney } from "~/platform/money";
import { requireAdmin } from "~/platform/operator.server";
import { titleFrom } from "~/platform/page-title";
import { redirectWithToast } from "~/platform/toast.server";
import { ChoiceChips } from "~/platform/ui/choices";
import { FormError, TextAreaField, TextField } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["admin", "disputes", "bookings", "profile"],
  title: titleFrom<typeof loader>((_, t) => t("disputes:operator.title")),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const found = await disputeForOperator(params.disputeId ?? "");
  if (!found) throw new Response("Not found", { status: 404 });
  const language = await languageOf(request);
  return {
    ...found,
    posts: postsText(found.posts, language, operator.time_zone),
    moneyText: moneyText(found.money, language),
    refundText: formatMoney(found.dispute.refundCents ?? 0, language),
    constraints: { resolveSchema: constraintOf(resolveSchema) },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const operator = await requireAdmin(request);
  const submission = parseWithZod(await formDataOf(request), { schema: resolveSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { outcome, amount, note } = submission.value;
  const settlement = outcome === "partial" ? { kind: outcome, refundCents: centsOf(amount)! } : { kind: outcome };
  const result = await resolveDispute(operator.id, params.disputeId ?? "", { settlement, note });
  if (!result.ok) {
    if (result.notFound) throw new Response("Not found", { status: 404 });
    return data(submission.reply({ formErrors: [result.message] }), { status: 400 });
  }
  return redirectWithToast(`/admin/disputes/${params.disputeId}`, {
    type: "success",
    title: "disputes:operator.resolved",
  });
}

export default function AdminDispute() {
  const { t } = useTranslation("disputes");
  const { dispute, booking, posts, money, moneyText, refundText } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-bold">{t("operator.title")}</h1>
      <p>
        {t("operator.between", { owner: booking.owner.name, sitter: booking.sitter.name, pet: booking.petName })}{" "}
        <Link to={`/admin/bookings/${booking.id}`} className="font-semibold text-brand-800 underline">
          {t("operator.bookingLink")}
        </Link>
      </p>
      <p>{t("problem.reasonShown", { reason: t(`reasons.${dispute.reason}`) })}</p>
      <MoneyTable money={moneyText} status={money.paymentStatus} pending={money.pending} provider={money.provider} />
      <section aria-labelledby="thread-title" className="space-y-3">
        <h2 id="thread-title" className="text-lg font-bold">
          {t("thread.title")}
        </h2>
        <DisputeThread posts={posts} />
      </section>
      {dispute.status === "open" ? (
        <ResolveForm total={moneyText.total} />
      ) : (
        <section aria-labelledby="outcome-title" className="card space-y-1">
          <h2 id="outcome-title" className="text-lg font-bold">
            {t("problem.settled")}
          </h2>
          <p>{t(`outcome.${dispute.outcome ?? "release"}`, { amount: refundText })}</p>
          {dispute.resolutionNote ? (
            <p className="break-words whitespace-pre-line">
              {t("problem.operatorNote", { note: dispute.resolutionNote })}
            </p>
          ) : null}
        </section>
      )}
    </div>
  );
}

function ResolveForm({ total }: { total: string }) {
  const { t } = useTranslation("disputes");
  const lastResult = useActionData<typeof action>();
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "resolve-dispute",
    ...useSchemaValidation("resolve-dispute", () => loadDisputeSchemas().then((schemas) => schemas.resolveSchema)),
    lastResult,
    constraint: constraints.resolveSchema,
  });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="card space-y-4">
      <h2 className="text-lg font-bold">{t("operator.resolve")}</h2>
      <FormError form={form} />
      <ChoiceChips
        meta={fields.outcome as unknown as FieldMetadata<string>}
        legend={t("operator.outcome")}
        options={SETTLEMENTS}
        type="radio"
        labelOf={(kind) => t(`operator.settlements.${kind}`)}
      />
      <TextField
        meta={fields.amount}
        label={t("operator.amount")}
        hint={t("operator.amountHint", { total })}
        inputMode="decimal"
      />
      <TextAreaField
        meta={fields.note}
        label={t("operator.note")}
        hint={t("admin:reason.hint")}
        rows={3}
        maxLength={OPERATOR_NOTE_MAX}
      />
      <SubmitButton className="w-full">{t("operator.submit")}</SubmitButton>
    </Form>
  );
}
