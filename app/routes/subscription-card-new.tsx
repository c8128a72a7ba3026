import { useForm } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { paymentProvider } from "~/features/payments/index.server";
import { CardEntryForm, STRIPE_CSP, stripeCardResultSchema } from "~/features/payments";
import { PaymentErrorBox, addCardSchema, expiryParts, loadSubscriptionSchemas } from "~/features/subscriptions";
import { addCard } from "~/features/subscriptions/index.server";
import { env } from "~/platform/env.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["subscription", "bookings"], csp: STRIPE_CSP, title: "subscription:methods.addTitle" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const billed = Boolean(paymentProvider().billing);
  return {
    name: user.name,
    constraints: { addCardSchema: constraintOf(addCardSchema) },
    attempt: crypto.randomUUID(),
    stripe: billed ? { publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await formDataOf(request);
  if (form.get("intent") === "stripe") {
    const parsed = stripeCardResultSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success)
      return data(
        { stripeErrors: ["bookings:payment.failed", "subscription:paymentErrors.processing_error"] },
        { status: 400 },
      );
    const saved = await addCard(
      user,
      { kind: "token", token: parsed.data.setupIntent, name: parsed.data.name },
      parsed.data.attempt,
    );
    if (saved.status === "saved")
      return redirectWithToast("/subscription?tab=mine", { type: "success", title: "subscription:toasts.cardAdded" });
    return data(
      { stripeErrors: ["bookings:payment.failed", `subscription:paymentErrors.${saved.code}`] },
      { status: 402 },
    );
  }
  const submission = parseWithZod(form, { schema: addCardSchema });
  if (submission.status !== "success")
    return data(submission.reply({ hideFields: ["number", "cvc"] }), { status: 400 });
  const { name, number, expiry, cvc, attempt } = submission.value;
  const outcome = await addCard(user, { kind: "digits", name, number, cvc, ...expiryParts(expiry) }, attempt);
  if (outcome.status === "saved")
    return redirectWithToast("/subscription?tab=mine", { type: "success", title: "subscription:toasts.cardAdded" });
  return data(
    submission.reply({ formErrors: [`subscription:paymentErrors.${outcome.code}`], hideFields: ["number", "cvc"] }),
    { status: 402 },
  );
}

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === "POST" ? true : defaultShouldRevalidate;

export default function NewCard() {
  const { t } = useTranslation("subscription");
  const { name, attempt, stripe } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && !("stripeErrors" in actionData) ? actionData : undefined;
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "new-card",
    ...useSchemaValidation("new-card", () => loadSubscriptionSchemas().then((schemas) => schemas.addCardSchema)),
    lastResult,
    defaultValue: { name },
    constraint: constraints.addCardSchema as ConstraintOf<typeof addCardSchema>,
  });
  return (
    <>
      <PageHeader title={t("methods.addTitle")} backTo="/subscription?tab=mine" />
      <div className="px-4 pb-8">
        <CardEntryForm
          stripe={
            stripe
              ? {
                  publishableKey: stripe.publishableKey,
                  entryUrl: "/subscription/card-entry",
                  payLabel: t("methods.save"),
                  serverErrors: actionData && "stripeErrors" in actionData ? actionData.stripeErrors : null,
                  pathPrefix: "/subscription/cards/new",
                }
              : null
          }
          form={form}
          fields={fields}
          attempt={attempt}
          labels="subscription:checkout"
          submitLabel={t("methods.save")}
          note={t("checkout.testCards")}
          errors={<PaymentErrorBox form={form} />}
        />
      </div>
    </>
  );
}
