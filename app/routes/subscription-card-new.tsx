import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CardFields, PaymentErrorBox } from "~/features/subscriptions/card-fields";
import { addCardSchema, expiryParts } from "~/features/subscriptions/schema";
import { addCard } from "~/features/subscriptions/subscriptions.server";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { TextField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["subscription"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { name: user.name, attempt: crypto.randomUUID() };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await formDataOf(request), { schema: addCardSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["number", "cvc"] }), { status: 400 });
  const { name, number, expiry, cvc, attempt } = submission.value;
  const outcome = await addCard(user, { kind: "digits", name, number, cvc, ...expiryParts(expiry) }, attempt);
  if (outcome.status === "saved") return redirectWithToast("/subscription?tab=mine", { type: "success", title: "subscription:toasts.cardAdded" });
  return data(submission.reply({ formErrors: [`subscription:paymentErrors.${outcome.code}`], hideFields: ["number", "cvc"] }), { status: 402 });
}

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod === "POST" ? true : defaultShouldRevalidate);

export default function NewCard() {
  const { t } = useTranslation("subscription");
  const { name, attempt } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "new-card",
    lastResult,
    defaultValue: { name },
    constraint: getZodConstraint(addCardSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addCardSchema }),
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <PageHeader title={t("methods.addTitle")} backTo="/subscription?tab=mine" />
      <div className="px-4 pb-8">
        <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
          <PaymentErrorBox form={form} />
          <input type="hidden" name="attempt" value={attempt} />
          <TextField meta={fields.name} label={t("checkout.name")} autoComplete="cc-name" />
          <CardFields number={fields.number} expiry={fields.expiry} cvc={fields.cvc} />
          <SubmitButton className="w-full">{t("methods.save")}</SubmitButton>
          <p className="text-center text-sm text-stone-700">{t("checkout.testCards")}</p>
        </Form>
      </div>
    </>
  );
}
