import { useForm } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CardEntryForm, STRIPE_CSP, stripeCardResultSchema, stripeConfirmedSchema } from "~/features/payments";
import {
  CheckoutSummary,
  PaymentErrorBox,
  checkoutSchema,
  expiryParts,
  loadSubscriptionSchemas,
} from "~/features/subscriptions";
import {
  checkout,
  checkoutOffer,
  checkoutRedirect,
  checkoutRefused,
  finishCheckout,
  type CheckoutOutcome,
} from "~/features/subscriptions/index.server";
import { env } from "~/platform/env.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { formatMoney } from "~/platform/money";
import { longDay } from "~/platform/format";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { TextField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = {
  i18n: ["subscription", "bookings"],
  csp: STRIPE_CSP,
  title: titleFrom<typeof loader>(({ plan, switchFrom }, t) =>
    t(switchFrom ? "subscription:checkout.switchTitle" : "subscription:checkout.title", {
      plan: t(`subscription:plans.${plan.id}`, { defaultValue: plan.name }),
    }),
  ),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const offer = await checkoutOffer(user.id, params.planId ?? "");
  if (!offer.ok) return checkoutRefused(offer.reason);
  const { plan, switchFrom, billed } = offer;
  const language = await languageOf(request);
  return {
    plan: { id: plan.id, name: plan.name, price: formatMoney(plan.price_cents, language), interval: plan.interval },
    switchFrom: switchFrom
      ? { ...switchFrom, periodEnd: longDay(language, user.time_zone)(switchFrom.periodEnd) }
      : null,
    name: user.name,
    email: user.email,
    constraints: { checkoutSchema: constraintOf(checkoutSchema) },
    attempt: crypto.randomUUID(),
    stripe: billed ? { publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null } : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await formDataOf(request);
  const intent = form.get("intent");
  if (intent === "stripe" || intent === "stripe-confirmed")
    return stripeAction(user, params.planId ?? "", form, request);
  const submission = parseWithZod(form, { schema: checkoutSchema });
  if (submission.status !== "success")
    return data(submission.reply({ hideFields: ["number", "cvc"] }), { status: 400 });
  const { name, email, number, expiry, cvc, attempt } = submission.value;
  const outcome = await checkout(
    { id: user.id, email },
    params.planId ?? "",
    { kind: "digits", name, number, cvc, ...expiryParts(expiry) },
    attempt,
  );
  const settled = await checkoutRedirect(outcome, user.time_zone, await languageOf(request));
  if (settled) return settled;
  if (outcome.status === "refused" && outcome.reason === "stale")
    return data(submission.reply({ formErrors: ["subscription:errors.stale"], hideFields: ["number", "cvc"] }), {
      status: 409,
    });
  const code = outcome.status === "failed" ? outcome.code : "processing_error";
  return data(submission.reply({ formErrors: [`subscription:paymentErrors.${code}`], hideFields: ["number", "cvc"] }), {
    status: 402,
  });
}

/**
 * Intent "stripe": the SetupIntent Stripe.js confirmed; "stripe-confirmed": the subscription whose
 * first payment the payer confirmed in Stripe's frame.
 */
async function stripeAction(
  user: { id: string; email: string; time_zone: string },
  planId: string,
  form: FormData,
  request: Request,
) {
  const failed = (code: string, status: number) =>
    data({ stripeErrors: ["bookings:payment.failed", `subscription:paymentErrors.${code}`] }, { status });
  let outcome: CheckoutOutcome;
  if (form.get("intent") === "stripe") {
    const parsed = stripeCardResultSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return failed("processing_error", 400);
    outcome = await checkout(
      user,
      planId,
      { kind: "token", token: parsed.data.setupIntent, name: parsed.data.name },
      parsed.data.attempt,
    );
  } else {
    const parsed = stripeConfirmedSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return failed("processing_error", 400);
    outcome = await finishCheckout(user.id, parsed.data.subscriptionId);
  }
  const settled = await checkoutRedirect(outcome, user.time_zone, await languageOf(request));
  if (settled) return settled;
  if (outcome.status === "confirm")
    return data({ stripeConfirm: { clientSecret: outcome.clientSecret, subscriptionId: outcome.subscriptionId } });
  if (outcome.status === "refused") return data({ stripeErrors: ["subscription:errors.stale"] }, { status: 409 });
  return failed(outcome.status === "failed" ? outcome.code : "processing_error", 402);
}

/** A refused card is a new attempt: the page gets a fresh attempt key even though the answer was an error. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === "POST" ? true : defaultShouldRevalidate;

export default function SubscriptionCheckout() {
  const { t } = useTranslation("subscription");
  const { plan, switchFrom, name, email, attempt, stripe } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult =
    actionData && !("stripeErrors" in actionData) && !("stripeConfirm" in actionData) ? actionData : undefined;
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "subscription-checkout",
    ...useSchemaValidation("subscription-checkout", () =>
      loadSubscriptionSchemas().then((schemas) => schemas.checkoutSchema),
    ),
    lastResult,
    defaultValue: { name, email },
    constraint: constraints.checkoutSchema as ConstraintOf<typeof checkoutSchema>,
  });
  const planName = t(`plans.${plan.id}`, { defaultValue: plan.name });
  const payLabel = t("checkout.pay", { price: plan.price });
  return (
    <>
      <PageHeader
        title={t(switchFrom ? "checkout.switchTitle" : "checkout.title", { plan: planName })}
        backTo="/subscription"
      />
      <div className="space-y-5 px-4 pb-8">
        <Link to="/subscription" className="link inline-block">
          {t("checkout.back")}
        </Link>
        <CheckoutSummary plan={plan} switchFrom={switchFrom} />
        <CardEntryForm
          stripe={
            stripe
              ? {
                  publishableKey: stripe.publishableKey,
                  entryUrl: `/subscription/card-entry?plan=${encodeURIComponent(plan.id)}`,
                  payLabel,
                  serverErrors: actionData && "stripeErrors" in actionData ? actionData.stripeErrors : null,
                  paymentToConfirm: actionData && "stripeConfirm" in actionData ? actionData.stripeConfirm : null,
                  pathPrefix: "/subscription/checkout/",
                }
              : null
          }
          form={form}
          fields={fields}
          attempt={attempt}
          labels="subscription:checkout"
          submitLabel={switchFrom ? t("checkout.confirmSwitch") : payLabel}
          note={t("checkout.testCards")}
          errors={<PaymentErrorBox form={form} />}
        >
          <TextField meta={fields.email} label={t("checkout.email")} type="email" autoComplete="email" />
        </CardEntryForm>
      </div>
    </>
  );
}
